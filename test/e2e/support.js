'use strict';
/* Helpers shared by the e2e tests: an n8n user folder per test file, workflow builders, output readers. */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { startFakeService } = require('../fake-service');
const { mapperValue } = require('../helpers/mapperValue');

const API_KEY = 'e2e-api-key-0123456789';
const CREDENTIAL = { id: 'OmniSandboxCred1', name: 'Omnichannel Messaging sandbox' };

// A test run must leave tracked files alone: docs/*.png change only through `npm run docs:screenshots`.
const SCREENSHOTS = path.resolve(
	n8n.REPO_ROOT,
	process.env.E2E_SCREENSHOT_DIR || path.join('.tmp', 'screenshots'),
);

/** A fresh folder under .tmp/ with the built package copied in as an installed community package. */
function freshUserFolder(name) {
	const root = path.join(n8n.REPO_ROOT, '.tmp', name);
	fs.rmSync(root, { recursive: true, force: true });
	const userFolder = path.join(root, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	n8n.installPackageInto(userFolder);
	return { root, userFolder };
}

function credentialFor(
	fakeUrl,
	{ id = CREDENTIAL.id, name = CREDENTIAL.name, apiKey = API_KEY } = {},
) {
	return {
		id,
		name,
		type: n8n.CREDENTIAL_TYPE,
		data: { baseUrl: fakeUrl, apiKey, apiKeyHeader: 'X-Service-Api-Key' },
	};
}

const trigger = () => ({
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
});

function typeOf(value) {
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (value && typeof value === 'object') return 'object';
	return 'string';
}

/** A Set node (3.4) producing one item with these fields; objects are set as JSON. */
function setNode(name, fields) {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: Object.entries(fields).map(([key, value], index) => ({
					id: `f${index}`,
					name: key,
					value: typeof value === 'object' ? JSON.stringify(value) : value,
					type: typeOf(value),
				})),
			},
			options: {},
		},
	};
}

/** A Code node returning these items. */
function codeNode(name, items) {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
	};
}

/** The node under test, with the credential reference. */
function omniNode(name, parameters, extra = {}) {
	return {
		name,
		type: n8n.NODE_TYPE,
		typeVersion: 1,
		parameters,
		credentials: { [n8n.CREDENTIAL_TYPE]: { ...CREDENTIAL, ...(extra.credential ?? {}) } },
		...(extra.onError ? { onError: extra.onError } : {}),
	};
}

