'use strict';
/*
 * Send and Wait for Response in queue mode: an n8n main instance and one `n8n worker` on Redis
 * and Postgres. A production webhook starts Webhook → Ask for approval (Message → Send and Wait)
 * → Tell the customer (Message → Send Text); the worker sends the review message and the
 * execution waits in Postgres. Link previews fetch both links and answer nothing; the person's
 * answer (the page's button) reaches the main, and the worker resumes the execution and runs the
 * next node. `npm run test:queue`.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const queue = require('../../scripts/lib/queue');
const {
	API_KEY,
	startFakeServiceProcess,
	createCredential,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	execution,
} = require('./support');
const {
	PREVIEW_USER_AGENTS,
	waitingLinks,
	previewFetch,
	answerThroughPage,
} = require('../helpers/answerPage');

const REVIEWER = '777001';
const CUSTOMER = '4711';
const LOG_DIR = path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs');
const LOG_FILE = path.join(LOG_DIR, 'send-and-wait-stack.log');

let stack;
let worker;
let fake;
let rest;
let hook;
const figures = {};

/** Webhook (answers at once) → Ask for approval → Tell the customer what was decided. */
function approvalWorkflow(credential) {
	const credentials = { [n8n.CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
	const at = (index, node) => ({ id: crypto.randomUUID(), position: [index * 240, 0], ...node });
	const omni = (name, parameters) => ({
		name,
		type: n8n.NODE_TYPE,
		typeVersion: 1,
		webhookId: crypto.randomUUID(),
		credentials,
		parameters,
	});
	return {
		name: 'Queue send and wait',
		nodes: [
			at(0, {
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: crypto.randomUUID(),
				parameters: { httpMethod: 'POST', path: 'queue-approval', responseMode: 'onReceived' },
			}),
			at(
				1,
				omni('Ask for approval', {
					resource: 'message',
					operation: 'sendAndWait',
					customerId: REVIEWER,
					message: '=Refund order {{ $json.body.orderId }}?',
					responseType: 'approval',
					approvalOptions: { values: { approvalType: 'double' } },
					options: {},
				}),
			),
			at(
				2,
				omni('Tell the customer', {
					resource: 'message',
					operation: 'sendText',
					customerId: CUSTOMER,
					text: "={{ $json.data.approved ? 'Your refund is approved.' : 'Your refund was declined.' }}",
					options: {},
				}),
			),
		],
		connections: {
			Webhook: { main: [[{ node: 'Ask for approval', type: 'main', index: 0 }]] },
			'Ask for approval': { main: [[{ node: 'Tell the customer', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

beforeAll(async () => {
	fs.mkdirSync(LOG_DIR, { recursive: true });
	fs.writeFileSync(LOG_FILE, '');
	const log = (line) => fs.appendFileSync(LOG_FILE, `${line}\n`);
	stack = await queue.startQueueStack({ workers: 1, log });
	[worker] = stack.workers;
	figures.startupMs = { ...stack.timings };
	fake = await startFakeServiceProcess({ apiKey: API_KEY, latencyMs: 0, concurrencyLimit: 10 });
	rest = new n8n.N8nRest(stack.main.url);
	await rest.ownerSetupOrLogin();
	const credential = await createCredential(rest, fake.url);
	hook = await createActiveWorkflow(rest, approvalWorkflow(credential));
	hook.url = `${stack.main.url}/webhook/queue-approval`;
	await waitForWebhook(hook.url);
}, 420_000);

afterAll(async () => {
	await fake?.stop();
	await stack?.stop();
	process.stderr.write(
		`\nqueue mode, send and wait:\n${JSON.stringify(figures, null, 2)}\n(n8n output: ` +
			`${path.relative(n8n.REPO_ROOT, LOG_FILE)})\n`,
	);
}, 120_000);

/** Polls the stored execution until `done(stored)` holds. */
async function storedWhen(id, done, what, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const stored = await execution(rest, id).catch(() => undefined);
		if (stored && done(stored)) return stored;
		if (Date.now() > deadline)
			throw new Error(`execution ${id}: not ${what} after ${timeoutMs} ms (${stored?.status})`);
		await queue.wait(250);
	}
}

/** Starts the workflow and waits until the worker has sent the review message and the execution waits. */
async function startAndWait(orderId) {
	await fake.reset();
	const marks = worker.started.length;
	await callWebhook(hook.url, { orderId });
	const deadline = Date.now() + 60_000;
	while (worker.started.length === marks) {
		if (Date.now() > deadline) throw new Error('the worker started no execution');
		await queue.wait(100);
	}
	const { executionId } = worker.started[marks];
	const waiting = await storedWhen(executionId, (s) => s.status === 'waiting', 'waiting');
	const reviews = (await fake.snapshot()).requests.filter((r) => r.customerId === REVIEWER);
	return { executionId, waiting, reviews };
}

/** Postgres's own row of the execution: its status and whether a wait time is set. */
function storedRow(executionId) {
	const [status, waitTill] = stack.postgres
		.psql(`select status, "waitTill" from execution_entity where id = ${Number(executionId)}`)
		.trim()
		.split('|');
	return { status, waitTill };
}

/** Every link of the review message fetched by every preview fetcher: the statuses they got. */
async function previewEveryLink(links) {
	const statuses = {};
	for (const [app, userAgent] of Object.entries(PREVIEW_USER_AGENTS))
		statuses[app] = await Promise.all(links.map((link) => previewFetch(link, userAgent)));
	return statuses;
}

/** The runs of `nodeName` in a stored execution, newest last. */
const runsOf = (stored, nodeName) => stored.data.resultData.runData[nodeName] ?? [];

test.each([
	['Approve', 0, true, 'Your refund is approved.'],
	['Disapprove', 1, false, 'Your refund was declined.'],
])(
	'%s: the main receives the answer, the worker resumes the execution and runs the next node; ' +
		'one review message, previews answer nothing',
	async (choice, linkIndex, approved, toCustomer) => {
		const { executionId, waiting, reviews } = await startAndWait(`Q-${choice}`);
		expect(waiting.status).toBe('waiting');
		expect(storedRow(executionId).status).toBe('waiting');
		expect(reviews).toHaveLength(1);
		expect(reviews[0].text).toContain(`Refund order Q-${choice}?`);
		const links = waitingLinks(reviews[0].text);
		expect(links).toHaveLength(2);
		// The links lead to the main, the process that receives webhooks.
		for (const link of links) expect(new URL(link).origin).toBe(stack.main.url);

		const previews = await previewEveryLink(links);
		expect(storedRow(executionId).status).toBe('waiting');
		expect(worker.started.filter((s) => s.executionId === executionId)).toHaveLength(1);

		const page = await answerThroughPage(links[linkIndex]);
		expect(page.status).toBe(200);
		const done = await storedWhen(
			executionId,
			(s) => !['waiting', 'running', 'new'].includes(s.status),
			'finished',
		);
		const { requests } = await fake.snapshot();
		figures[choice] = { executionId, previews, status: done.status };

		expect(done.status).toBe('success');
		expect(runsOf(done, 'Ask for approval').at(-1).data.main[0][0].json.data).toMatchObject({
			approved,
		});
		expect(runsOf(done, 'Tell the customer')).toHaveLength(1);
		// The main queued the execution twice (the webhook call, then the answer it received) and the
		// worker took it twice: the worker ran the resumed part.
		const enqueued = stack.main
			.output()
			.match(new RegExp(`Enqueued execution ${executionId} \\(`, 'g'));
		expect(enqueued).toHaveLength(2);
		expect(worker.started.filter((s) => s.executionId === executionId)).toHaveLength(2);
		expect(requests.filter((r) => r.customerId === REVIEWER)).toHaveLength(1);
		expect(
			requests.filter((r) => r.customerId === CUSTOMER).map((r) => [r.status, r.text]),
		).toEqual([[200, toCustomer]]);
	},
	180_000,
);
