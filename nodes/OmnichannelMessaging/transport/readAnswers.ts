import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE, REQUEST_TIMEOUT_MS } from '../constants';
import { invalidCredentialError, serviceResponseError } from '../errors';
import type { ExpectedAnswer } from '../errors';
import { normalizeBaseUrl } from '../helpers/url';

/** One declarative read: its path, its query from the item's checked parameters, and its items from the answer. */
export interface DeclarativeRead {
	path: string;
	expect: ExpectedAnswer;
	/** Throws the item's input error before any request is made. */
	query(this: IExecuteSingleFunctions): IDataObject;
	output(this: IExecuteSingleFunctions, body: unknown): IDataObject[];
}

/**
 * preSend of every read: the query from checked parameters, a base URL that cannot work named
 * before n8n tries it, and a 30 s wait (not n8n's 5 minutes) unless Request Options → Timeout says otherwise.
 */
async function prepareRead(
	this: IExecuteSingleFunctions,
	read: DeclarativeRead,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.qs = read.query.call(this);
	const base = normalizeBaseUrl((await this.getCredentials(CREDENTIAL_TYPE)).baseUrl);
	if (!base.ok) throw invalidCredentialError(this.getNode(), base.reason);
	const { timeout } = this.getNodeParameter('requestOptions', {}) as IDataObject;
	if (!timeout) requestOptions.timeout = REQUEST_TIMEOUT_MS;
	return requestOptions;
}

/**
 * postReceive of every read. The reads ask n8n not to throw on HTTP errors (ignoreHttpStatusErrors),
 * so every answer comes here: an unusable one becomes the node's own error, a usable one items
 * paired to the input item.
 */
function outputOf(
	context: IExecuteSingleFunctions,
	read: DeclarativeRead,
	response: IN8nHttpFullResponse,
): INodeExecutionData[] {
	const itemIndex = context.getItemIndex();
	const error = serviceResponseError(
		context,
		{ statusCode: response.statusCode, headers: response.headers ?? {}, body: response.body },
		{ itemIndex, expect: read.expect },
	);
	if (error) throw error;
	return read.output.call(context, response.body).map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** The routing of a read: n8n's routing makes the request with n8n's helper, from requestDefaults.baseURL. */
export function declarativeRead(read: DeclarativeRead) {
	return {
		request: { method: 'GET' as const, url: `${API_PREFIX}${read.path}` },
		send: {
			preSend: [
				async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
					return await prepareRead.call(this, read, requestOptions);
				},
			],
		},
		output: {
			postReceive: [
				async function (this: IExecuteSingleFunctions, _items: INodeExecutionData[], response: IN8nHttpFullResponse) {
					return outputOf(this, read, response);
				},
			],
		},
	};
}

/** An n8n item must be an object: list entries that are not (null, text) are left out. */
export function objectsOf(list: unknown): IDataObject[] {
	return (Array.isArray(list) ? (list as unknown[]) : []).filter(
		(entry): entry is IDataObject => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
}
