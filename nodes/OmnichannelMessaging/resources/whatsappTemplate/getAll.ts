import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { channelIdField, showFor } from '../../shared/descriptions';
import { throwIfServiceError } from '../../shared/readHooks';
import { getServiceBaseUrl } from '../../shared/transport';
import { readChannelId, TEMPLATE_LIST_PATH } from '../../shared/templates';

export const getAllDescription: INodeProperties[] = [
	channelIdField('getAll'),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: showFor('whatsappTemplate', 'getAll'),
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description: 'Max number of results to return',
		displayOptions: { show: { resource: ['whatsappTemplate'], operation: ['getAll'], returnAll: [false] } },
	},
];

async function setTemplateListQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.baseURL = await getServiceBaseUrl.call(this);
	requestOptions.qs = { platform_id: readChannelId.call(this, this.getItemIndex()) };
	return requestOptions;
}

/** One n8n item per template, capped by Limit unless Return All is on. */
async function splitTemplates(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	throwIfServiceError.call(this, response);
	const templates = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
	const returnAll = this.getNodeParameter('returnAll', false) as boolean;
	const limit = returnAll ? templates.length : Math.max(1, Number(this.getNodeParameter('limit', 50)));
	const itemIndex = this.getItemIndex();
	return templates.slice(0, limit).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

export const getAllRouting = {
	request: {
		method: 'GET' as const,
		url: `=/stable/open${TEMPLATE_LIST_PATH}`,
		ignoreHttpStatusErrors: true,
	},
	send: { preSend: [setTemplateListQuery] },
	output: { postReceive: [splitTemplates] },
};
