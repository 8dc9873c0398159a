'use strict';
/* Helpers shared by the e2e tests: an n8n user folder per test file, workflow builders, output readers. */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { mapperValue } = require('../helpers/mapperValue');

const API_KEY = 'e2e-api-key-0123456789';
const CREDENTIAL = { id: 'OmniSandboxCred1', name: 'Omnichannel Messaging sandbox' };

/** A fresh folder under .tmp/ with the built package copied in as an installed community package. */
function freshUserFolder(name) {
	const root = path.join(n8n.REPO_ROOT, '.tmp', name);
	fs.rmSync(root, { recursive: true, force: true });
	const userFolder = path.join(root, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	n8n.installPackageInto(userFolder);
	return { root, userFolder };
}

function credentialFor(fakeUrl, { id = CREDENTIAL.id, name = CREDENTIAL.name, apiKey = API_KEY } = {}) {
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

/** A workflow running `nodes` one after the other. */
function chain(id, name, nodes) {
	const withIds = nodes.map((node, index) => ({
		id: `${id}-n${index}`,
		position: [index * 220, 0],
		...node,
	}));
	const connections = {};
	for (let i = 0; i < withIds.length - 1; i++) {
		connections[withIds[i].name] = { main: [[{ node: withIds[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, active: false, nodes: withIds, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

/** The items a node put out in an `n8n execute --rawOutput` result. */
function outputOf(result, nodeName) {
	const runs = result.data?.resultData?.runData?.[nodeName];
	if (!runs) {
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(result.data?.resultData?.runData ?? {}).join(', ')}; error: ${JSON.stringify(result.data?.resultData?.error)}`,
		);
	}
	return runs[0].data.main[0];
}

/** A Webhook trigger (POST `webhookPath`) that answers with every item the last node put out. */
function webhookTrigger(webhookPath) {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
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

/** Split Out: one item per element of the array at `field`. */
function splitOut(name, field) {
	return {
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
	};
}

/** The data of a REST answer of n8n, or an error with the answer's text. */
function restData(response, what) {
	if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 2000)}`);
	return response.json.data;
}

/** Creates a workflow (chain()'s shape) over n8n's REST API and publishes it, which registers its production webhooks. */
async function createActiveWorkflow(rest, { name, nodes, connections, settings }) {
	const created = restData(await rest.request('POST', '/rest/workflows', { name, nodes, connections, settings }), 'POST /rest/workflows');
	restData(
		await rest.request('POST', `/rest/workflows/${created.id}/activate`, { versionId: created.versionId }),
		`POST /rest/workflows/${created.id}/activate`,
	);
	return created;
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
		if (response.status === 204 && /POST/.test(response.headers.get('access-control-allow-methods') ?? '')) return;
		if (Date.now() > deadline) throw new Error(`${url} was not registered ${timeoutMs} ms after activation (${response.status})`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Calls a production webhook with a JSON body; resolves with the items the workflow answered with. */
async function callWebhook(url, body, { timeoutMs = 180_000, signal } = {}) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`webhook ${url} answered ${response.status}: ${text.slice(0, 2000)}`);
	return JSON.parse(text);
}

module.exports = {
	API_KEY,
	CREDENTIAL,
	freshUserFolder,
	credentialFor,
	trigger,
	setNode,
	codeNode,
	omniNode,
	chain,
	outputOf,
	webhookTrigger,
	splitOut,
	orderShippedSend,
	restData,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
};
