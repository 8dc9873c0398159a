'use strict';
/*
 * npm run bench:freeze: does a broadcast leave n8n able to answer? One real n8n 2.41.1
 * (N8N_PIN=1.x: 1.123.81), or with --queue a main and two workers (Redis, Postgres), and the fake
 * service in a process of its own (`npm run bench:n8n`'s). Each row is one webhook call with
 * `--recipients` recipients, Split Out, then this node (Stop Workflow, or its error output
 * connected), HTTP Request 4.2 with Batching, or Edit Fields (Set) / No Operation followed by a
 * marker request; rows alternate their order from run to run. While a row runs, n8n's /healthz
 * (each worker's health endpoint too) and a customer's answer-link page are asked again and again
 * (freezeRows.js). `npm run bench:freeze -- --help` for the options.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../lib/n8n');
const { BROWSER_AGENT } = require('../../test/helpers/userAgents');
const { sealedLink } = require('../../test/helpers/sealedLink');
const bench = require('./n8n');
const { freezeRowsFor } = require('./freezeRows');
const { freezeReport } = require('./report');
const { postJson, sleep } = require('./measure');
const { eventsFrom } = require('./rows');
const { answerLinkWorkflow, freezeWorkflows } = require('./workflows');

const HELP = `npm run bench:freeze -- [options]
  --recipients N     recipients of each broadcast (default 20000; --queue 5000)
  --runs N           runs of every row, alternating the order (default 3)
  --rows a,b         rows to run (default all): node-stop, node-errout, http, set, noop
  --latency MS       the service's latency (default 10)
  --limit N          the service's in-flight limit, 429 + Retry-After: 1 above it (default 50)
  --http-interval MS HTTP Request's Batching: --limit requests every MS ms (default 2 × latency)
  --warmup N         recipients of one broadcast per row before the timed runs (default 50)
  --queue            queue mode: Redis, Postgres, a main and two workers
  --baseline DIR     also the node rows of the build in DIR (a checkout after \`npm run build\`),
                     in a second n8n beside the first, each right after this build's same row
  --why              what held each n8n process's event loop in its longest stalls (50 ms or
                     more) while a row ran: the garbage collector, this package, n8n or Node.js
  --cpu-prof DIR     each n8n process's CPU profile, written to DIR when it stops
  --json FILE        every run's figures as JSON
N8N_PIN=1.x runs it on n8n 1.123.81.`;

function parseArgs(argv) {
	const config = { runs: 3, latencyMs: 10, limit: 50, retryAfter: '1', warmup: 50 };
	const number = (flag, value) => {
		const n = Number(value);
		if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} takes a number`);
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help') return (console.log(HELP), process.exit(0));
		if (arg === '--queue') config.queue = true;
		else if (arg === '--why') config.why = path.join(n8n.REPO_ROOT, '.tmp', 'bench-freeze-why');
		else if (arg === '--rows') config.rows = argv[++i].split(',');
		else if (arg === '--json') config.json = path.resolve(argv[++i]);
		else if (arg === '--baseline') config.baseline = path.resolve(argv[++i]);
		else if (arg === '--cpu-prof') config.cpuProf = path.resolve(argv[++i]);
		else if (arg === '--recipients') config.recipients = number(arg, argv[++i]);
		else if (arg === '--runs') config.runs = number(arg, argv[++i]);
		else if (arg === '--latency') config.latencyMs = number(arg, argv[++i]);
		else if (arg === '--limit') config.limit = number(arg, argv[++i]);
		else if (arg === '--http-interval') config.httpIntervalMs = number(arg, argv[++i]);
		else if (arg === '--warmup') config.warmup = number(arg, argv[++i]);
		else throw new Error(`unknown option ${arg}\n${HELP}`);
	}
	if (config.baseline && config.queue) throw new Error('--baseline runs in regular mode only');
	config.recipients ??= config.queue ? 5000 : 20000;
	config.httpIntervalMs ??= 2 * config.latencyMs;
	return config;
}

/** The answer link of one customer to the example's trigger, as a send with the service's key seals it. */
async function customerLink(url, fake, triggerPath) {
	const customer = { phone: '+4915100000001', appointmentId: 'bench-freeze-1' };
	const link = sealedLink(`${url}/webhook/${triggerPath}`, customer, fake.apiKey);
	const response = await fetch(link, { headers: { 'user-agent': BROWSER_AGENT } });
	const page = await response.text();
	if (response.status !== 200 || !page.includes('<form'))
		throw new Error(`the answer link's page answered ${response.status} without its buttons`);
	return link;
}

/** Credentials, the bench's workflows and examples/answer-link-answers.json, published in the n8n at `url`. */
async function publishFreeze(url, fake, config) {
	const { rest, omniCredential, headerCredential } = await bench.ownerWithCredentials(url, fake);
	const workflows = freezeWorkflows({
		omniCredential,
		headerCredential,
		baseUrl: fake.url,
		batchSize: config.limit,
		batchInterval: config.httpIntervalMs,
	});
	const answers = answerLinkWorkflow(omniCredential);
	await bench.publishAll(rest, url, { ...workflows, [answers.triggerPath]: answers.workflow });
	return { answerLink: await customerLink(url, fake, answers.triggerPath) };
}

const whyWatcherOf = (config) => (config.why ? bench.whyWatcher(config.why) : undefined);

/**
 * One n8n in regular mode: `run(ctx)` with its process, then it is stopped. With `packageRoot`,
 * it runs the build found there (`--baseline`).
 */
