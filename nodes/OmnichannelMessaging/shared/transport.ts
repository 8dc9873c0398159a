import { NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { requestFailureError, serviceResponseError } from './errors';
import type { DeliveryOutcome, ExpectedAnswer, ServiceResponse } from './errors';
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

async function readBaseUrl(this: RequestContext, credentials: ICredentialDataDecryptedObject): Promise<string> {
	const base = normalizeBaseUrl(credentials.baseUrl);
	if (!base.ok) {
		throw new NodeOperationError(this.getNode(), `Invalid credential: ${base.reason}`, {
			description: 'Open the Omnichannel Messaging API credential and fix the Base URL.',
		});
	}
	return base.url;
}

export async function getServiceBaseUrl(this: RequestContext): Promise<string> {
	return await readBaseUrl.call(this, await this.getCredentials(CREDENTIAL_TYPE));
}

/** The credential, read and checked once, for a run of many requests. */
export interface ServiceConnection {
	baseUrl: string;
	credentialsDecrypted: ICredentialsDecrypted;
}

/**
 * n8n reads (and in a real instance, loads from its database and decrypts) the credential on
 * every request unless it is handed over; a broadcast reads it once.
 */
export async function connectToService(this: IExecuteFunctions): Promise<ServiceConnection> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: await readBaseUrl.call(this, data),
		credentialsDecrypted: { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data },
	};
}

/**
 * Every request of the node goes through here, so n8n's proxy, timeout and credential handling
 * apply. HTTP errors come back as answers (not exceptions): n8n's helper would otherwise re-send
 * a request that got a 401, and a send must never go out twice.
 */
export async function sendServiceRequest(
	this: RequestContext,
	request: ServiceRequest,
	connection?: ServiceConnection,
	delivery?: DeliveryOutcome,
	itemIndex?: number,
): Promise<ServiceResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: connection?.baseUrl ?? (await getServiceBaseUrl.call(this)),
		url: `${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeout ?? 30_000,
	};
	const response = (await requestWithDeadline(
		this,
		this.helpers.httpRequestWithAuthentication as HttpHelper,
		CREDENTIAL_TYPE,
		options,
		{ itemIndex, delivery },
		connection ? { credentialsDecrypted: connection.credentialsDecrypted } : undefined,
	)) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
	return {
		statusCode: response.statusCode,
		headers: response.headers ?? {},
		body: response.body,
	};
}

type HttpHelper = (
	this: unknown,
	credentialsType: string,
	options: IHttpRequestOptions,
	additional?: unknown,
) => Promise<unknown>;

/**
 * One request, ended at `options.timeout` however the service behaves. n8n's helper has only a
 * socket-idle timeout (a response that trickles a byte at a time never trips it) and replaces
 * options.abortSignal with the execution's cancel signal, so the helper is called on a context
 * whose cancel signal also fires at the deadline. n8n's error is never passed on: it carries the
 * request, and with it the API key header.
 */
async function requestWithDeadline(
	context: RequestContext,
	helper: HttpHelper,
	credentialsType: string,
	options: IHttpRequestOptions,
	place: { itemIndex?: number; delivery?: DeliveryOutcome },
	additional?: unknown,
): Promise<unknown> {
	// Whole milliseconds that timers accept: past 2^31-1 they overflow and would fire at once.
	const timeout = Math.min(Math.max(Math.ceil(options.timeout ?? 30_000), 1), 2_147_483_647) || 30_000;
	const deadline = AbortSignal.timeout(timeout);
	const cancel = 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
	const bounded = Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as RequestContext;
	try {
		return await helper.call(bounded, credentialsType, { ...options, timeout, abortSignal: signal }, additional);
	} catch (error) {
		throw requestFailureError(context.getNode(), deadline.aborted ? { code: 'ETIMEDOUT' } : error, place);
	}
}

/** How long a declarative read (Get, Get Many) may take; n8n's own default is 5 minutes. */
export const READ_TIMEOUT_MS = 30_000;

/**
 * preSend of the declarative reads: n8n's routing makes their request, so its helper is wrapped
 * here to give them the deadline and error mapping of every other request of the node.
 */
export function boundDeclarativeRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): void {
	const original = this.helpers.httpRequestWithAuthentication as HttpHelper;
	const place = { itemIndex: this.getItemIndex() };
	requestOptions.timeout = READ_TIMEOUT_MS;
	this.helpers.httpRequestWithAuthentication = (async (credentialsType: string, options: IHttpRequestOptions, additional?: unknown) =>
		await requestWithDeadline(this, original, credentialsType, { ...options, timeout: READ_TIMEOUT_MS }, place, additional)
	) as IExecuteSingleFunctions['helpers']['httpRequestWithAuthentication'];
}

/** A read: the JSON body on success, a NodeApiError otherwise. */
export async function omnichannelApiRequest<T = unknown>(
	this: RequestContext,
	request: ServiceRequest,
	itemIndex?: number,
	expect?: ExpectedAnswer,
	connection?: ServiceConnection,
): Promise<T> {
	const response = await sendServiceRequest.call(this, request, connection, undefined, itemIndex);
	const error = serviceResponseError(this, response, { itemIndex, expect });
	if (error) throw error;
	return response.body as T;
}
