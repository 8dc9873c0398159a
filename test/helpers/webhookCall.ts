/*
 * One request to the node's waiting webhook, through n8n-core's own WebhookContext: parameters
 * resolve as n8n resolves them (expressions against the waiting item), the body is what n8n's
 * server hands the node, and binary data is stored by n8n-core's helpers. Only the HTTP request
 * and response objects, which n8n's server would give, are made here.
 */
import { WebhookContext } from 'n8n-core';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IWebhookData,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	additionalDataFor,
	CREDENTIAL_TYPE,
	credentialTypeOf,
	loadPackage,
	NODE_NAME,
	NODE_TYPE,
	packageNode,
	PackageNodeTypes,
	TestCredentialsHelper,
} from './engine';
import type { CredentialData } from './engine';

export interface WebhookRequest {
	method: string;
	query?: IDataObject;
	/** What n8n's server parsed: for multipart, `{ data, files }` as its form-data parser gives. */
	body?: IDataObject;
	headers?: IDataObject;
	/** The waiting node's input item, which expressions read. */
	item?: IDataObject;
	/** The node's credential, for an operation whose page reads from the service. */
	credentials?: CredentialData;
}

export interface WebhookAnswer {
	result: IWebhookResponseData;
	status?: number;
	headers?: Record<string, string>;
	page: string;
	/** What the node logged through n8n's logger. */
	logged: string[];
	/** How often the node read its credential through n8n's credentials helper. */
	credentialReads: number;
}

/** Whose webhook is called: Send and Wait's (the node, version 2), or the trigger's. */
export interface WebhookTarget {
	type: string;
	typeVersion: number;
	/** A trigger's: its path, `/webhook/<webhook ID>`. */
	webhookId?: string;
	/** The ID of the node's credential, when not the usual one. */
	credentialId?: string;
}

const SEND_AND_WAIT: WebhookTarget = { type: NODE_TYPE, typeVersion: 2 };

/**
 * Calls the node's `webhook` for one request, as n8n's waiting-webhook server does (or, for a
 * trigger, its production webhook server).
 */
export async function callWebhook(
	parameters: INodeParameters,
	request: WebhookRequest,
	target: WebhookTarget = SEND_AND_WAIT,
): Promise<WebhookAnswer> {
	const loader = await loadPackage();
	const nodeTypes = new PackageNodeTypes(loader);
	const node = {
		...packageNode(parameters, target.typeVersion),
		type: target.type,
		...(target.webhookId ? { webhookId: target.webhookId } : {}),
		...(target.credentialId
			? { credentials: { [CREDENTIAL_TYPE]: { id: target.credentialId, name: 'Another account' } } }
			: {}),
	};
	const workflow = new Workflow({
		id: 'wf-1',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new TestCredentialsHelper(
		credentialTypeOf(loader),
		request.credentials ?? { baseUrl: '', apiKey: '' },
	);
	const additionalData = additionalDataFor(credentialsHelper);
	additionalData.executionId = 'exec-form';
	const answer: WebhookAnswer = { result: {}, page: '', logged: [], credentialReads: 0 };
	// n8n's server sets `contentType` to the Content-Type header's media type, without parameters.
	const contentType = String(request.headers?.['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	additionalData.httpRequest = {
		method: request.method,
		contentType: contentType || undefined,
		query: request.query ?? {},
		body: request.body ?? {},
		headers: request.headers ?? {},
		params: {},
	} as never;
	additionalData.httpResponse = {
		writeHead: (status: number, headers: Record<string, string>) =>
			Object.assign(answer, { status, headers }),
		end: (page: string) => Object.assign(answer, { page }),
	} as never;
	const type = nodeTypes.getByNameAndVersion(target.type, target.typeVersion);
	const webhooks = type.description.webhooks!;
	const items: INodeExecutionData[] = [{ json: request.item ?? {} }];
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [items] }, source: null }] },
	});
	const webhookData = {
		httpMethod: request.method,
		node: NODE_NAME,
		path: target.webhookId ?? 'node-1',
		webhookDescription: webhooks.find((hook) => hook.httpMethod === request.method) ?? webhooks[0],
		workflowId: 'wf-1',
		workflowExecuteAdditionalData: additionalData,
	} as IWebhookData;
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		'webhook',
		webhookData,
		[],
		runExecutionData,
	);
	const log = (message: string) => answer.logged.push(message);
	Object.defineProperty(context, 'logger', {
		value: { debug: log, info: log, warn: log, error: log },
	});
	answer.result = await type.webhook!.call(context);
	answer.credentialReads = credentialsHelper.reads;
	return answer;
}
