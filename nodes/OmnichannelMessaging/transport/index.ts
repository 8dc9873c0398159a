import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IWebhookFunctions,
} from 'n8n-workflow';

import {
	API_PREFIX,
	CREDENTIAL_TYPE,
	EDITOR_TIMEOUT_MS,
	MAX_TIMER_MS,
	REQUEST_TIMEOUT_MS,
	PATHS,
} from '../constants';
import type { WhatsAppTemplate } from '../constants';
import { invalidCredentialError, channelListMissingError } from '../helpers/errors/run';
import {
	requestFailureError,
	serviceResponseError,
	silentServiceError,
} from '../helpers/errors/service';
import type { ExpectedAnswer, ServiceResponse } from '../helpers/errors/service';
import type { FailedSendOutcome } from '../helpers/errors/facts';
import { checkCredential, toPositiveInteger } from '../helpers/values';
import { isRedirect, redirectError, scrubSecrets, secretsOf } from './secrets';

/** Every request of the node: the operations, the editor's lists and mapper, and the answer page. */
type RequestFunctions = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path below /stable/open, one of PATHS. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	timeout?: number;
}

/** The credential, read and checked once, for a run of many requests. */
export interface ServiceConnection {
	baseUrl: string;
	credentialsDecrypted: ICredentialsDecrypted;
	/** What every answer is scrubbed of before anything reads it: the key, the Base URL's user-info. */
	secrets: readonly string[];
	/** How long a request of this run may take unless the request says otherwise (default 30 s). */
	timeout?: number;
	/** An editor call: a service still silent at the timeout is named, with the Base URL to check. */
	editor?: boolean;
}

/** Where a request stands: which item it is for, and what a failure means for delivery. */
export interface RequestPlace {
	itemIndex?: number;
	/** Set on sends: says whether the message can have gone out. */
	delivery?: FailedSendOutcome;
	/** The execution's cancel signal, where there is an execution to cancel. */
	cancelSignal?: AbortSignal;
}

/**
 * n8n reads (in a real instance: loads from its database and decrypts) the credential on every
 * request unless it is handed over; a broadcast reads it once. `node`: the execution's copy where it
 * has one (getNode() deep-copies the node).
 */
export async function connectToService(
	this: RequestFunctions,
	node?: INode,
): Promise<ServiceConnection> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const saved = node ?? this.getNode();
	const checked = checkCredential(data);
	if (!checked.ok) throw invalidCredentialError(saved, checked);
	const reference = saved.credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: checked.value.baseUrl,
		credentialsDecrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
		secrets: secretsOf(data),
	};
}

/** The editor's lists and mapper: someone waits for them, so they end within EDITOR_TIMEOUT_MS. */
export async function connectForEditor(this: ILoadOptionsFunctions): Promise<ServiceConnection> {
	return { ...(await connectToService.call(this)), timeout: EDITOR_TIMEOUT_MS, editor: true };
}

type HttpHelper = (
	this: unknown,
	credentialsType: string,
	options: IHttpRequestOptions,
	additional?: unknown,
) => Promise<unknown>;

