'use strict';
/*
 * Asking many customers at once: examples/ask-many-parent.json starts one execution of
 * examples/ask-many-sub-workflow.json per customer, each sending its WhatsApp template with its own
 * answer link and waiting. Shared by test/e2e/askMany.e2e.js (n8n 2.x and 1.x) and
 * test/queue/ask-many.e2e.js (queue mode): the examples as a user imports them, the customers,
 * what the service received, and n8n's executions of the sub-workflow.
 */
const fs = require('node:fs');
const path = require('node:path');

const { eachAtOnce } = require('../../scripts/bench/measure');
const n8n = require('../../scripts/lib/n8n');
const { restData, storedExecution } = require('../e2e/support');
const { PREVIEW_AGENTS } = require('../e2e/sendAndWait.support');
const { waitingLinks, previewFetch, answerThroughPage } = require('./answerPage');

const PARENT_ID = 'OmniExampleAsk01';
const SUB_ID = 'OmniExampleAsk02';
const SEND_PATH = '/whatsapp/send-template-message';
// WhatsApp's, Facebook's and Telegram's link previews.
const PREVIEWS = PREVIEW_AGENTS.filter((agent) => !agent.startsWith('Slackbot'));

/**
 * How many customers, how many answer, and the wait limit. `npm run test:e2e` and
 * `npm run test:queue` ask a few with a short limit, so every check runs on every change; the scale
 * runs (`npm run bench:ask-many`, `npm run bench:ask-many:queue`, scripts/bench/ask-many.js) set
 * ASK_MANY_CUSTOMERS, ASK_MANY_ANSWERED and ASK_MANY_WAIT_SECONDS. The limit must leave room for
 * every check before it (the figures the tests print say how much it left).
 */
function askManySizes(env = process.env) {
	const count = Number(env.ASK_MANY_CUSTOMERS ?? 8);
	const answered = Number(env.ASK_MANY_ANSWERED ?? Math.ceil((count * 3) / 5));
	const waitSeconds = Number(env.ASK_MANY_WAIT_SECONDS ?? 45);
	if (!(count > answered && answered >= 2 && waitSeconds > 0))
		throw new Error(`ask many: ${count} customers, ${answered} answering, ${waitSeconds} s`);
	return { count, answered, waitSeconds };
}

const readExample = (file) =>
	JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', file), 'utf8'));

/**
 * Both examples as shipped, with what a user changes: the credential (a reference by id and
 * name) and the wait limit of "Ask to confirm" (`waitSeconds`, instead of 24 hours).
 */