/** A workflow as n8n's CLI imports it: inactive, executed in v1 order, no pinned data. */
function workflow(id, name, nodes, connections) {
	return {
		id,
		name,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** A workflow running `nodes` one after the other. */
function chain(id, name, nodes) {
	const withIds = nodes.map((node, index) => ({
		id: `${id}-n${index}`,
		position: [index * 220, 0],
		...node,
	}));
	const connections = {};
	for (let i = 0; i < withIds.length - 1; i++) {
		connections[withIds[i].name] = {
			main: [[{ node: withIds[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	return workflow(id, name, withIds, connections);
}

/** Start → this node with `parameters` as n8n's editor adds it today (node version 2). */
function addedNodeWorkflow(id, name, nodeName, parameters) {
	return chain(id, name, [trigger(), { ...omniNode(nodeName, parameters), typeVersion: 2 }]);
}

/** The items a node put out in an `n8n execute --rawOutput` result. */
function outputOf(result, nodeName) {
	const runs = result.data?.resultData?.runData?.[nodeName];
	if (!runs) {
		throw new Error(
			`node "${nodeName}" did not run; ran: ` +
				`${Object.keys(result.data?.resultData?.runData ?? {}).join(', ')}; error: ` +
				`${JSON.stringify(result.data?.resultData?.error)}`,
		);
	}
	return runs[0].data.main[0];
}

/**
 * A Webhook trigger (POST `webhookPath`) that answers with every item the last node put out, or
 * with `streaming: true` streams what a streaming node (the AI Agent) writes while it runs, or
 * with `atOnce: true` answers when the execution starts (one that waits for a person).
 */
function webhookTrigger(webhookPath, { streaming = false, atOnce = false } = {}) {
	const answer = atOnce ? 'onReceived' : 'streaming';
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: streaming ? 2.1 : 2,
		webhookId: crypto.randomUUID(),
		parameters:
			streaming || atOnce
				? { httpMethod: 'POST', path: webhookPath, responseMode: answer, options: {} }
				: {
						httpMethod: 'POST',
						path: webhookPath,
						responseMode: 'lastNode',
						responseData: 'allEntries',
						options: {},
					},
	};
}

/**
 * A fresh n8n user folder for `label` with `credentials` imported through n8n's CLI: its root and
 * env (n8nEnv's, with `envOptions` such as a log level).
 */
async function n8nWithCredentials(label, credentials, envOptions = {}) {
	const { root, userFolder } = freshUserFolder(label);
	const ports = { port: await n8n.freePort(), brokerPort: await n8n.freePort() };
	const env = n8n.n8nEnv({ userFolder, ...ports, ...envOptions });
	const credentialsFile = path.join(root, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2));
	await n8n.n8nCliOk(['import:credentials', `--input=${credentialsFile}`], { env });
	return { root, env };
}

/** n8n's server started with `env` (and `options`, such as a timeout), and its REST API with the owner logged in. */
async function startServerLoggedIn(env, options = {}) {
	const server = await n8n.startN8nServer({ env, ...options });
	const rest = new n8n.N8nRest(server.url);
	try {
		await rest.ownerSetupOrLogin();
	} catch (error) {
		await server.stop();
		throw error;
	}
	return { server, rest };
}

/**
 * For a file of the editor's REST calls: a real n8n, logged in, whose credential points at the
 * service `startService` starts; both start before the file's tests and stop after them.
 */
function useEditorN8n(label, startService) {
	const state = {};
	beforeAll(async () => {
		state.service = await startService();
		const { env } = await n8nWithCredentials(label, [credentialFor(state.service.url)]);
		Object.assign(state, await startServerLoggedIn(env));
	}, 180_000);
	afterAll(async () => {
		await state.server?.stop();
		await state.service?.close();
	});
	return state;
}

/** WhatsApp Template → Send of the fake's order_shipped template (channel 12, template 101) to `$json.phone`. */
function orderShippedSend(variables, options = {}) {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: { __rl: true, mode: 'list', value: '101', cachedResultName: 'order_shipped' },
		customerPhone: '={{ $json.phone }}',
		variablesMode: 'mapper',
		variables: mapperValue(variables),
		options,
	};
}

/** A Channel or Template picked by its ID, as the editor saves the choice. */
const byId = (value) => ({ __rl: true, mode: 'id', value });

/**
 * WhatsApp Template → Send of `templateId` on channel 12 (both by ID) to `$json.phone`, its
 * variables mapped, with `options`; `more` adds or replaces parameters (another operation, phone).
 */
function templateSend(templateId, variables, options = {}, more = {}) {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: byId('12'),
		templateId: byId(templateId),
		customerPhone: '={{ $json.phone }}',
		variablesMode: 'mapper',
		variables: mapperValue(variables),
		options,
		...more,
	};
}

/** WhatsApp Template → Send of order_shipped (channel 12, template 101 by ID), variables as JSON. */
function orderShippedJsonSend({ customerPhone, variablesJson, options = {} }) {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: byId('12'),
		templateId: byId('101'),
		customerPhone,
		variablesMode: 'json',
		variablesJson,
		options,
	};
}

/** The body of a template send on channel 12 the service should receive, its IDs as text. */
function templateSendBody(templateId, customerPhone, attributes, more = {}) {
	return {
		template_id: templateId,
		channel_id: '12',
		customer_phone: customerPhone,
		attributes,
		...more,
	};
}

/** Split Out: one item per element of the array at `field`. */
function splitOut(name, field) {
	return {
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
	};
}

/* AI workflows: an agent (or n8n's MCP Server Trigger) with this node as its tool. */

const OPENAI_CREDENTIAL = { id: 'FakeOpenAiCred01', name: 'Fake OpenAI-compatible model' };
const TOOL_NODE_TYPE = `${n8n.NODE_TYPE}Tool`;

/** An `openAiApi` credential whose base URL (its `url` field) is the fake model's. */
function openAiCredentialFor(modelUrl) {
	return {
		...OPENAI_CREDENTIAL,
		type: 'openAiApi',
		data: { apiKey: 'sk-fake-0123456789', url: modelUrl },
	};
}

/** n8n's OpenAI Chat Model at 1.2: the Chat Completions API (1.3 defaults to the Responses API). */
function chatModelNode() {
	return {
		name: 'OpenAI Chat Model',
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.2,
		parameters: { model: { __rl: true, mode: 'id', value: 'fake-gpt' }, options: {} },
		credentials: { openAiApi: OPENAI_CREDENTIAL },
	};
}

function agentNode(typeVersion, prompt) {
	return {
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion,
		parameters: { promptType: 'define', text: prompt, options: {} },
	};
}

/** This node as a tool (n8n's `…Tool` variant of a usableAsTool node), with the credential. */
function toolNode(name, parameters) {
	return { ...omniNode(name, parameters), type: TOOL_NODE_TYPE };
}

/**
 * A workflow `trigger → root`, with `subNodes` attached to the root by their connection type
 * ({ ai_languageModel: [node], ai_tool: [node, ...] }). A root without a trigger (the MCP
 * Server Trigger) is passed as `root` with `trigger` left out.
 */
function aiWorkflow(id, name, { trigger: triggerNode, root, subNodes }) {
	const nodes = [...(triggerNode ? [triggerNode] : []), root];
	const connections = {};
	if (triggerNode)
		connections[triggerNode.name] = { main: [[{ node: root.name, type: 'main', index: 0 }]] };
	for (const [type, attached] of Object.entries(subNodes)) {
		for (const node of attached) {
			nodes.push(node);
			connections[node.name] = { [type]: [[{ node: root.name, type, index: 0 }]] };
		}
	}
	const withIds = nodes.map((node, index) => ({
		id: `${id}-n${index}`,
		position: [index * 220, index > 1 ? 240 : 0],
		...node,
	}));
	return workflow(id, name, withIds, connections);
}

/**
 * The node's three sends as tools: the fields a model fills in through $fromAI (`fromAi`: name →
 * the description the model is shown) and the ones fixed in the node; `endpoint` is where the
 * send arrives at the fake service.
 */
const AI_TOOLS = {
	sendText: {
		name: 'Send text',
		parameters: {
			resource: 'message',
			operation: 'sendText',
			customerId: "={{ $fromAI('customerId', 'The customer ID from the CRM', 'string') }}",
			text: "={{ $fromAI('text', 'The message to send to the customer', 'string') }}",
			options: {},
		},
		fromAi: {
			customerId: 'The customer ID from the CRM',
			text: 'The message to send to the customer',
		},
		endpoint: '/customers/send-text-message',
	},
	sendAttachment: {
		name: 'Send attachment',
		parameters: {
			resource: 'message',
			operation: 'sendAttachment',
			customerId: "={{ $fromAI('customerId', 'The customer ID from the CRM', 'string') }}",
			attachmentType: 'document',
			attachmentUrl:
				"={{ $fromAI('documentUrl', 'Public https URL of the PDF to send', 'string') }}",
			options: {},
		},
		fromAi: {
			customerId: 'The customer ID from the CRM',
			documentUrl: 'Public https URL of the PDF to send',
		},
		endpoint: '/customers/send-attachment-message',
	},
	templateSend: {
		name: 'Send shipping notice',
		parameters: orderShippedJsonSend({
			customerPhone:
				"={{ $fromAI('phone', 'Customer phone number with country code, e.g. +4915123456789', 'string') }}",
			variablesJson:
				'={{ $fromAI(\'variables\', \'Template variables by position: {"1": first name, "2": order ' +
				"number, \"3\": delivery day}', 'json') }}",
		}),
		fromAi: {
			phone: 'Customer phone number with country code, e.g. +4915123456789',
			variables:
				'Template variables by position: {"1": first name, "2": order number, "3": delivery day}',
		},
		endpoint: '/whatsapp/send-template-message',
	},
};

/** The data of a REST answer of n8n, or an error with the answer's text. */
function restData(response, what) {
	if (response.status !== 200)
		throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 2000)}`);
	return response.json.data;
}

/**
 * Creates a workflow (chain()'s shape) over n8n's REST API and publishes it, which registers its
 * production webhooks.
 */
async function createActiveWorkflow(rest, { name, nodes, connections, settings }) {
	// n8n 1.x stores a new workflow's `active` as given and refuses it missing; 2.x sets it itself.
	const legacy = Number(String(n8n.installedVersion()).split('.')[0]) < 2 ? { active: false } : {};
	const body = { name, nodes, connections, settings, ...legacy };
	const created = restData(
		await rest.request('POST', '/rest/workflows', body),
		'POST /rest/workflows',
	);
	await publishWorkflow(rest, created);
	return created;
}

/** Publishes (activates) a stored workflow, `{ id, versionId }`; without versionId, the stored one. */
async function publishWorkflow(rest, { id, versionId }) {
	const version =
		versionId ?? restData(await rest.request('GET', `/rest/workflows/${id}`), 'GET').versionId;
	restData(
		await rest.request('POST', `/rest/workflows/${id}/activate`, { versionId: version }),
		`POST /rest/workflows/${id}/activate`,
	);
}

/**
 * Waits until n8n serves the production webhook. Activation can answer before the webhook is
 * registered; a CORS preflight asks for the path's methods without starting an execution.
 */
async function waitForWebhook(url, { timeoutMs = 30_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(url, {
			method: 'OPTIONS',
			headers: { origin: 'http://127.0.0.1', 'access-control-request-method': 'POST' },
		});
		if (
			response.status === 204 &&
			/POST/.test(response.headers.get('access-control-allow-methods') ?? '')
		)
			return;
		if (Date.now() > deadline)
			throw new Error(
				`${url} was not registered ${timeoutMs} ms after activation (${response.status})`,
			);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The paths of a workflow's production webhooks: each Webhook node's path, the trigger's webhook ID. */
function webhookPaths({ nodes }) {
	return nodes.flatMap((node) => {
		if (node.type === 'n8n-nodes-base.webhook') return [node.parameters.path];
		if (node.type === `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`) return [node.webhookId];
		return [];
	});
}

/**
 * Creates and publishes `workflow` (createActiveWorkflow), then waits until the n8n at `baseUrl`
 * serves each of its production webhooks.
 */
async function publishWithWebhooks(rest, baseUrl, workflow) {
	const created = await createActiveWorkflow(rest, workflow);
	for (const webhookPath of webhookPaths(workflow))
		await waitForWebhook(`${baseUrl}/webhook/${webhookPath}`);
	return created;
}

/** Stops what a test started, in this order; each may be missing (its start failed). */
async function closeAll(...started) {
	for (const thing of started) {
		if (thing?.stop) await thing.stop();
		else await thing?.close();
	}
}

/**
 * The fake service (with `service`'s options, on API_KEY) and a real n8n for `label`, logged in,
 * whose first credential points at that service (`credentials`: more of them), with `workflows`
 * published and their webhooks served. `envOptions` go to n8nEnv (a log level); a busy machine
 * can take minutes to migrate a fresh database, hence the long default `timeoutMs`.
 */
async function startN8nWithService(
	label,
	{ service = {}, credentials = [], workflows = [], envOptions = {}, timeoutMs = 240_000 } = {},
) {
	const started = { fake: await startFakeService({ apiKey: API_KEY, ...service }) };
	try {
		const imported = [credentialFor(started.fake.url), ...credentials];
		Object.assign(started, await n8nWithCredentials(label, imported, envOptions));
		Object.assign(started, await startServerLoggedIn(started.env, { timeoutMs }));
		started.workflows = [];
		for (const workflow of workflows)
			started.workflows.push(await publishWithWebhooks(started.rest, started.server.url, workflow));
		return started;
	} catch (error) {
		await closeAll(started.server, started.fake);
		throw error;
	}
}

/**
 * Calls a production webhook with a JSON body; resolves with the items the workflow answered with
 * (`raw: true`: with the answer's text, e.g. a streamed answer's JSON lines).
 */
async function callWebhook(url, body, { timeoutMs = 180_000, signal, raw = false } = {}) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook ${url} answered ${response.status}: ${text.slice(0, 2000)}`);
	return raw ? text : JSON.parse(text);
}