/** The options of n8n's helper for one request: answers of any status, no redirect followed. */
function httpOptions(
	connection: ServiceConnection,
	request: ServiceRequest,
	timeout: number,
	signal: AbortSignal,
): IHttpRequestOptions {
	return {
		method: request.method,
		baseURL: connection.baseUrl,
		url: `${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout,
		abortSignal: signal,
	};
}

/** Whole milliseconds that timers accept; the default when none is given or it is unusable. */
function timeoutMs(requested: number | undefined): number {
	const bounded = Math.min(Math.max(Math.ceil(requested ?? REQUEST_TIMEOUT_MS), 1), MAX_TIMER_MS);
	return bounded || REQUEST_TIMEOUT_MS;
}

/** One request through n8n's helper, which adds the credential's header. */
async function requestThroughN8n(
	functions: RequestFunctions,
	connection: ServiceConnection,
	options: IHttpRequestOptions,
): Promise<ServiceResponse> {
	const response = (await (functions.helpers.httpRequestWithAuthentication as HttpHelper).call(
		functions,
		CREDENTIAL_TYPE,
		options,
		{ credentialsDecrypted: connection.credentialsDecrypted },
	)) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
	return { statusCode: response.statusCode, headers: response.headers ?? {}, body: response.body };
}

/**
 * One request through n8n's helper (so n8n's proxy, SSRF policy and credential handling apply),
 * ended at its timeout however the service behaves. HTTP errors come back as answers: n8n's
 * helper would otherwise re-send a request that got a 401, and a send must never go out twice.
 * No redirect is followed: n8n's helper would carry the key header to any host a 3xx names (it
 * strips only Authorization and cookies), and send a message again on each hop. Every answer is
 * scrubbed of the credential's secrets before anything (an item, an error) is made of it.
 */
export async function serviceRequest(
	this: RequestFunctions,
	connection: ServiceConnection,
	request: ServiceRequest,
	place: RequestPlace = {},
): Promise<ServiceResponse> {
	const timeout = timeoutMs(request.timeout ?? connection.timeout);
	const deadline = AbortSignal.timeout(timeout);
	const signal = place.cancelSignal ? AbortSignal.any([place.cancelSignal, deadline]) : deadline;
	// n8n's helper listens to the execution's cancel signal only (a trickling answer never trips its
	// idle timeout), so it gets functions whose cancel signal also fires at the deadline.
	const bounded = Object.create(this, {
		getExecutionCancelSignal: { value: () => signal },
	}) as RequestFunctions;
	let answer: ServiceResponse;
	try {
		answer = await requestThroughN8n(
			bounded,
			connection,
			httpOptions(connection, request, timeout, signal),
		);
	} catch (error) {
		if (deadline.aborted && connection.editor)
			throw silentServiceError(this.getNode(), connection.baseUrl, timeout);
		// n8n's error is never passed on: it carries the request, and with it the API key header.
		throw requestFailureError(
			this.getNode(),
			deadline.aborted ? { code: 'ETIMEDOUT' } : error,
			place,
		);
	}
	const clean = scrubSecrets(answer, connection.secrets);
	if (isRedirect(clean.statusCode))
		throw redirectError(this.getNode(), clean, connection.baseUrl, place);
	return clean;
}

/** A read: the JSON body when it has the expected shape, a NodeApiError otherwise. */
export async function readJson<T>(
	this: RequestFunctions,
	connection: ServiceConnection,
	request: ServiceRequest,
	expect: ExpectedAnswer,
	place: RequestPlace = {},
): Promise<T> {
	const response = await serviceRequest.call(this, connection, request, place);
	const error = serviceResponseError(this, response, { itemIndex: place.itemIndex, expect });
	if (error) throw error;
	return response.body as T;
}

export interface Channel {
	id: number;
	title: string;
	number: string;
}

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/** Deployments name it `platform_id` or `id` (field-notes.md, Channels); entries without one cannot be picked. */
function toChannel(entry: unknown): Channel | undefined {
	if (typeof entry !== 'object' || entry === null) return undefined;
	const record = entry as Record<string, unknown>;
	const id = toPositiveInteger(record.platform_id) ?? toPositiveInteger(record.id);
	if (id === undefined) return undefined;
	return { id, title: text(record.title) || `Channel ${id}`, number: text(record.number) };
}

/** Not in the spec: a deployment without it answers 404, and the picker says to give the channel by ID. */
export async function fetchChannelList(
	this: ILoadOptionsFunctions,
	connection: ServiceConnection,
): Promise<Channel[]> {
	const response = await serviceRequest.call(this, connection, {
		method: 'GET',
		path: PATHS.channelList,
	});
	if (response.statusCode === 404) throw channelListMissingError(this.getNode());
	const error = serviceResponseError(this, response, { expect: 'channelList' });
	if (error) throw error;
	return (response.body as unknown[])
		.map(toChannel)
		.filter((channel): channel is Channel => channel !== undefined);
}

/**
 * One template with its body, header and variables: for Get, the sends' check, the variables
 * mapper and the answer page's question.
 */
export async function fetchTemplate(
	this: RequestFunctions,
	connection: ServiceConnection,
	where: { channelId: number; templateId: number },
	place?: RequestPlace,
): Promise<WhatsAppTemplate> {
	return (await readJson.call(
		this,
		connection,
		{
			method: 'GET',
			path: PATHS.templateDetail,
			qs: { platform_id: where.channelId, template_id: where.templateId },
		},
		'template',
		place,
	)) as WhatsAppTemplate;
}

/** A channel's approved templates: for Get Many and the template dropdown. */
export async function fetchTemplateList(
	this: RequestFunctions,
	connection: ServiceConnection,
	channelId: number,
	place?: RequestPlace,
): Promise<WhatsAppTemplate[]> {
	return (await readJson.call(
		this,
		connection,
		{ method: 'GET', path: PATHS.templateList, qs: { platform_id: channelId } },
		'templateList',
		place,
	)) as WhatsAppTemplate[];
}