function askManyExamples({ waitSeconds, credential }) {
	const sub = readExample('ask-many-sub-workflow.json');
	const parent = readExample('ask-many-parent.json');
	for (const node of sub.nodes) {
		if (node.credentials && credential)
			node.credentials = { [n8n.CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		if (node.parameters?.options?.limitWaitTime)
			node.parameters.options.limitWaitTime.values = {
				limitType: 'afterTimeInterval',
				// The node takes minutes to two decimals.
				resumeAmount: Math.round((waitSeconds / 60) * 100) / 100,
				resumeUnit: 'minutes',
			};
	}
	const webhook = parent.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	return { sub, parent, webhookPath: webhook.parameters.path };
}

/** Imports the workflows through n8n's CLI, which keeps their ids (the parent calls the sub-workflow by id). */
async function importWorkflows(env, root, workflows) {
	const file = path.join(root, 'ask-many-workflows.json');
	fs.writeFileSync(file, JSON.stringify(workflows));
	await n8n.n8nCliOk(['import:workflow', `--input=${file}`], { env });
}

const IS_2X = () => Number(String(n8n.installedVersion()).split('.')[0]) >= 2;

/**
 * Publishes both examples, as their notes say: the parent (its production webhook) and, on n8n
 * 2.x, the sub-workflow (a published parent runs the sub-workflow's published version; 1.x runs
 * the saved one and publishes no workflow without a trigger of its own).
 */
async function publishExamples(rest) {
	if (IS_2X()) await activate(rest, SUB_ID);
	await activate(rest, PARENT_ID);
}

async function activate(rest, id) {
	const stored = restData(await rest.request('GET', `/rest/workflows/${id}`), 'GET workflow');
	restData(
		await rest.request('POST', `/rest/workflows/${id}/activate`, { versionId: stored.versionId }),
		`POST /rest/workflows/${id}/activate`,
	);
}

/** `count` customers with distinct phones and appointments. */
function customers(count, batch = 1) {
	return Array.from({ length: count }, (_, i) => ({
		phone: `+49152${String(batch).padStart(2, '0')}${String(i).padStart(5, '0')}`,
		name: `Customer ${batch}-${i}`,
		appointment: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 10:00`,
		appointmentId: `A${batch}-${i}`,
	}));
}

/**
 * What the service received of the template sends: per phone the accepted sends and their links,
 * the 429s, and requests of any other kind. `requests`: { method, path (without /stable/open),
 * status, phone, attributes }.
 */
function sendsOf(requests) {
	const accepted = new Map();
	let tooMany = 0;
	let sends = 0;
	for (const r of requests) {
		if (r.method !== 'POST' || r.path !== SEND_PATH) continue;
		sends += 1;
		if (r.status === 429) tooMany += 1;
		if (typeof r.status !== 'number' || r.status < 200 || r.status >= 300) continue;
		const links = waitingLinks(r.attributes?.['3'] ?? '');
		accepted.set(r.phone, [...(accepted.get(r.phone) ?? []), { links, attributes: r.attributes }]);
	}
	return { accepted, tooMany, sends, requests: requests.length };
}

/** The execution an answer link resumes: /webhook-waiting/<execution>/<node>. */
const executionOf = (link) => new URL(link).pathname.split('/')[2];

/** How many executions of the sub-workflow (or `workflowId`) n8n lists with `status`. */
async function countWith(rest, status, workflowId = SUB_ID) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: [status] }));
	const data = restData(
		await rest.request('GET', `/rest/executions?filter=${filter}&limit=1`),
		'GET /rest/executions',
	);
	return data.count;
}

/** Polls until `read()` gives something `done` accepts; the last value otherwise, after the time. */
async function poll(read, done, timeoutMs, intervalMs = 500) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/**
 * Every link fetched by a preview fetcher, WhatsApp's, Facebook's and Telegram's in turn (a
 * link is previewed where it is shared), or `agents` in turn: the statuses they got.
 */
async function previewAll(links, atOnce = 10, agents = PREVIEWS) {
	return await eachAtOnce(links, atOnce, (link, index) =>
		previewFetch(link, agents[index % agents.length]),
	);
}

/**
 * Presses the page's first (Confirm) or second (Cancel) button for each link, a few people at a
 * time: each answer resumes an execution, and n8n's SQLite has one writer.
 */
async function answerAll(answers, atOnce = 4) {
	return await eachAtOnce(answers, atOnce, async ({ link, confirm }) => {
		const page = await answerThroughPage(link, { button: confirm ? 0 : 1 });
		return page.status;
	});
}

/** The items a node put out in its last run, or undefined when it did not run. */
function outputOf(execution, nodeName) {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	return runs.length === 0 ? undefined : runs[runs.length - 1].data?.main?.[0];
}

const branches = [
	'Confirmed (stand-in)',
	'Cancelled (stand-in)',
	'Asked before (stand-in)',
	'No answer (stand-in)',
];
const branchRan = (execution) => branches.some((name) => outputOf(execution, name));

/** Per execution: its status, the branch that ran and the item it got. */
async function outcomes(rest, executionIds, atOnce = 10) {
	return await eachAtOnce(executionIds, atOnce, async (id) => {
		let execution = await storedExecution(rest, id);
		// n8n 1.x on SQLite writes an execution's status and its run data in two steps: a success
		// can be read a moment before the branch that ran.
		for (let i = 0; i < 50 && execution.status === 'success' && !branchRan(execution); i++) {
			await new Promise((resolve) => setTimeout(resolve, 200));
			execution = await storedExecution(rest, id);
		}
		const ran = branches.filter((name) => outputOf(execution, name));
		const item = ran.length === 1 ? outputOf(execution, ran[0])[0].json : undefined;
		return { id, status: execution.status, branches: ran, item };
	});
}

/**
 * The checks both deployments run, as jest tests, in order. `ctx` is filled in by the test file's
 * beforeAll: `rest` (n8n's REST API, logged in), `hookUrl` (the parent's production webhook),
 * `requests()` (what the service received so far, as sendsOf reads it), `figures` (reported).
 */
function askManyTests(ctx, { count, answered, waitSeconds }) {
	const list = customers(count);
	let byPhone;
	const linkOf = (customer) => byPhone.get(customer.phone).links[0];
	const startParent = async () =>
		await fetch(ctx.hookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ customers: list }),
		});

	const first = `${count} customers: each message reaches the service once, its own link; ${count} executions wait`;
	test(
		first,
		async () => {
			const started = Date.now();
			ctx.started = started;
			expect((await startParent()).status).toBe(200);
			const sent = await poll(
				async () => sendsOf(await ctx.requests()),
				(s) => s.accepted.size >= count,
				240_000,
				250,
			);
			ctx.figures.allSentMs = Date.now() - started;
			ctx.figures.tooMany = sent.tooMany;
			expect([...sent.accepted.keys()].sort()).toEqual(list.map((c) => c.phone).sort());
			expect([...sent.accepted.values()].filter((sends) => sends.length !== 1)).toEqual([]);
			byPhone = new Map([...sent.accepted].map(([phone, [one]]) => [phone, one]));
			for (const customer of list) {
				const { attributes, links } = byPhone.get(customer.phone);
				expect(attributes).toMatchObject({ 1: customer.name, 2: customer.appointment });
				expect(links).toHaveLength(1);
			}
			const links = list.map(linkOf);
			expect(new Set(links).size).toBe(count);
			expect(new Set(links.map(executionOf)).size).toBe(count);
			const waiting = await poll(
				() => countWith(ctx.rest, 'waiting'),
				(n) => n >= count,
				120_000,
			);
			expect(waiting).toBe(count);
			ctx.figures.allWaitingMs = Date.now() - started;
		},
		420_000,
	);

	// Previews and answers come first, the run again after them: everything before the answers must
	// fit in the wait limit, and the answers must come before it.
	test("WhatsApp's, Facebook's and Telegram's link previews resume none", async () => {
		const statuses = await previewAll(list.map(linkOf));
		expect(statuses.filter((status) => status !== 200)).toEqual([]);
		expect(await countWith(ctx.rest, 'waiting')).toBe(count);
		expect(await countWith(ctx.rest, 'success')).toBe(0);
	}, 180_000);

	test(`${answered} answers through the page resume exactly those executions with their choice`, async () => {
		const answers = list.slice(0, answered).map((customer, index) => ({
			link: linkOf(customer),
			confirm: index % 2 === 0,
		}));
		const statuses = await answerAll(answers);
		expect(statuses.filter((status) => status !== 200)).toEqual([]);
		// n8n answers the page, then resumes the execution.
		await poll(
			async () => [await countWith(ctx.rest, 'waiting'), await countWith(ctx.rest, 'running')],
			([waiting, running]) => waiting <= count - answered && running === 0,
			120_000,
			1_000,
		);
		const resumed = await outcomes(
			ctx.rest,
			answers.map((a) => executionOf(a.link)),
		);
		expect(resumed.map((o) => [o.status, o.branches, o.item?.data?.approved])).toEqual(
			answers.map((a) => [
				'success',
				[a.confirm ? 'Confirmed (stand-in)' : 'Cancelled (stand-in)'],
				a.confirm,
			]),
		);
		expect(await countWith(ctx.rest, 'waiting')).toBe(count - answered);
		ctx.figures.answeredMs = Date.now() - ctx.started;
	}, 420_000);

	test('the same customers again: nothing sent, each execution ends "asked before", the waits stay', async () => {
		const before = (await ctx.requests()).length;
		const again = Date.now();
		// Execution ids only grow: this run's executions are the ones above the first run's.
		const firstRun = Math.max(...list.map(linkOf).map(executionOf).map(Number));
		expect((await startParent()).status).toBe(200);
		const done = await poll(
			() => countWith(ctx.rest, 'success'),
			(n) => n >= answered + count,
			240_000,
		);
		expect(done).toBe(answered + count);
		expect((await ctx.requests()).slice(before)).toEqual([]);
		expect(await countWith(ctx.rest, 'waiting')).toBe(count - answered);
		ctx.figures.againMs = Date.now() - again;
		ctx.figures.againDoneMs = Date.now() - ctx.started;
		// Each of this run's executions (n8n lists 100 at most), none of the first run's.
		const ids = (await successIds(ctx.rest)).filter((id) => Number(id) > firstRun);
		expect(ids).toHaveLength(Math.min(count, 100));
		const asked = await outcomes(ctx.rest, ids);
		expect(asked.filter((o) => o.branches.join() !== 'Asked before (stand-in)')).toEqual([]);
		for (const { item } of asked)
			expect(item).toMatchObject({ skipped: true, reason: 'alreadySent' });
	}, 300_000);

	test(
		'the others end at the wait limit with their input passed on',
		async () => {
			// n8n's wait tracker ends the other waits at their limit.
			const others = list.slice(answered);
			// A wait that ended runs its branch for a moment: none may be waiting or running.
			const left = await poll(
				async () => [await countWith(ctx.rest, 'waiting'), await countWith(ctx.rest, 'running')],
				([waiting, running]) => waiting === 0 && running === 0,
				waitSeconds * 1_000 + 90_000,
				2_000,
			);
			expect(left).toEqual([0, 0]);
			const ended = await outcomes(ctx.rest, others.map(linkOf).map(executionOf));
			expect(ended.map((o) => [o.status, o.branches, o.item])).toEqual(
				others.map((customer) => ['success', ['No answer (stand-in)'], customer]),
			);
			expect(sendsOf(await ctx.requests()).accepted.size).toBe(count);
		},
		waitSeconds * 1_000 + 120_000,
	);
}

/** The ids of the sub-workflow's succeeded executions, the newest 100 at most. */
async function successIds(rest) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: SUB_ID, status: ['success'] }));
	const data = restData(
		await rest.request('GET', `/rest/executions?filter=${filter}&limit=100`),
		'GET /rest/executions',
	);
	return data.results.map((execution) => execution.id);
}

module.exports = {
	PARENT_ID,
	SUB_ID,
	SEND_PATH,
	askManySizes,
	askManyExamples,
	importWorkflows,
	publishExamples,
	customers,
	sendsOf,
	executionOf,
	countWith,
	poll,
	previewAll,
	answerAll,
	outcomes,
	askManyTests,
};