const UNFINISHED = ['new', 'running'];

/**
 * A workflow's executions n8n lists now (its newest 100), each once, ids as numbers. Asked without
 * a status, n8n lists the unfinished and the finished executions in two queries run side by side:
 * one that finishes between them is listed twice, running and finished, and the finished row is
 * the later.
 */
async function executionIds(rest, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const data = restData(
		await rest.request('GET', `/rest/executions?filter=${filter}&limit=100`),
		'GET /rest/executions',
	);
	const byId = new Map();
	for (const execution of data.results ?? data) {
		const id = Number(execution.id);
		if (UNFINISHED.includes(byId.get(id)?.status ?? 'new')) byId.set(id, { ...execution, id });
	}
	return [...byId.values()];
}

/**
 * Where a workflow's executions stand before a request: the highest execution id n8n lists (ids
 * only grow). Take it before the request, then read the request's own execution with
 * executionSince: never one an earlier request started.
 */
async function executionMark(rest, workflowId) {
	return Math.max(0, ...(await executionIds(rest, workflowId)).map((execution) => execution.id));
}

/**
 * The one execution of a workflow started after `mark` (executionMark's), as n8n's executions list
 * shows it (status, mode, ids), once it has finished: n8n may answer a webhook before it stores the
 * execution, or its end. More than one new execution is an error: the test cannot tell its own.
 */
