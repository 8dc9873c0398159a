import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, REQUEST_TIMEOUT_MS } from '../constants';
import { invalidCredentialError, serviceResponseError } from '../errors';
import type { ExpectedAnswer } from '../errors';
import { normalizeBaseUrl } from '../helpers/url';

/**
 * preSend of every declarative read: a base URL that cannot work is named before n8n tries it,
 * and a read waits 30 s (not n8n's 5 minutes) unless Request Options → Timeout says otherwise.
 */
export async function prepareRead(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const base = normalizeBaseUrl((await this.getCredentials(CREDENTIAL_TYPE)).baseUrl);
	if (!base.ok) throw invalidCredentialError(this.getNode(), base.reason);
	const { timeout } = this.getNodeParameter('requestOptions', {}) as IDataObject;
	if (!timeout) requestOptions.timeout = REQUEST_TIMEOUT_MS;
	return requestOptions;
}

/**
 * The read's answer, when it is one the node can use; otherwise the node's own error for it. The
 * reads ask n8n not to throw on HTTP errors (ignoreHttpStatusErrors), so every answer comes here.
 */
export function usableAnswer(
	context: IExecuteSingleFunctions,
	response: IN8nHttpFullResponse,
	expect: ExpectedAnswer,
): unknown {
	const error = serviceResponseError(
		context,
		{ statusCode: response.statusCode, headers: response.headers ?? {}, body: response.body },
		{ itemIndex: context.getItemIndex(), expect },
	);
	if (error) throw error;
	return response.body;
}

/** An n8n item must be an object: list entries that are not (null, text) are left out. */
export function objectsOf(list: unknown): IDataObject[] {
	return (Array.isArray(list) ? (list as unknown[]) : []).filter(
		(entry): entry is IDataObject => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
}

export function pairedTo(context: IExecuteSingleFunctions, json: IDataObject): INodeExecutionData {
	return { json, pairedItem: { item: context.getItemIndex() } };
}
