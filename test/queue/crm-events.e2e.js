'use strict';
/*
 * The CRM shape in queue mode: every event (an order shipped) is a production webhook call of
 * its own that sends one message, 20 at once, run by two `n8n worker` processes (n8n's default
 * of 10 executions each), with a send-once key and a history already full at the node's default
 * size (written into Postgres in the node's format). Then every event is delivered again: the
 * service must receive nothing. The processed-data store's calls are counted by Postgres
 * (pg_stat_statements: n8n's store reads the row once per call, then updates or inserts it).
 * Last, a Send and Wait question asked once, then six times more at once on the two workers:
 * one message, the first execution still waiting, the others skipped (alreadySent).
 * `npm run test:queue`; QUEUE_EVENTS changes the number of events (1,000).
 */
const fs = require('node:fs');
const path = require('node:path');

const queue = require('../../scripts/lib/queue');
// The service and what it received; the events' workflow; n8n's credential and webhook; the history.
const { LOG_DIR, startQueueWithService, stopAndReport, acceptedPerPhone } = require('./support');
const { templateSendOptions, recipients, broadcastWorkflow } = require('./support');
const { createActiveWorkflow, waitForWebhook, callWebhook } = require('./support');
const { prefillSendOnceHistory, sendOnceHistoryValue, execution } = require('./support');
const { chain, omniNode, webhookTrigger } = require('../e2e/support');

const EVENTS = Number(process.env.QUEUE_EVENTS ?? 1000);
const AT_ONCE = 20;
const WORKER_CONCURRENCY = 10;
// A service that does not limit: the figures are the node's and n8n's, not a pacer's.
const SERVICE = { latencyMs: 100, concurrencyLimit: 100 };

let stack;
let fake;
let url;
let rest;
let credential;
const events = recipients(9, EVENTS);
const figures = {
	events: EVENTS,
	atOnce: AT_ONCE,
	workerConcurrency: WORKER_CONCURRENCY,
	service: SERVICE,
};

/**
 * Calls of n8n's processed-data store so far: each call reads the row once, then writes it
 * (update, or insert for a new row).
 */
function storeStatements() {
	const [reads, writes] = stack.postgres
		.psql(
			`select coalesce(sum(calls) filter (where query ilike 'select %"processed_data"%'), 0),
			        coalesce(sum(calls) filter (where query ilike 'update %"processed_data"%'
			                                       or query ilike 'insert into %"processed_data"%'), 0)
			   from pg_stat_statements`,
		)
		.trim()
		.split('|')
		.map(Number);
	return { reads, writes };
}

/** Delivers every event as its own webhook call, AT_ONCE at a time; the callers' latencies and outputs. */
async function deliverAll() {
	const latencies = [];
	const outputs = new Array(events.length);
	let next = 0;
	const t0 = Date.now();
	await Promise.all(
		Array.from({ length: AT_ONCE }, async () => {
			while (next < events.length) {
				const index = next++;
				const started = Date.now();
				outputs[index] = await callWebhook(url, { recipients: [events[index]] });
				latencies.push(Date.now() - started);
			}
		}),
	);
	const wallMs = Date.now() - t0;
	latencies.sort((a, b) => a - b);
	const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
	return {
		outputs,
		wallMs,
		figures: {
			wallMs,
			messagesPerSecond: Number(((events.length * 1000) / wallMs).toFixed(1)),
			p50Ms: at(0.5),
			p95Ms: at(0.95),
		},
	};
}

beforeAll(async () => {
	const workers = { workers: 2, workerConcurrency: WORKER_CONCURRENCY };
	({ stack, fake, rest, credential } = await startQueueWithService(
		'crm-stack.log',
		workers,
		SERVICE,
	));
	figures.startupMs = { ...stack.timings };
	stack.postgres.psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
	const workflow = await createActiveWorkflow(
		rest,
		broadcastWorkflow({
			name: 'Queue events',
			webhookPath: 'queue-event',
			credential,
			options: { sendOnceKey: '={{ $json.orderId }}-event' },
		}),
	);
	const history = templateSendOptions().find((option) => option.name === 'sendOnceHistory').default;
	const nodeId = workflow.nodes.find((node) => node.name === 'Send template').id;
	const keys = Array.from({ length: history }, (_, i) => `earlier-${i}-event`);
	prefillSendOnceHistory(stack.postgres, { workflowId: workflow.id, nodeId, keys });
	figures.prefilledKeys = history;
	figures.prefilledEntries = Number(
		stack.postgres
			.psql("select json_array_length((value::json)->'data') from processed_data")
			.trim(),
	);
	url = `${stack.main.url}/webhook/queue-event`;
	await waitForWebhook(url);
}, 420_000);

afterAll(async () => {
	fs.writeFileSync(path.join(LOG_DIR, 'crm-figures.json'), JSON.stringify(figures, null, 2));
	await stopAndReport([fake, stack], `CRM events:\n${JSON.stringify(figures, null, 2)}`);
}, 120_000);

