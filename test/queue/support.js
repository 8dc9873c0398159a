'use strict';
/*
 * Helpers of the queue-mode tests: the fake service in its own process, what the built node
 * offers (read from dist), the webhook workflow, n8n's REST calls on the main instance, and the
 * recipients of a broadcast.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { QUEUE_DIR, startQueueStack } = require('../../scripts/lib/queue');
const { startFakeServiceChild } = require('../fake-service/process');
const {
	webhookTrigger,
	splitOut,
	orderShippedSend,
	restData,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	storedExecution,
} = require('../e2e/support');

const API_KEY = 'queue-api-key-0123456789';
/** Where the queue tests keep n8n's output and their figures. */
const LOG_DIR = path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs');

/** The fake service in a process of its own (test/fake-service/process.js), its pid kept for the queue's clean-up. */
async function startFakeServiceProcess(options, timeouts) {
	return await startFakeServiceChild(options, { ...timeouts, pidDir: QUEUE_DIR });
}

/** The built node's description, as n8n loads it from dist. */
function builtNodeDescription() {
	const pkg = JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, 'package.json'), 'utf8'));
	const file = path.join(n8n.REPO_ROOT, pkg.n8n.nodes[0]);
	const exported = require(file);
	const NodeClass = Object.values(exported).find((value) => typeof value === 'function');
	return new NodeClass().description;
}

/** The options of WhatsApp Template → Send (the `options` collection shown for that operation). */
function templateSendOptions() {
	const collection = builtNodeDescription().properties.find(
		(p) =>
			p.name === 'options' &&
			p.type === 'collection' &&
			p.displayOptions?.show?.resource?.includes('whatsappTemplate') &&
			p.displayOptions?.show?.operation?.includes('send'),
	);
	if (!collection)
		throw new Error('the built node has no options collection for WhatsApp Template → Send');
	return collection.options;
}

/** Whether the built node offers send-once keys (issue 12): tests 2 and 3 run only then. */
function hasSendOnce() {
	return templateSendOptions().some((option) => option.name === 'sendOnceKey');
}

function defaultConcurrency() {
	return templateSendOptions().find((option) => option.name === 'concurrency')?.default;
}

/** Recipients of one broadcast: distinct phones and order ids, batch by batch. */
function recipients(batch, count) {
	return Array.from({ length: count }, (_, i) => ({
		phone: `+49151${String(batch).padStart(2, '0')}${String(i).padStart(5, '0')}`,
		name: `Customer ${batch}-${i}`,
		orderId: `Q${batch}-${i}`,
	}));
}

