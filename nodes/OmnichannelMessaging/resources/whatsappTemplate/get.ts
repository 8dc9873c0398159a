import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { channelIdField, channelIdFrom } from '../../channel/fields';
import { API_PREFIX, PATHS } from '../../constants';
import { templateIdField, templateIdFrom } from '../../template/fields';
import { pairedTo, prepareRead, usableAnswer } from '../../transport/readAnswers';

export const getDescription: INodeProperties[] = [channelIdField('get'), templateIdField('get')];

/** The query, from the channel and template checked first, so a bad one names the item and the field. */
async function setTemplateDetailQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	requestOptions.qs = {
		platform_id: channelIdFrom(this.getNodeParameter('channelId', undefined), this.getNode(), itemIndex),
		template_id: templateIdFrom(this.getNodeParameter('templateId', undefined), this.getNode(), itemIndex),
	};
	return await prepareRead.call(this, requestOptions);
}

async function outputTemplate(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	return [pairedTo(this, usableAnswer(this, response, 'template') as IDataObject)];
}

export const getRouting = {
	request: { method: 'GET' as const, url: `${API_PREFIX}${PATHS.templateDetail}` },
	send: { preSend: [setTemplateDetailQuery] },
	output: { postReceive: [outputTemplate] },
};