test(
	'1. one message per webhook call, 20 at once on two workers, history full at the default: ' +
		'each accepted once',
	async () => {
		await fake.reset();
		const before = storeStatements();
		const { outputs, figures: timing } = await deliverAll();
		const after = storeStatements();
		const { requests } = await fake.snapshot();
		const accepted = acceptedPerPhone(requests);
		figures.first = {
			...timing,
			requestsPerMessage: Number((requests.length / EVENTS).toFixed(3)),
			storeCallsPerMessage: Number(((after.reads - before.reads) / EVENTS).toFixed(3)),
			storeWritesPerMessage: Number(((after.writes - before.writes) / EVENTS).toFixed(3)),
			historyEntries: Number(
				stack.postgres
					.psql("select json_array_length((value::json)->'data') from processed_data")
					.trim(),
			),
		};

		outputs.forEach((items, i) => {
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				status: 'ongoing',
				extra: { customer_phone: events[i].phone },
			});
		});
		expect([...accepted.keys()].sort()).toEqual(events.map((event) => event.phone).sort());
		expect([...accepted.values()].filter((count) => count !== 1)).toEqual([]);
		// The history as n8n holds it: the events' claims and acceptances, in the form the prefill wrote (a
		// wrong form would match none). A few may be missing for now: another worker's stale write-back loses
		// entries, which the node writes again with its later calls (docs/send-once.md, "Queue mode").
		const held = new Set(
			JSON.parse(stack.postgres.psql('select value from processed_data').trim()).data,
		);
		const expected = sendOnceHistoryValue(events.map((event) => `${event.orderId}-event`)).data;
		figures.first.historyEntriesMissingForNow = expected.filter((entry) => !held.has(entry)).length;
		expect(figures.first.historyEntriesMissingForNow).toBeLessThanOrEqual(expected.length / 10);
	},
	600_000,
);

test('2. every event delivered again: nothing reaches the service, every event says alreadySent', async () => {
	// Entries another worker's write lost are put back by a later call, or by a worker's own check a
	// second after it went quiet (it has seen lost writes by then); the redeliveries come 3 s later.
	await queue.wait(3_000);
	await fake.reset();
	const before = storeStatements();
	const { outputs, figures: timing } = await deliverAll();
	const after = storeStatements();
	const { requests } = await fake.snapshot();
	const reasons = {};
	for (const items of outputs)
		for (const item of items)
			reasons[item.reason ?? 'sent'] = (reasons[item.reason ?? 'sent'] ?? 0) + 1;
	figures.again = {
		...timing,
		requestsAtService: requests.length,
		sentTwice: acceptedPerPhone(requests).size,
		reasons,
		storeCallsPerMessage: Number(((after.reads - before.reads) / EVENTS).toFixed(3)),
	};

	expect(requests.map((r) => `${r.method} ${r.path} ${r.phone ?? ''}`)).toEqual([]);
	outputs.forEach((items, i) => {
		expect(items).toEqual([
			expect.objectContaining({
				skipped: true,
				reason: 'alreadySent',
				sendOnceKey: `${events[i].orderId}-event`,
			}),
		]);
	});
}, 600_000);

/** Webhook (answers at once) → Send and Wait asking `body.customerId`, its key `body.question`. */
function askOnceWorkflow() {
	const ask = {
		resource: 'message',
		operation: 'sendAndWait',
		customerId: '={{ $json.body.customerId }}',
		message: 'Confirm your appointment?',
		options: { sendOnceKey: '={{ $json.body.question }}' },
	};
	const reference = { id: credential.id, name: credential.name };
	return chain('QueueAskOnce0001', 'Queue ask once', [
		webhookTrigger('ask-once', { atOnce: true }),
		omniNode('Ask', ask, { credential: reference }),
	]);
}

/** The executions of a workflow as Postgres holds them, by id: their status. */
function statuses(workflowId) {
	const rows = stack.postgres.psql(
		`select id, status from execution_entity where "workflowId" = '${workflowId}' order by id`,
	);
	return rows
		.trim()
		.split('\n')
		.filter(Boolean)
		.map((row) => row.split('|'));
}

async function until(check, what) {
	const deadline = Date.now() + 120_000;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`no ${what} after 120 s`);
		await queue.wait(250);
	}
}

test('3. Send and Wait with a send-once key, asked again on either worker: nothing sent, nothing waits', async () => {
	await fake.reset();
	const workflow = await createActiveWorkflow(rest, askOnceWorkflow());
	const hook = `${stack.main.url}/webhook/ask-once`;
	await waitForWebhook(hook);
	const body = { customerId: '4711', question: '4711-appointment-2026-12-01' };
	await callWebhook(hook, body);
	await until(() => statuses(workflow.id).some(([, status]) => status === 'waiting'), 'waiting');
	const [[waitingId]] = statuses(workflow.id);
	await Promise.all(Array.from({ length: 6 }, () => callWebhook(hook, body)));
	const ended = () => statuses(workflow.id).filter(([, status]) => status === 'success');
	await until(() => statuses(workflow.id).length === 7 && ended().length === 6, 'six ends');
	const again = ended().map(([id]) => id);
	figures.askOnce = {
		workersOfRepeats: stack.workers.map(
			(w) => w.started.filter((s) => again.includes(s.executionId)).length,
		),
	};

	const { requests } = await fake.snapshot();
	expect(requests.filter((r) => r.customerId === '4711')).toHaveLength(1);
	expect(statuses(workflow.id)).toEqual([
		[waitingId, 'waiting'],
		...again.map((id) => [id, 'success']),
	]);
	for (const id of again) {
		const stored = await execution(rest, id);
		expect(stored.data.resultData.runData.Ask[0].data.main[0].map((item) => item.json)).toEqual([
			{ skipped: true, reason: 'alreadySent', sendOnceKey: body.question },
		]);
	}
}, 300_000);
