import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { channelIdField, templateIdField } from '../../shared/descriptions';
import { readTemplateBody } from '../../shared/readHooks';
import { API_PREFIX, boundDeclarativeRequest, getServiceBaseUrl } from '../../shared/transport';
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
		url: `${API_PREFIX}${TEMPLATE_DETAIL_PATH}`,
		ignoreHttpStatusErrors: true,
	},
	send: { preSend: [setTemplateDetailQuery] },
	output: { postReceive: [readTemplateBody] },
};
