'use strict';
/*
 * The workflows of `npm run bench:n8n`: this node's template send and what users build without it
 * (HTTP Request 4.2 with a Header Auth credential and the same JSON body, Remove Duplicates 2 in
 * front of it, Split Out for a broadcast), each behind a production webhook. See
 * /work/shared/notes/real-n8n.md (Measuring beside what users build instead).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { PACKAGE_NAME, REPO_ROOT } = require('../lib/n8n');
const e2e = require('../../test/e2e/support');

const SEND_PATH = '/stable/open/whatsapp/send-template-message';
const NODE_TYPE = `${PACKAGE_NAME}.omnichannelMessaging`;

/** Where an item's fields are: `$json.body` for a webhook item, `$json` after Split Out. */
function omniNode(credential, fields, options = {}) {
	return {
		name: 'Send Template',
		type: NODE_TYPE,
		typeVersion: 1,
		parameters: e2e.templateSend(
			'101',
			{ 1: `={{ ${fields}.name }}`, 2: `={{ ${fields}.order }}`, 3: `={{ ${fields}.date }}` },
			options,
			{ customerPhone: `={{ ${fields}.phone }}` },
		),
		credentials: { omnichannelMessagingApi: credential },
	};
}

/** HTTP Request 4.2 as a user writes it from the API document: the node's body, byte for byte. */
function httpRequestNode(credential, baseUrl, fields, options = {}) {
	const jsonBody =
		`={ "template_id": "101", "channel_id": "12", "customer_phone": "{{ ${fields}.phone }}", ` +
		`"attributes": { "1": "{{ ${fields}.name }}", "2": "{{ ${fields}.order }}", "3": "{{ ${fields}.date }}" } }`;
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${baseUrl}${SEND_PATH}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			specifyBody: 'json',
			jsonBody,
			options,
		},
		credentials: { httpHeaderAuth: credential },
	};
}

function removeDuplicatesNode() {
	return {
		name: 'Remove Duplicates',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.body.order }}',
			options: { historySize: 10000 },
		},
	};
}

/** A workflow running its nodes one after the other (n8n gives it an ID of its own). */
const chain = (name, nodes) => e2e.chain(crypto.randomUUID(), name, nodes);

/** Every workflow of the bench by its webhook path. */
function benchWorkflows({ omniCredential, headerCredential, baseUrl }) {
	const event = '$json.body';
	const item = '$json';
	return {
		'crm-node': chain('bench: CRM → node', [
			e2e.webhookTrigger('crm-node'),
			omniNode(omniCredential, event),
		]),
		'crm-node-key': chain('bench: CRM → node, send-once key', [
			e2e.webhookTrigger('crm-node-key'),
			omniNode(omniCredential, event, { sendOnceKey: '={{ $json.body.order }}-shipped' }),
		]),
		'crm-http': chain('bench: CRM → HTTP Request', [
			e2e.webhookTrigger('crm-http'),
			httpRequestNode(headerCredential, baseUrl, event),
		]),
		// The Webhook answers [] when the last node outputs nothing (every item a duplicate).
		'crm-dedup': chain('bench: CRM → Remove Duplicates → HTTP Request', [
			e2e.webhookTrigger('crm-dedup'),
			removeDuplicatesNode(),
			httpRequestNode(headerCredential, baseUrl, event),
		]),
		'bcast-node': chain('bench: broadcast → Split Out → node', [
			e2e.webhookTrigger('bcast-node'),
			e2e.splitOut('Split Out', 'body.recipients'),
			omniNode(omniCredential, item),
		]),
		'bcast-http': chain('bench: broadcast → Split Out → HTTP Request', [
			e2e.webhookTrigger('bcast-http'),
			e2e.splitOut('Split Out', 'body.recipients'),
			httpRequestNode(headerCredential, baseUrl, item),
		]),
	};
}

/** The expressions: the phone, and the variables as one JSON expression. */
const PHONE = '={{ $json.phone }}';
const VARIABLES_JSON = '={{ JSON.stringify({ 1: $json.name, 2: $json.order, 3: $json.date }) }}';

/** This node's template send with the phone and Variables (JSON) from expressions. */
function omniJsonNode(credential) {
	const node = omniNode(credential, '$json');
	const parameters = { ...node.parameters, customerPhone: PHONE, variablesMode: 'json' };
	delete parameters.variables;
	return { ...node, parameters: { ...parameters, variablesJson: VARIABLES_JSON } };
}

/** Edit Fields (Set) computing the same two expressions on every item. */
function editFieldsNode() {
	const assignment = (name, value) => ({ id: crypto.randomUUID(), name, value, type: 'string' });
	return {
		name: 'Edit Fields',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [assignment('phone', PHONE), assignment('variables', VARIABLES_JSON)],
			},
			options: {},
		},
	};
}

const noOpNode = (name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} });

/**
 * One GET to the service, once per execution: the moment the node before it has finished shows
 * as the first request the service sees.
 */
function markerNode(credential, baseUrl) {
	return {
		name: 'Marker',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		executeOnce: true,
		parameters: {
			method: 'GET',
			url: `${baseUrl}/stable/open/whatsapp/get-platform-list`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			options: {},
		},
		credentials: { httpHeaderAuth: credential },
	};
}

