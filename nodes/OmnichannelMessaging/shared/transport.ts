import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { requestFailureError, serviceResponseError } from './errors';
import type { DeliveryOutcome, ServiceResponse } from './errors';
import { normalizeBaseUrl } from './url';

export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';
export const API_PREFIX = '/stable/open';

type RequestContext = IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions;

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path below /stable/open, e.g. "/whatsapp/get-template-list". */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	timeout?: number;
}

export async function getServiceBaseUrl(this: RequestContext): Promise<string> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const base = normalizeBaseUrl(credentials.baseUrl);
	if (!base.ok) {
		throw new NodeOperationError(this.getNode(), `Invalid credential: ${base.reason}`, {
			description: 'Open the Omnichannel Messaging API credential and fix the Base URL.',
		});
	}
	return base.url;
}

/**
 * Every request of the node goes through here, so n8n's proxy, timeout and credential handling
 * apply. HTTP errors come back as answers (not exceptions): n8n's helper would otherwise re-send
 * a request that got a 401, and a send must never go out twice.
 */
export async function sendServiceRequest(
	this: RequestContext,
	request: ServiceRequest,
	baseUrl?: string,
	delivery?: DeliveryOutcome,
	itemIndex?: number,
): Promise<ServiceResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: baseUrl ?? (await getServiceBaseUrl.call(this)),
		url: `${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeout ?? 30_000,
	};
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			options,
		)) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
		return {
			statusCode: response.statusCode,
			headers: response.headers ?? {},
			body: response.body,
		};
	} catch (error) {
		throw requestFailureError(this.getNode(), error, { itemIndex, delivery });
	}
}

/** A read: the JSON body on success, a NodeApiError otherwise. */
export async function omnichannelApiRequest<T = unknown>(
	this: RequestContext,
	request: ServiceRequest,
	itemIndex?: number,
): Promise<T> {
	const response = await sendServiceRequest.call(this, request, undefined, undefined, itemIndex);
	const error = serviceResponseError(this.getNode(), response, { itemIndex });
	if (error) throw error;
	return response.body as T;
}
