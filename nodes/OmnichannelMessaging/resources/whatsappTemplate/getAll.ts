import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { channelIdField, showFor } from '../../shared/descriptions';
import { invalidInputError } from '../../shared/errors';
import { throwIfServiceError } from '../../shared/readHooks';
import { API_PREFIX, boundDeclarativeRequest, getServiceBaseUrl } from '../../shared/transport';
import { readChannelId, TEMPLATE_LIST_PATH } from '../../shared/templates';
import { toPositiveInteger } from '../../shared/values';

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

/** How many templates to return: all, or Limit, a whole number of 1 or more (checked before the request). */
function readLimit(this: IExecuteSingleFunctions): number {
	if (this.getNodeParameter('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	const raw = this.getNodeParameter('limit', 50);
	const limit = toPositiveInteger(raw);
	if (limit === undefined) {
		throw invalidInputError(
			this.getNode(),
			this.getItemIndex(),
			'Limit',
			`${JSON.stringify(raw) ?? 'nothing'} is not a whole number of 1 or more`,
		);
	}
	return limit;
}

async function setTemplateListQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.baseURL = await getServiceBaseUrl.call(this);
	boundDeclarativeRequest.call(this, requestOptions);
	requestOptions.qs = { platform_id: readChannelId.call(this, this.getItemIndex()) };
	readLimit.call(this);
	return requestOptions;
}

/** One n8n item per template, capped by Limit unless Return All is on. */
async function splitTemplates(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	throwIfServiceError.call(this, response, 'templateList');
	// An n8n item must be an object: entries that are not (null, text) are left out.
	const templates = (Array.isArray(response.body) ? (response.body as unknown[]) : []).filter(
		(entry): entry is IDataObject => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
	const limit = readLimit.call(this);
	const itemIndex = this.getItemIndex();
	return templates.slice(0, limit).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

export const getAllRouting = {
	request: {
		method: 'GET' as const,
		url: `${API_PREFIX}${TEMPLATE_LIST_PATH}`,
		ignoreHttpStatusErrors: true,
	},
	send: { preSend: [setTemplateListQuery] },
	output: { postReceive: [splitTemplates] },
};
