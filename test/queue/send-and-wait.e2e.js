'use strict';
/*
 * Send and Wait for Response in queue mode: an n8n main instance and one `n8n worker` on Redis
 * and Postgres, running examples/send-and-wait-approval.json from its production webhook. The
 * worker sends the review message to the manager and the execution waits in Postgres. Link
 * previews fetch both links and answer nothing; a changed signature is refused; the manager's
 * answer (the page's button) reaches the main, and the worker resumes the execution and runs the
 * branch the answer chose. A custom form's answer, posted to the main, resumes its execution on the
 * worker too. `npm run test:queue`.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const queue = require('../../scripts/lib/queue');
const { startQueueWithService, stopAndReport } = require('./support');
const { createActiveWorkflow, waitForWebhook, callWebhook, execution } = require('./support');
const { omniNode, chain, webhookTrigger } = require('../e2e/support');
const { executionWhen, tampered } = require('../e2e/sendAndWait.support');
const {
	waitingLinks,
	previewEveryLink,
	answerThroughPage,
	postCustomForm,
} = require('../helpers/answerPage');

const REVIEWER = '777001';
const CUSTOMER = '4711';

let stack;
let worker;
let fake;
let rest;
let hook;
let formHook;
const figures = {};

/**
 * examples/send-and-wait-approval.json as a user imports it, with their credential: Refund request
 * → Ask the manager (Send and Wait, Approve and Decline, 4 hours) → Approved? → Tell the customer,
 * or the stand-in for a declined or unanswered refund.
 */
function exampleWorkflow(credential) {
	const example = JSON.parse(
		fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', 'send-and-wait-approval.json'), 'utf8'),
	);
	const reference = { id: credential.id, name: credential.name };
	const nodes = example.nodes.map((node) =>
		node.credentials ? { ...node, credentials: { [n8n.CREDENTIAL_TYPE]: reference } } : node,
	);
	return { ...example, nodes };
}

/** The custom form of the queue test: a required text, a number and checkboxes. */
const FORM_FIELDS = [
	{ fieldLabel: 'Decision', fieldType: 'text', requiredField: true },
	{ fieldLabel: 'Refund', fieldType: 'number' },
	{
		fieldLabel: 'Tell',
		fieldType: 'checkbox',
		fieldOptions: { values: [{ option: 'Customer' }, { option: 'Warehouse' }] },
	},
];