/** Webhook (answers with every item of the last node) → Split Out recipients → Send template. */
function broadcastWorkflow({ name, webhookPath, credential, options }) {
	const at = (index, node) => ({ id: crypto.randomUUID(), position: [index * 240, 0], ...node });
	const send = {
		name: 'Send template',
		type: n8n.NODE_TYPE,
		typeVersion: 1,
		credentials: { [n8n.CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
		parameters: orderShippedSend(
			{ 1: '={{ $json.name }}', 2: '={{ $json.orderId }}', 3: 'Friday' },
			options,
		),
	};
	return {
		name,
		nodes: [
			at(0, webhookTrigger(webhookPath)),
			at(1, splitOut('Recipients', 'body.recipients')),
			at(2, send),
		],
		connections: {
			Webhook: { main: [[{ node: 'Recipients', type: 'main', index: 0 }]] },
			Recipients: { main: [[{ node: 'Send template', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The credential, created over n8n's REST API on the main: workers read it from Postgres. */
async function createCredential(rest, fakeUrl) {
	const data = { baseUrl: fakeUrl, apiKey: API_KEY, apiKeyHeader: 'X-Service-Api-Key' };
	const body = { name: 'Omnichannel Messaging (queue test)', type: n8n.CREDENTIAL_TYPE, data };
	return restData(await rest.request('POST', '/rest/credentials', body), 'POST /rest/credentials');
}

/** An execution as n8n stored it in Postgres, read back through the main's REST API. */
const execution = storedExecution;

/**
 * Why executions failed, from what n8n stored: a webhook caller only gets "Error in workflow".
 * Used to make a failing test say what went wrong on the worker.
 */
async function failedExecutionErrors(rest, limit = 5) {
	const filter = encodeURIComponent(JSON.stringify({ status: ['error', 'crashed'] }));
	const list = await rest.request('GET', `/rest/executions?filter=${filter}&limit=${limit}`);
	const results = list.json?.data?.results ?? [];
	const errors = [];
	for (const { id } of results) {
		const stored = await execution(rest, id).catch(() => undefined);
		const error = stored?.data?.resultData?.error;
		errors.push(
			`execution ${id} (${stored?.status}): ${error?.message ?? '(no error stored)'} ` +
				`${error?.description ?? ''}`.trim(),
		);
	}
	return errors;
}

/**
 * Runs the calls at once and waits for all of them; when one fails, the error says what n8n
 * stored about failed executions.
 */
async function callAll(rest, calls) {
	const settled = await Promise.allSettled(calls.map(async (call) => await call()));
	const failed = settled.find((result) => result.status === 'rejected');
	if (!failed) return settled.map((result) => result.value);
	const error = failed.reason;
	const errors = await failedExecutionErrors(rest).catch((e) => [
		`(could not read executions: ${e.message})`,
	]);
	error.message += `\nfailed executions:\n${errors.join('\n')}`;
	throw error;
}

/**
 * The entries n8n's store holds for keys the service accepted: a claim and an acceptance per key
 * (docs/send-once.md, "Where the history lives"), MD5, base64, as n8n keeps every entry. Test 1 of
 * crm-events.e2e.js checks them against what n8n recorded.
 */
function sendOnceHistoryValue(keys) {
	const entries = keys.flatMap((key) => [
		`omnichannel-send-once:claimed:${key}`,
		`omnichannel-send-once:accepted:${key}`,
	]);
	const hash = (value) => crypto.createHash('md5').update(value).digest('base64');
	return { mode: 'entries', data: entries.map(hash) };
}

/**
 * Writes a node's send-once history straight into Postgres, as if `keys` had been sent before (a
 * history in use for months).
 */
function prefillSendOnceHistory(postgres, { workflowId, nodeId, keys }) {
	const value = JSON.stringify(sendOnceHistoryValue(keys)).replace(/'/g, "''");
	postgres.psql(
		`INSERT INTO processed_data ("workflowId", context, value) VALUES ('${workflowId}', 'n:${nodeId}', '${value}')`,
	);
}

/** The accepted template sends in a snapshot of the fake service, per phone. */
function acceptedPerPhone(requests) {
	const counts = new Map();
	for (const r of requests) {
		if (r.method !== 'POST' || r.path !== '/whatsapp/send-template-message') continue;
		if (typeof r.status !== 'number' || r.status < 200 || r.status >= 300) continue;
		counts.set(r.phone, (counts.get(r.phone) ?? 0) + 1);
	}
	return counts;
}

/**
 * A queue test's end: the fake service and the stack stopped, then its figures and the file that
 * holds n8n's output on stderr, for the reader of a run that went wrong.
 */
async function stopAndReport([fake, stack], figures, logFile = stack?.logFile) {
	await fake?.stop();
	await stack?.stop();
	process.stderr.write(
		`\nqueue mode, ${figures}\n(n8n output: ${path.relative(n8n.REPO_ROOT, logFile)})\n`,
	);
}

/**
 * The queue stack (startQueueStack with `stackOptions`), n8n's output written to `logName` in
 * LOG_DIR (the stack's `logFile`); the fake service in a process of its own (`service`: its
 * options); the main's REST API, the owner logged in, with a credential for that service. What
 * started is stopped again when a later step fails.
 */
async function startQueueWithService(logName, stackOptions, service) {
	const logFile = path.join(LOG_DIR, logName);
	fs.mkdirSync(LOG_DIR, { recursive: true });
	fs.writeFileSync(logFile, '');
	const log = (line) => fs.appendFileSync(logFile, `${line}\n`);
	const stack = Object.assign(await startQueueStack({ ...stackOptions, log }), { logFile });
	let fake;
	try {
		fake = await startFakeServiceProcess({ apiKey: API_KEY, ...service });
		const rest = new n8n.N8nRest(stack.main.url);
		await rest.ownerSetupOrLogin();
		return { stack, fake, rest, credential: await createCredential(rest, fake.url) };
	} catch (error) {
		await stopAndReport([fake, stack], `${logName}: the start failed`);
		throw error;
	}
}

module.exports = {
	API_KEY,
	LOG_DIR,
	startQueueWithService,
	startFakeServiceProcess,
	templateSendOptions,
	hasSendOnce,
	defaultConcurrency,
	recipients,
	broadcastWorkflow,
	createCredential,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	execution,
	failedExecutionErrors,
	callAll,
	acceptedPerPhone,
	prefillSendOnceHistory,
	sendOnceHistoryValue,
	stopAndReport,
};