async function inRegularN8n(config, fake, run, packageRoot = undefined) {
	let published;
	const folder = packageRoot ? 'bench-freeze-baseline' : 'bench-freeze';
	const root = path.join(n8n.REPO_ROOT, '.tmp', folder);
	const publish = async (s, f) => {
		published = await publishFreeze(s.url, f, config);
	};
	const { server, ctx } = await bench.freshN8n(config, fake, root, publish, packageRoot);
	try {
		const healthUrl = `${server.url}/healthz`;
		const processes = [{ name: 'n8n', pid: ctx.n8nPid, healthUrl }];
		return await run({ ...ctx, ...published, processes, why: whyWatcherOf(config) });
	} finally {
		await server.stop();
	}
}

/** Queue mode: Redis, Postgres, a main receiving the webhooks and two workers running them. */
async function inQueueStack(config, fake, run) {
	const { startQueueStack } = require('../lib/queue');
	console.log('== starting the queue-mode stack (Redis, Postgres, a main, two workers)');
	const whyEnv = config.why ? bench.whyEnv(config.why) : undefined;
	const stack = await startQueueStack({ workers: 2, workerEnv: whyEnv, mainEnv: whyEnv });
	try {
		const { url } = stack.main;
		const published = await publishFreeze(url, fake, config);
		const processes = [
			{ name: 'main', pid: stack.main.pid, healthUrl: `${url}/healthz` },
			...stack.workers.map((w) => ({
				name: w.name,
				pid: w.pid,
				// The executions the worker started, { executionId, at }: which one ran a row.
				started: w.started,
				healthUrl: `http://127.0.0.1:${w.healthPort}/healthz`,
			})),
		];
		const ctx = { config, fake, webhook: (p) => `${url}/webhook/${p}` };
		return await run({ ...ctx, ...published, processes, why: whyWatcherOf(config) });
	} finally {
		await stack.stop();
	}
}

/** A small broadcast through each row's workflow first, to phones outside every timed run's. */
async function warmUp(ctx, rows, rowIds) {
	const recipients = eventsFrom(9_000_000, ctx.config.warmup);
	for (const rowId of rowIds) {
		const answer = await postJson(ctx.webhook(rows[rowId].webhookPath), { recipients });
		if (answer.status !== 200)
			throw new Error(`warming up ${rowId}: ${answer.status} ${answer.text.slice(0, 300)}`);
	}
	await sleep(1000);
}

/**
 * --baseline: the same rows of the node run by the other build's n8n (`baseCtx`), each listed
 * right after this build's, so that the two alternate as every row does.
 */
function withBaseline(rows, rowIds, baseCtx) {
	const all = {};
	const ids = [];
	for (const id of rowIds) {
		all[id] = rows[id];
		ids.push(id);
		if (!id.startsWith('node-')) continue;
		const twin = `baseline-${id}`;
		all[twin] = {
			...rows[id],
			label: `${rows[id].label}, the baseline build`,
			comparedWith: id,
			run: async (_ctx, offset) => await rows[id].run(baseCtx, offset),
		};
		ids.push(twin);
	}
	return { all, ids };
}

/** Every row in `run(rows, rowIds, ctx)`: in one n8n, or with --baseline in two side by side. */
async function inN8n(config, fake, rows, rowIds, run) {
	const start = config.queue ? inQueueStack : inRegularN8n;
	return await start(config, fake, async (ctx) => {
		if (!config.baseline) return await run(rows, rowIds, ctx);
		return await inRegularN8n(
			config,
			fake,
			async (baseCtx) => {
				const { all, ids } = withBaseline(rows, rowIds, baseCtx);
				await warmUp(
					baseCtx,
					rows,
					rowIds.filter((id) => id.startsWith('node-')),
				);
				return { rows: all, ...(await run(all, ids, ctx)) };
			},
			config.baseline,
		);
	});
}

async function main() {
	const config = parseArgs(process.argv.slice(2));
	const rows = freezeRowsFor();
	const rowIds = config.rows ?? Object.keys(rows);
	for (const id of rowIds)
		if (!rows[id]) throw new Error(`no row ${id}; rows: ${Object.keys(rows).join(', ')}`);
	if (config.why) {
		fs.rmSync(config.why, { recursive: true, force: true });
		fs.mkdirSync(config.why, { recursive: true });
	}
	const fake = await bench.startFake(config);
	try {
		const mode = config.queue ? 'queue mode, two workers' : 'regular mode';
		console.log(
			`== n8n ${n8n.installedVersion()}, ${mode}; ${config.recipients} recipients; ` +
				`load average ${bench.loadAverage()}`,
		);
		const ran = await inN8n(config, fake, rows, rowIds, async (runRows, runIds, ctx) => {
			console.log(`== n8n pids ${ctx.processes.map((p) => `${p.name} ${p.pid}`).join(', ')}`);
			await warmUp(ctx, rows, rowIds);
			return { results: await bench.runAll(ctx, runRows, runIds) };
		});
		const results = ran.results;
		console.log(`== load average at the end ${bench.loadAverage()}`);
		freezeReport(config, ran.rows ?? rows, results);
		const about = { n8n: n8n.installedVersion(), at: new Date().toISOString() };
		if (config.json)
			fs.writeFileSync(config.json, JSON.stringify({ ...about, config, results }, null, 1));
	} finally {
		fake.stop();
	}
}

bench.runMain(main);