/**
 * The workflows of `npm run bench:freeze` by webhook path, each Webhook → Split Out → …: this
 * node (Stop Workflow, its default; or its error output connected), HTTP Request with Batching
 * (`batchSize` requests every `batchInterval` ms), and Edit Fields or No Operation followed by the
 * marker.
 */
function freezeWorkflows({ omniCredential, headerCredential, baseUrl, batchSize, batchInterval }) {
	const start = (webhookPath) => [
		e2e.webhookTrigger(webhookPath),
		e2e.splitOut('Split Out', 'body.recipients'),
	];
	const errorOutput = chain('bench: freeze, error output', [
		...start('freeze-node-errout'),
		{ ...omniJsonNode(omniCredential), onError: 'continueErrorOutput' },
		noOpNode('Failed'),
	]);
	errorOutput.connections['Send Template'] = {
		main: [[], [{ node: 'Failed', type: 'main', index: 0 }]],
	};
	const batching = { batching: { batch: { batchSize, batchInterval } } };
	const http = httpRequestNode(headerCredential, baseUrl, '$json', batching);
	return {
		'freeze-node': chain('bench: freeze, this node', [
			...start('freeze-node'),
			omniJsonNode(omniCredential),
		]),
		'freeze-node-errout': errorOutput,
		'freeze-http': chain('bench: freeze, HTTP Request', [...start('freeze-http'), http]),
		'freeze-set': chain('bench: freeze, Edit Fields', [
			...start('freeze-set'),
			editFieldsNode(),
			markerNode(headerCredential, baseUrl),
		]),
		'freeze-noop': chain('bench: freeze, No Operation', [
			...start('freeze-noop'),
			noOpNode('No Operation'),
			markerNode(headerCredential, baseUrl),
		]),
	};
}

const readExample = (file) =>
	JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8'));

/**
 * examples/ask-many-sub-workflow.json as shipped, with the bench's credential; with
 * `headerCredential`, what users build instead: its trigger → HTTP Request 4.2 sending the same
 * template (the link a fixed text), no waiting.
 */
function askSubWorkflow({ omniCredential, headerCredential, baseUrl, withoutKey = false }) {
	// Without its id: n8n gives the bench's copy one of its own.
	const sub = { ...readExample('ask-many-sub-workflow.json'), id: undefined };
	if (!headerCredential) {
		sub.nodes = sub.nodes.map((node) => (withoutKey ? withoutSendOnceKey(node) : node));
		sub.nodes = sub.nodes.map((node) =>
			node.credentials
				? { ...node, credentials: { omnichannelMessagingApi: omniCredential } }
				: node,
		);
		return { ...sub, name: 'bench: ask one customer (this node, waits)' };
	}
	const trigger = sub.nodes.find((node) => node.type === 'n8n-nodes-base.executeWorkflowTrigger');
	const jsonBody =
		'={ "template_id": "108", "channel_id": "12", "customer_phone": "{{ $json.phone }}", ' +
		'"attributes": { "1": "{{ $json.name }}", "2": "{{ $json.appointment }}", ' +
		'"3": "https://example.com/confirm/{{ $json.appointmentId }}" } }';
	const http = httpRequestNode(headerCredential, baseUrl, '$json');
	http.parameters.jsonBody = jsonBody;
	return chain('bench: ask one customer (HTTP Request)', [trigger, http]);
}

/** The node without its Send Once per Key option: what the key costs. */
function withoutSendOnceKey(node) {
	if (!node.parameters?.options?.sendOnceKey) return node;
	const options = { ...node.parameters.options };
	delete options.sendOnceKey;
	return { ...node, parameters: { ...node.parameters, options } };
}

/** examples/ask-many-parent.json as shipped, its webhook at `webhookPath`, calling `subId`. */
function askParent(webhookPath, subId) {
	const parent = readExample('ask-many-parent.json');
	const workflow = { ...parent, id: undefined };
	workflow.name = `bench: ask many (${webhookPath})`;
	workflow.nodes = parent.nodes.map((node) => {
		if (node.type === 'n8n-nodes-base.webhook')
			return {
				...node,
				webhookId: crypto.randomUUID(),
				parameters: { ...node.parameters, path: webhookPath },
			};
		if (node.type === 'n8n-nodes-base.executeWorkflow') {
			const workflowId = { __rl: true, mode: 'id', value: subId };
			return { ...node, parameters: { ...node.parameters, workflowId } };
		}
		return node;
	});
	return workflow;
}

/**
 * examples/answer-link-answers.json as shipped, with the bench's credential and fresh webhook IDs:
 * the workflow, and the URL path of its first trigger (On appointment answer).
 */
function answerLinkWorkflow(omniCredential) {
	const example = readExample('answer-link-answers.json');
	const nodes = example.nodes.map((node) => {
		if (!node.credentials) return node;
		const fresh = { ...node, credentials: { omnichannelMessagingApi: omniCredential } };
		return node.webhookId ? { ...fresh, webhookId: crypto.randomUUID() } : fresh;
	});
	const workflow = { ...example, id: undefined, name: 'bench: answer links', nodes };
	const trigger = nodes.find((node) => node.type === `${PACKAGE_NAME}.omnichannelMessagingTrigger`);
	return { workflow, triggerPath: trigger.webhookId };
}

module.exports = {
	benchWorkflows,
	freezeWorkflows,
	answerLinkWorkflow,
	askSubWorkflow,
	askParent,
	SEND_PATH,
};
