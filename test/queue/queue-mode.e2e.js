'use strict';
/*
 * The node on n8n's distributed engine, with the parts users run: an n8n main instance and two
 * `n8n worker` processes (2.41.1) in queue mode on Redis and Postgres, the package in each
 * process's own community-nodes folder. Broadcasts come in as production webhook calls and run on
 * the workers; the fake service (its own process) takes 10 requests in flight, answers after
 * 100 ms, and says what it received. `npm run test:queue`.
 *
 * Tests 2 and 3 need the send-once keys (issue 12): they run when the built node's description
 * has a `sendOnceKey` option, and are skipped (and say so) until then.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const queue = require('../../scripts/lib/queue');
// The service and what it received; the broadcast; n8n's credential, webhook and executions.
const { API_KEY, startFakeServiceProcess, acceptedPerPhone } = require('./support');
const { hasSendOnce, defaultConcurrency, recipients, broadcastWorkflow } = require('./support');
const { createCredential, createActiveWorkflow, waitForWebhook } = require('./support');
const { callWebhook, execution, callAll } = require('./support');

const SERVICE = { latencyMs: 100, concurrencyLimit: 10 };
const BATCHES = 4;
const PER_BATCH = 300;
// Each worker takes at most 2 executions at once, so 4 simultaneous calls land on both workers.
const WORKER_CONCURRENCY = 2;
// Test 3: how many recipients the killed broadcast has, and after how many accepted sends it dies.
const KILL_BROADCAST = 600;
const KILL_AFTER_ACCEPTED = 100;
// Test 3's bound: items a claim takes ahead of sending, beyond the window in flight. The node claims
// 2 × Concurrency at a time (delivery/sendOnce/index.ts); SEND_ONCE_CLAIM_AHEAD overrides it.
const CLAIM_AHEAD = Number(process.env.SEND_ONCE_CLAIM_AHEAD ?? 2 * Number(defaultConcurrency()));
const LOG_FILE = path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs', 'stack.log');
const SEND_ONCE = hasSendOnce();
const sendOnceTest = SEND_ONCE ? test : test.skip;

let stack;
let fake;
let rest;
const hooks = {};
const figures = {
	service: SERVICE,
	workerConcurrency: WORKER_CONCURRENCY,
	sendOnce: SEND_ONCE
		? 'on'
		: 'the built node has no sendOnceKey option: tests 2 and 3 are skipped',
};
const round1 = { executions: [] };

function log(line) {
	fs.appendFileSync(LOG_FILE, `${line}\n`);
}

const batches = Array.from({ length: BATCHES }, (_, b) => recipients(b, PER_BATCH));

/** Which worker started which execution since `marks` (lengths of each worker's list). */
function startedSince(marks) {
	return stack.workers.flatMap((worker, w) =>
		worker.started
			.slice(marks[w])
			.map((s) => ({ worker: worker.name, executionId: s.executionId })),
	);
}

/** Which worker ran which batch: the batch is read back from each execution's webhook input. */
async function batchWorkers(ran) {
	const workerOf = {};
	for (const { worker, executionId } of ran) {
		const stored = await execution(rest, executionId);
		const first = stored.data.resultData.runData.Webhook[0].data.main[0][0].json.body.recipients[0];
		workerOf[batches.findIndex((list) => list[0].orderId === first.orderId)] = worker;
	}
	return workerOf;
}

beforeAll(async () => {
	fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
	fs.writeFileSync(LOG_FILE, '');
	const started = Date.now();
	stack = await queue.startQueueStack({ workers: 2, workerConcurrency: WORKER_CONCURRENCY, log });
	figures.startupMs = { ...stack.timings };
	fake = await startFakeServiceProcess({ apiKey: API_KEY, ...SERVICE });
	rest = new n8n.N8nRest(stack.main.url);
	await rest.ownerSetupOrLogin();
	const credential = await createCredential(rest, fake.url);
	hooks.credential = credential;
	for (const [key, webhookPath, suffix] of [
		['broadcast', 'queue-broadcast', 'shipped'],
		['kill', 'queue-kill', 'kill'],
	]) {
		const workflow = broadcastWorkflow({
			name: `Queue ${key}`,
			webhookPath,
			credential,
			options: { sendOnceKey: `={{ $json.orderId }}-${suffix}` },
		});
		hooks[key] = {
			workflow: await createActiveWorkflow(rest, workflow),
			url: `${stack.main.url}/webhook/${webhookPath}`,
		};
		await waitForWebhook(hooks[key].url);
	}
	figures.setupMs = Date.now() - started;
}, 420_000);