/** Webhook → Ask the manager (Send and Wait with FORM_FIELDS) → Next. */
function formWorkflow(credential) {
	const ask = omniNode(
		'Ask the manager',
		{
			resource: 'message',
			operation: 'sendAndWait',
			customerId: REVIEWER,
			message: '={{ "Refund for order " + $json.body.orderId + "?" }}',
			responseType: 'customForm',
			defineForm: 'fields',
			formFields: { values: FORM_FIELDS },
		},
		{ credential: { id: credential.id, name: credential.name } },
	);
	const nextNode = { name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	const trigger = webhookTrigger('queue-custom-form', { atOnce: true });
	return chain('QueueSawForm0001', 'queue custom form', [trigger, ask, nextNode]);
}

beforeAll(async () => {
	const service = { latencyMs: 0, concurrencyLimit: 10 };
	let credential;
	({ stack, fake, rest, credential } = await startQueueWithService(
		'send-and-wait-stack.log',
		{ workers: 1 },
		service,
	));
	[worker] = stack.workers;
	figures.startupMs = { ...stack.timings };
	const example = exampleWorkflow(credential);
	hook = await createActiveWorkflow(rest, example);
	const webhook = example.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	hook.url = `${stack.main.url}/webhook/${webhook.parameters.path}`;
	await waitForWebhook(hook.url);
	formHook = await createActiveWorkflow(rest, formWorkflow(credential));
	formHook.url = `${stack.main.url}/webhook/queue-custom-form`;
	await waitForWebhook(formHook.url);
}, 420_000);

afterAll(async () => {
	await stopAndReport([fake, stack], `send and wait:\n${JSON.stringify(figures, null, 2)}`);
}, 120_000);

/** Starts the workflow and waits until the worker has sent the review message and the execution waits. */
async function startAndWait(orderId, url = hook.url) {
	await fake.reset();
	const marks = worker.started.length;
	await callWebhook(url, { orderId, amount: 42, customerId: CUSTOMER, managerId: REVIEWER });
	const deadline = Date.now() + 60_000;
	while (worker.started.length === marks) {
		if (Date.now() > deadline) throw new Error('the worker started no execution');
		await queue.wait(100);
	}
	const { executionId } = worker.started[marks];
	const waiting = await executionWhen(rest, executionId, (stored) => stored.status === 'waiting', {
		timeoutMs: 120_000,
		what: 'waiting',
	});
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

/** Whether an execution has ended: not running, not waiting for a person. */
const ended = (stored) => !['new', 'running', 'waiting'].includes(stored.status);

/** The runs of `nodeName` in a stored execution, newest last. */
const runsOf = (stored, nodeName) => stored.data.resultData.runData[nodeName] ?? [];

test.each([
	['Approve', 0, true, 'Tell the customer'],
	['Decline', 1, false, 'Declined or no answer (stand-in)'],
])(
	'%s: the main receives the answer, the worker resumes the execution and runs its branch; one ' +
		'review message, previews and a changed signature answer nothing',
	async (choice, linkIndex, approved, branch) => {
		const orderId = `Q-${choice}`;
		const { executionId, waiting, reviews } = await startAndWait(orderId);
		expect(waiting.status).toBe('waiting');
		expect(storedRow(executionId)).toEqual({ status: 'waiting', waitTill: expect.any(String) });
		expect(reviews).toHaveLength(1);
		expect(reviews[0].text).toContain(`Refund 42 EUR for order ${orderId}?`);
		const links = waitingLinks(reviews[0].text);
		expect(links).toHaveLength(2);
		// The links lead to the main, the process that receives webhooks.
		for (const link of links) expect(new URL(link).origin).toBe(stack.main.url);

		const previews = await previewEveryLink(links);
		const forged = await fetch(tampered(links[linkIndex]), { method: 'POST' });
		expect(forged.status).toBe(401);
		expect(storedRow(executionId).status).toBe('waiting');
		expect(worker.started.filter((s) => s.executionId === executionId)).toHaveLength(1);

		const page = await answerThroughPage(links[linkIndex]);
		expect(page.status).toBe(200);
		expect(page.text).toContain('Answer recorded');
		const done = await executionWhen(rest, executionId, ended, {
			timeoutMs: 120_000,
			what: 'its end',
		});
		// A second press, on either link, changes nothing: n8n says no action is required.
		for (const link of links) {
			const again = await fetch(link, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: `approved=${approved}`,
			});
			expect(await again.text()).toContain('No action required');
		}
		expect((await execution(rest, executionId)).data.resultData.runData).toEqual(
			done.data.resultData.runData,
		);
		const { requests } = await fake.snapshot();
		figures[choice] = { executionId, previews, forged: forged.status, status: done.status };

		expect(done.status).toBe('success');
		expect(runsOf(done, 'Ask the manager').at(-1).data.main[0][0].json.data).toMatchObject({
			approved,
		});
		expect(runsOf(done, branch)).toHaveLength(1);
		// The main queued the execution twice (the webhook call, then the answer it received) and the
		// worker took it twice: the worker ran the resumed part.
		const enqueued = stack.main
			.output()
			.match(new RegExp(`Enqueued execution ${executionId} \\(`, 'g'));
		expect(enqueued).toHaveLength(2);
		expect(worker.started.filter((s) => s.executionId === executionId)).toHaveLength(2);
		expect(requests.filter((r) => r.customerId === REVIEWER)).toHaveLength(1);
		const toCustomer = requests.filter((r) => r.customerId === CUSTOMER).map((r) => r.text);
		expect(toCustomer).toEqual(
			approved ? [`Good news: your refund for order ${orderId} is approved.`] : [],
		);
	},
	180_000,
);

test('a custom form answer, posted to the main, resumes the execution on the worker', async () => {
	const { executionId, reviews } = await startAndWait('Q-Form', formHook.url);
	expect(reviews).toHaveLength(1);
	const [link] = waitingLinks(reviews[0].text);
	expect(new URL(link).origin).toBe(stack.main.url);
	const refused = await postCustomForm(link, FORM_FIELDS, { Refund: '12.5' });
	expect(refused.status).toBe(400);
	expect(storedRow(executionId).status).toBe('waiting');
	const answer = { Decision: 'Refund half', Refund: '12.5', Tell: ['Customer', 'Warehouse'] };
	const page = await postCustomForm(link, FORM_FIELDS, answer);
	expect(page.status).toBe(200);
	const done = await executionWhen(rest, executionId, ended, {
		timeoutMs: 120_000,
		what: 'its end',
	});
	figures.customForm = { executionId, refused: refused.status, status: done.status };
	expect(done.status).toBe('success');
	expect(runsOf(done, 'Next').at(-1).data.main[0][0].json.data).toEqual({
		Decision: 'Refund half',
		Refund: 12.5,
		Tell: ['Customer', 'Warehouse'],
		respondedAt: expect.any(String),
	});
	const enqueued = stack.main
		.output()
		.match(new RegExp(`Enqueued execution ${executionId} \\(`, 'g'));
	expect(enqueued).toHaveLength(2);
	expect(worker.started.filter((s) => s.executionId === executionId)).toHaveLength(2);
}, 180_000);
