import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { channelIdField, templateIdField } from '../../shared/descriptions';
import { readServiceBody } from '../../shared/readHooks';
import { boundDeclarativeRequest, getServiceBaseUrl } from '../../shared/transport';
import { readChannelId, readTemplateId, TEMPLATE_DETAIL_PATH } from '../../shared/templates';

export const getDescription: INodeProperties[] = [channelIdField('get'), templateIdField('get')];

async function setTemplateDetailQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	requestOptions.baseURL = await getServiceBaseUrl.call(this);
	boundDeclarativeRequest.call(this, requestOptions);
	requestOptions.qs = {
		platform_id: readChannelId.call(this, itemIndex),
		template_id: readTemplateId.call(this, itemIndex),
	};
	return requestOptions;
}

export const getRouting = {
	request: {
		method: 'GET' as const,
		url: `=/stable/open${TEMPLATE_DETAIL_PATH}`,
		ignoreHttpStatusErrors: true,
	},
	send: { preSend: [setTemplateDetailQuery] },
	output: { postReceive: [readServiceBody] },
};