afterAll(async () => {
	await fake?.stop();
	const stopped = await stack?.stop();
	figures.stopped =
		stopped && Object.fromEntries(Object.entries(stopped).map(([k, v]) => [k, v.signal ?? v.code]));
	fs.writeFileSync(
		path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs', 'figures.json'),
		JSON.stringify(figures, null, 2),
	);
	process.stderr.write(
		`\nqueue mode, closing note:\n${JSON.stringify(figures, null, 2)}\n(n8n, Redis and ` +
			`Postgres output: ${path.relative(n8n.REPO_ROOT, LOG_FILE)})\n`,
	);
}, 120_000);

/** The sends as the service saw them (ms from the first, status, requests in flight), to see how the workers paced. */
function writeSendTrace(name, sends) {
	const t0 = sends[0]?.time ?? 0;
	const lines = sends.map((r) => `${r.time - t0}\t${r.status}\t${r.inFlight ?? ''}`);
	fs.writeFileSync(path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs', name), `${lines.join('\n')}\n`);
}

test(
	'1. four production executions at once: every message accepted exactly once, none lost, ' +
		'both workers ran',
	async () => {
		await fake.reset();
		const marks = stack.workers.map((w) => w.started.length);
		const t0 = Date.now();
		let outputs;
		try {
			outputs = await callAll(
				rest,
				batches.map((list) => () => callWebhook(hooks.broadcast.url, { recipients: list })),
			);
		} finally {
			// Test 4 looks at these executions whatever their outcome.
			round1.executions = startedSince(marks);
		}
		const wallMs = Date.now() - t0;
		const { requests, peakInFlight } = await fake.snapshot();
		const ran = round1.executions;
		const sends = requests.filter((r) => r.method === 'POST');
		writeSendTrace('test1-sends.tsv', sends);
		figures.test1 = {
			items: BATCHES * PER_BATCH,
			wallMs,
			floorMs: ((BATCHES * PER_BATCH) / SERVICE.concurrencyLimit) * SERVICE.latencyMs,
			ratioToFloor: Number(
				(wallMs / (((BATCHES * PER_BATCH) / SERVICE.concurrencyLimit) * SERVICE.latencyMs)).toFixed(
					2,
				),
			),
			sendPosts: sends.length,
			tooManyRequests: sends.filter((r) => r.status === 429).length,
			otherRequests: requests.length - sends.length,
			peakInFlightAtService: peakInFlight,
			executionsPerWorker: Object.fromEntries(
				stack.workers.map((w) => [w.name, ran.filter((r) => r.worker === w.name).length]),
			),
		};

		outputs.forEach((items, b) => {
			expect(items).toHaveLength(PER_BATCH);
			items.forEach((item, i) =>
				expect(item).toMatchObject({
					status: 'ongoing',
					extra: { customer_phone: batches[b][i].phone },
				}),
			);
		});
		const accepted = acceptedPerPhone(requests);
		const expected = batches.flat().map((r) => r.phone);
		expect([...accepted.keys()].sort()).toEqual([...expected].sort());
		expect([...accepted.values()].filter((n) => n !== 1)).toEqual([]);
		expect(ran).toHaveLength(BATCHES);
		for (const worker of stack.workers)
			expect(ran.filter((r) => r.worker === worker.name).length).toBeGreaterThan(0);
		round1.workerOf = await batchWorkers(ran);
	},
	300_000,
);

test('4. the node and its credential load on the workers: each worker ran the node with the credential', async () => {
	const { requests } = await fake.snapshot();
	// Every request the service got carried the API key of the credential created on the main.
	expect(requests.length).toBeGreaterThan(0);
	expect(requests.filter((r) => !r.apiKeyMatches)).toEqual([]);
	const perWorker = {};
	for (const worker of stack.workers) {
		const ids = round1.executions.filter((r) => r.worker === worker.name).map((r) => r.executionId);
		expect(ids.length).toBeGreaterThan(0);
		const stored = await execution(rest, ids[0]);
		expect(stored.mode).toBe('webhook');
		const node = stored.workflowData.nodes.find((n) => n.name === 'Send template');
		expect(node.type).toBe(n8n.NODE_TYPE);
		expect(node.credentials[n8n.CREDENTIAL_TYPE].id).toBe(hooks.credential.id);
		// A node type the worker cannot load stops the workflow before the node runs; a credential it
		// cannot decrypt stops the node before any request. Here the node ran and reached the service:
		// its whole batch went out, or the service's own 429 stopped it (test 1 says which).
		const [run] = stored.data.resultData.runData['Send template'] ?? [];
		expect(run).toBeDefined();
		const outcome = run.error
			? `${run.error.message} ${run.error.description ?? ''}`
			: `${run.data.main[0].length} items`;
		if (stored.status === 'success') expect(run.data.main[0]).toHaveLength(PER_BATCH);
		else expect(outcome).toMatch(/\(429\)|Rate limited by the service/);
		expect(worker.output()).not.toMatch(/Unrecognized node type|Unrecognized credential type/);
		perWorker[worker.name] = {
			execution: ids[0],
			status: stored.status,
			sendTemplate: outcome.slice(0, 120),
		};
	}
	figures.test4 = perWorker;
}, 60_000);

/**
 * Test 2 must see one worker skip what the other sent. When none of the four batches changed
 * worker, batch 0 is called again (at most 6 times) until the other worker runs it.
 */
async function crossWorkerRuns(workerOf) {
	const crossed = Object.keys(workerOf)
		.filter((b) => workerOf[b] !== round1.workerOf[b])
		.map(Number);
	const extra = [];
	for (let attempt = 0; crossed.length === 0 && attempt < 6; attempt++) {
		const marks = stack.workers.map((w) => w.started.length);
		const [items] = await callAll(rest, [
			() => callWebhook(hooks.broadcast.url, { recipients: batches[0] }),
		]);
		extra.push(items);
		const [run] = startedSince(marks);
		if (run && run.worker !== round1.workerOf[0]) crossed.push(0);
	}
	return { crossed, extra };
}

const alreadySent = (list, suffix) => (item, i) =>
	expect(item).toEqual(
		expect.objectContaining({
			skipped: true,
			reason: 'alreadySent',
			sendOnceKey: `${list[i].orderId}-${suffix}`,
		}),
	);

/**
 * Waits until the history in Postgres holds the acceptance of every key of `lists`: another
 * worker's stale write can lose some at the end of test 1, and the worker that wrote them puts
 * them back within seconds (docs/send-once.md, "Queue mode"); until then a rerun reports those
 * keys as outcomeUnknown and sends nothing. How many were missing at first, and for how long.
 */
async function acceptancesInHistory(lists, suffix, timeoutMs = 90_000) {
	// n8n's store keeps the MD5 of each entry (delivery/sendOnce/store.ts names them).
	const wanted = lists
		.flat()
		.map((r) =>
			crypto
				.createHash('md5')
				.update(`omnichannel-send-once:accepted:${r.orderId}-${suffix}`)
				.digest('base64'),
		);
	const started = Date.now();
	let missingAtFirst;
	for (;;) {
		const stored = new Set(
			stack.postgres
				.psql("select json_array_elements_text((value::json)->'data') from processed_data")
				.split('\n')
				.map((line) => line.trim()),
		);
		const missing = wanted.filter((hash) => !stored.has(hash)).length;
		missingAtFirst ??= missing;
		if (missing === 0 || Date.now() - started > timeoutMs)
			return { missingAtFirst, missing, afterMs: Date.now() - started };
		await queue.wait(250);
	}
}

sendOnceTest(
	'2. the same four calls again: the service receives nothing, 1,200 items skipped (history in Postgres)',
	async () => {
		const history = await acceptancesInHistory(batches, 'shipped');
		figures.historyBeforeTest2 = history;
		expect(history.missing).toBe(0);
		await fake.reset();
		const marks = stack.workers.map((w) => w.started.length);
		const t0 = Date.now();
		const outputs = await callAll(
			rest,
			batches.map((list) => () => callWebhook(hooks.broadcast.url, { recipients: list })),
		);
		const wallMs = Date.now() - t0;
		const ran = startedSince(marks);
		const { crossed, extra } = await crossWorkerRuns(await batchWorkers(ran));
		const { requests } = await fake.snapshot();
		const rows = Number(stack.postgres.psql('select count(*) from processed_data').trim());
		const entries = Number(
			stack.postgres
				.psql(
					"select coalesce(sum(json_array_length((value::json)->'data')), 0) from processed_data",
				)
				.trim(),
		);
		figures.test2 = {
			wallMs,
			requestsAtService: requests.length,
			skippedAlreadySent: outputs
				.flat()
				.filter((item) => item.skipped === true && item.reason === 'alreadySent').length,
			processedDataRows: rows,
			processedDataEntries: entries,
			// Batches whose history one worker wrote in test 1 and the other worker read here.
			batchesOnTheOtherWorker: crossed.length,
			extraCallsOfBatch0: extra.length,
		};

		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
		outputs.forEach((items, b) => {
			expect(items).toHaveLength(PER_BATCH);
			items.forEach(alreadySent(batches[b], 'shipped'));
		});
		for (const items of extra) {
			expect(items).toHaveLength(PER_BATCH);
			items.forEach(alreadySent(batches[0], 'shipped'));
		}
		expect(rows).toBeGreaterThan(0);
		expect(ran).toHaveLength(BATCHES);
		for (const worker of stack.workers)
			expect(ran.filter((r) => r.worker === worker.name).length).toBeGreaterThan(0);
		expect(crossed.length).toBeGreaterThan(0);
	},
	300_000,
);

/** Polls until the broadcast runs on a worker and the service accepted enough of it, then kills that worker. */
async function killWorkerMidBroadcast(marks, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const [running] = startedSince(marks);
		const { requests } = await fake.snapshot();
		if (running && acceptedPerPhone(requests).size >= KILL_AFTER_ACCEPTED) {
			const worker = stack.workers.find((w) => w.name === running.worker);
			// What a machine dying does: the worker and what it started end at once, nothing shuts down.
			const children = queue.descendantsOf(worker.pid);
			process.kill(worker.pid, 'SIGKILL');
			for (const pid of children) {
				try {
					process.kill(pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}
			const { inFlight } = await fake.snapshot();
			return { worker, acceptedAtKill: acceptedPerPhone(requests).size, inFlightAtKill: inFlight };
		}
		if (Date.now() > deadline)
			throw new Error(`no worker had sent ${KILL_AFTER_ACCEPTED} messages after ${timeoutMs} ms`);
		await queue.wait(50);
	}
}

sendOnceTest(
	'3. a worker killed mid-broadcast, the same input again: 0 duplicates, every unsent item accounted for',
	async () => {
		await fake.reset();
		const list = recipients(7, KILL_BROADCAST);
		const marks = stack.workers.map((w) => w.started.length);
		const aborter = new AbortController();
		const first = callWebhook(
			hooks.kill.url,
			{ recipients: list },
			{ signal: aborter.signal },
		).catch((error) => error);
		const kill = await killWorkerMidBroadcast(marks);
		await kill.worker.exit;
		// Answers the service owes the dead worker are still written (and count as accepted): wait for them.
		for (let i = 0; i < 100 && (await fake.snapshot()).inFlight > 0; i++) await queue.wait(50);
		aborter.abort();
		await first;
		const acceptedBefore = acceptedPerPhone((await fake.snapshot()).requests);

		const [output] = await callAll(rest, [() => callWebhook(hooks.kill.url, { recipients: list })]);
		const accepted = acceptedPerPhone((await fake.snapshot()).requests);
		const neverAccepted = list
			.map((r, i) => (accepted.has(r.phone) ? -1 : i))
			.filter((i) => i >= 0);
		const window = Number(defaultConcurrency());
		figures.test3 = {
			killed: kill.worker.name,
			acceptedAtKill: kill.acceptedAtKill,
			inFlightAtServiceAtKill: kill.inFlightAtKill,
			acceptedBeforeRerun: acceptedBefore.size,
			acceptedAfterRerun: accepted.size,
			duplicates: [...accepted.values()].reduce((sum, n) => sum + n - 1, 0),
			neverAccepted: neverAccepted.length,
			bound: { claimAhead: CLAIM_AHEAD, window },
			outcomeUnknownInOutput: output.filter((item) => item.reason === 'outcomeUnknown').length,
		};

		expect([...accepted.values()].filter((n) => n !== 1)).toEqual([]);
		expect(output).toHaveLength(KILL_BROADCAST);
		output.forEach((item, i) => {
			const { phone, orderId } = list[i];
			if (!accepted.has(phone)) {
				// Never reached the service: the node must say it does not know, not claim it was sent.
				expect(item).toEqual(
					expect.objectContaining({
						skipped: true,
						reason: 'outcomeUnknown',
						sendOnceKey: `${orderId}-kill`,
					}),
				);
			} else if (acceptedBefore.has(phone)) {
				expect(item).toEqual(
					expect.objectContaining({ skipped: true, sendOnceKey: `${orderId}-kill` }),
				);
				expect(['alreadySent', 'outcomeUnknown']).toContain(item.reason);
			} else {
				expect(item).toMatchObject({ status: 'ongoing', extra: { customer_phone: phone } });
			}
		});
		expect(neverAccepted.length).toBeLessThanOrEqual(CLAIM_AHEAD + window);
	},
	300_000,
);