async function executionSince(rest, workflowId, mark, { timeoutMs = 15_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const started = (await executionIds(rest, workflowId)).filter((e) => e.id > mark);
		if (started.length > 1)
			throw new Error(`${started.length} executions of ${workflowId} started after ${mark}`);
		const [execution] = started;
		if (execution && !['new', 'running'].includes(execution.status))
			return { ...execution, id: String(execution.id) };
		if (Date.now() > deadline)
			throw new Error(
				`no finished execution of ${workflowId} after ${mark} within ${timeoutMs} ms: ` +
					JSON.stringify(execution),
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** An execution as n8n stored it, read through its REST API, its run data parsed with the parser
 * n8n itself uses (it stores run data in the `flatted` format). */
async function storedExecution(rest, id) {
	const stored = restData(
		await rest.request('GET', `/rest/executions/${id}`),
		`GET /rest/executions/${id}`,
	);
	const flatted = require(path.join(n8n.N8N_DIR, 'node_modules', 'flatted'));
	const data = typeof stored.data === 'string' ? flatted.parse(stored.data) : stored.data;
	return { ...stored, data };
}

/**
 * Another host on 127.0.0.1 that a redirect points to: it records what reaches it and answers
 * as the service would, so a request that got there would pass for a success.
 */
async function startOtherHost() {
	const received = [];
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			received.push({ method: req.method, url: req.url, headers: req.headers });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ id: 'elsewhere-1', status: 'sent' }));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

module.exports = {
	API_KEY,
	SCREENSHOTS,
	startOtherHost,
	CREDENTIAL,
	freshUserFolder,
	n8nWithCredentials,
	startServerLoggedIn,
	useEditorN8n,
	credentialFor,
	trigger,
	setNode,
	codeNode,
	omniNode,
	workflow,
	chain,
	addedNodeWorkflow,
	outputOf,
	webhookTrigger,
	splitOut,
	orderShippedSend,
	orderShippedJsonSend,
	byId,
	templateSend,
	templateSendBody,
	restData,
	createActiveWorkflow,
	publishWorkflow,
	waitForWebhook,
	webhookPaths,
	publishWithWebhooks,
	closeAll,
	startN8nWithService,
	callWebhook,
	executionMark,
	executionSince,
	storedExecution,
	OPENAI_CREDENTIAL,
	TOOL_NODE_TYPE,
	openAiCredentialFor,
	chatModelNode,
	agentNode,
	toolNode,
	aiWorkflow,
	AI_TOOLS,
};
