'use strict';
/*
 * npm run bench:n8n: this node beside what users build instead, in one real n8n 2.41.1 (default
 * SQLite, production webhooks), against the fake service in a process of its own. Rows run one
 * after another, in alternating order from run to run; ratios are taken within a run, against the
 * HTTP Request row of that run. `npm run bench:n8n -- --help` for the options.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const n8n = require('../lib/n8n');
const { askAll, askedCustomers, eventsFrom, rowsFor } = require('./rows');
const { callMany, postJson } = require('./measure');
const { report } = require('./report');
const { askParent, askSubWorkflow, benchWorkflows } = require('./workflows');
const { sandboxTemplates } = require('../../test/fake-service/seed');

const HELP = `npm run bench:n8n -- [options]
  --runs N            runs of every row, alternating the order (default 3)
  --rows a,b          rows to run (default all): crm-http, crm-node, crm-node-key, crm-dedup,
                      bcast-node-<n>, bcast-http-<first n>
  --events N          CRM webhook calls per row (default 100)
  --at-once N         CRM calls in flight (default 10)
  --recipients a,b    broadcast sizes (default 600,3000; "" for none)
  --asks a,b          customers asked at once through examples/ask-many-*.json (rows
                      ask-node-<n>; ask-http-<n>: its sub-workflow sending with HTTP Request
                      instead, no waiting; ask-nokey-<n>: this node without the
                      example's send-once key); default 500, "" for none
  --latency MS        the service's latency (default 100)
  --limit N           the service's in-flight limit, 429 + Retry-After above it (default 10)
  --retry-after S     the Retry-After of that 429, in seconds (default 1)
  --warmup N          calls per workflow before the timed runs (default 20)
  --jitter MS         the service admits each request after a random 0..MS ms, so requests
                      reach it in another order than they were sent (default 0)
  --cold              the first broadcast of a fresh n8n: every run of every row in an n8n
                      process of its own, no warm-up; rows default to the broadcast rows of
                      this node (bcast-node-<n>)
  --cpu-prof DIR      run n8n with --cpu-prof, profiles written to DIR when n8n stops
  --count             count per node what it asks of n8n (parameter reads, expression
                      evaluations, credential reads, store calls): scripts/bench/count.preload.js
  --json FILE         every run's figures as JSON
  --quick             --runs 1 --events 30 --recipients 600 --warmup 10`;

function parseArgs(argv) {
	const config = {
		runs: 3,
		rows: undefined,
		events: 100,
		atOnce: 10,
		recipients: [600, 3000],
		asks: [500],
		latencyMs: 100,
		limit: 10,
		retryAfter: '1',
		warmup: 20,
	};
	const take = (i) => argv[i + 1];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help') return (console.log(HELP), process.exit(0));
		if (arg === '--quick')
			Object.assign(config, { runs: 1, events: 30, recipients: [600], warmup: 10 });
		else if (arg === '--runs') config.runs = Number(take(i++));
		else if (arg === '--rows') config.rows = take(i++).split(',');
		else if (arg === '--events') config.events = Number(take(i++));
		else if (arg === '--at-once') config.atOnce = Number(take(i++));
		else if (arg === '--recipients')
			config.recipients = take(i++).split(',').filter(Boolean).map(Number);
		else if (arg === '--asks') config.asks = take(i++).split(',').filter(Boolean).map(Number);
		else if (arg === '--latency') config.latencyMs = Number(take(i++));
		else if (arg === '--limit') config.limit = Number(take(i++));
		else if (arg === '--retry-after') config.retryAfter = take(i++);
		else if (arg === '--warmup') config.warmup = Number(take(i++));
		else if (arg === '--jitter') config.jitter = Number(take(i++));
		else if (arg === '--cold') config.cold = true;
		else if (arg === '--cpu-prof') config.cpuProf = path.resolve(take(i++));
		else if (arg === '--count') config.count = true;
		else if (arg === '--json') config.json = path.resolve(take(i++));
		else throw new Error(`unknown option ${arg}\n${HELP}`);
	}
	return config;
}

/** The fake service in its own process, answering over IPC. */
async function startFake(config) {
	const child = fork(path.join(__dirname, 'fake.child.js'), [
		JSON.stringify({
			latencyMs: config.latencyMs,
			concurrencyLimit: config.limit,
			retryAfter: config.retryAfter,
			admitJitterMs: config.jitter ?? 0,
			templates: sandboxTemplates(),
		}),
	]);
	const waiting = [];
	child.on('message', (m) => {
		const i = waiting.findIndex((w) => w.type === m.type);
		if (i >= 0) waiting.splice(i, 1)[0].resolve(m);
	});
	const next = (type) => new Promise((resolve) => waiting.push({ type, resolve }));
	// A fake service that cannot start (a port, a bad option) ends the bench with its exit, not a hang.
	const listening = await Promise.race([
		next('listening'),
		new Promise((resolve, reject) =>
			child.once('exit', (code) => reject(new Error(`the fake service exited (${code})`))),
		),
	]);
	const ask = (message, answer) => {
		const pending = next(answer);
		child.send(message);
		return pending;
	};
	const stop = () => child.connected && child.send({ type: 'stop' });
	return { url: listening.url, apiKey: listening.apiKey, ask, stop, child };
}

async function createCredential(rest, body) {
	const answer = await rest.request('POST', '/rest/credentials', body);
	if (answer.status !== 200)
		throw new Error(`POST /rest/credentials answered ${answer.status}: ${answer.text}`);
	return { id: answer.json.data.id, name: answer.json.data.name };
}

/** Logs in to the n8n at `url` as its owner and makes the bench's two credentials for the fake service. */
async function ownerWithCredentials(url, fake) {
	const rest = new n8n.N8nRest(url);
	await rest.ownerSetupOrLogin();
	const omniCredential = await createCredential(rest, {
		name: 'bench omnichannel',
		type: n8n.CREDENTIAL_TYPE,
		data: { baseUrl: fake.url, apiKey: fake.apiKey, apiKeyHeader: 'X-Service-Api-Key' },
	});
	const headerCredential = await createCredential(rest, {
		name: 'bench header auth',
		type: 'httpHeaderAuth',
		data: { name: 'X-Service-Api-Key', value: fake.apiKey },
	});
	return { rest, omniCredential, headerCredential };
}

/** Publishes each workflow and waits until its production webhook (its key, the path) answers. */
async function publishAll(rest, url, workflows) {
	const { createActiveWorkflow, waitForWebhook } = require('../../test/e2e/support');
	for (const [webhookPath, workflow] of Object.entries(workflows)) {
		await createActiveWorkflow(rest, workflow);
		await waitForWebhook(`${url}/webhook/${webhookPath}`);
	}
}

/** Owner, both credentials, every workflow published with its production webhook. */
async function setUp(server, fake) {
	const { rest, omniCredential, headerCredential } = await ownerWithCredentials(server.url, fake);
	await publishAll(
		rest,
		server.url,
		benchWorkflows({ omniCredential, headerCredential, baseUrl: fake.url }),
	);
	const { createActiveWorkflow, waitForWebhook } = require('../../test/e2e/support');
	const credentials = { omniCredential, baseUrl: fake.url };
	for (const [webhookPath, more] of [
		['ask-node', {}],
		['ask-nokey', { withoutKey: true }],
		['ask-http', { headerCredential }],
	]) {
		const sub = await createActiveWorkflow(rest, askSubWorkflow({ ...credentials, ...more }));
		await createActiveWorkflow(rest, askParent(webhookPath, sub.id));
		await waitForWebhook(`${server.url}/webhook/${webhookPath}`);
	}
}

/** A few calls per workflow, to phones outside every timed run's, so that n8n and the node are warm. */
async function warmUp(ctx) {
	const events = eventsFrom(9_000_000, ctx.config.warmup);
	for (const webhookPath of ['crm-http', 'crm-node', 'crm-node-key', 'crm-dedup']) {
		await callMany(ctx.webhook(webhookPath), events, ctx.config.atOnce);
	}
	await postJson(ctx.webhook('bcast-node'), { recipients: events });
	await postJson(ctx.webhook('bcast-http'), { recipients: events.slice(0, ctx.config.limit) });
	for (const webhookPath of ['ask-node', 'ask-nokey', 'ask-http'])
		await askAll(ctx, webhookPath, askedCustomers(events));
}

/** NODE_OPTIONS for --cpu-prof and --count. */
function n8nExtraEnv(config, root) {
	const options = [];
	const extra = {};
	if (config.cpuProf) options.push('--cpu-prof', `--cpu-prof-dir=${config.cpuProf}`);
	if (config.count) {
		extra.BENCH_COUNT_DIR = path.join(root, 'counts');
		fs.mkdirSync(extra.BENCH_COUNT_DIR, { recursive: true });
		options.push(`--require=${path.join(__dirname, 'count.preload.js')}`);
	}
	if (config.why) Object.assign(extra, whyEnv(config.why));
	if (options.length > 0 || config.why)
		extra.NODE_OPTIONS = [...options, extra.NODE_OPTIONS].filter(Boolean).join(' ');
	return extra;
}

/** What loads stalls.preload.js into an n8n process (bench:freeze's --why), writing to `dir`. */
function whyEnv(dir) {
	return {
		BENCH_STALLS_DIR: dir,
		NODE_OPTIONS: `--require=${path.join(__dirname, 'stalls.preload.js')}`,
	};
}

/**
 * --why: `start(row, pids)` before a row, once each process watches, and `stop(row, pids)` after
 * it (stalls.preload.js): per n8n process, the longest stretches its event loop did not turn, and
 * what ran in them.
 */
function whyWatcher(dir) {
	const control = (row, state) =>
		fs.writeFileSync(path.join(dir, 'control.json'), JSON.stringify({ row, state }));
	const filesOf = async (row, pids, suffix) => {
		const files = pids.map((pid) => path.join(dir, `${row}.${pid}.${suffix}`));
		for (let wait = 0; wait < 300 && !files.every((f) => fs.existsSync(f)); wait++)
			await new Promise((resolve) => setTimeout(resolve, 100));
		const missing = files.filter((f) => !fs.existsSync(f));
		if (missing.length > 0) throw new Error(`--why: no ${missing.join(', ')} after 30 s`);
		return files;
	};
	return {
		start: async (row, pids) => {
			control(row, 'start');
			await filesOf(row, pids, 'started');
		},
		stop: async (row, pids) => {
			control(row, 'stop');
			const files = await filesOf(row, pids, 'json');
			return Object.fromEntries(
				pids.map((pid, i) => [pid, JSON.parse(fs.readFileSync(files[i], 'utf8'))]),
			);
		},
	};
}

/** The counts of every n8n process (count.preload.js), summed per node and what. */
async function readCounts(config) {
	if (!config.count) return undefined;
	await new Promise((resolve) => setTimeout(resolve, 400)); // the processes write every 250 ms
	const dir = path.join(n8n.REPO_ROOT, '.tmp', 'bench-n8n', 'counts');
	const total = {};
	for (const file of fs.readdirSync(dir)) {
		for (const [node, whats] of Object.entries(
			JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')),
		)) {
			total[node] ??= {};
			for (const [what, n] of Object.entries(whats))
				total[node][what] = (total[node][what] ?? 0) + n;
		}
	}
	return total;
}

/** What each node asked of n8n during a row, per message of the row. */
function countsPerMessage(before, after, messages) {
	if (!before || !after) return undefined;
	const per = {};
	for (const [node, whats] of Object.entries(after)) {
		for (const [what, n] of Object.entries(whats)) {
			const delta = n - (before[node]?.[what] ?? 0);
			if (delta > 0) (per[node] ??= {})[what] = Math.round((delta / messages) * 100) / 100;
		}
	}
	return per;
}

async function runAll(ctx, rows, rowIds) {
	const results = [];
	for (let run = 0; run < ctx.config.runs; run++) {
		const order = run % 2 === 0 ? rowIds : [...rowIds].reverse();
		for (const [position, rowId] of order.entries()) {
			const offset = (run * 20 + position) * 10_000;
			const before = await readCounts(ctx.config);
			const figures = await rows[rowId].run(ctx, offset);
			figures.asksPerMessage = countsPerMessage(
				before,
				await readCounts(ctx.config),
				figures.messages,
			);
			results.push({ run, rowId, ...figures });
			console.log(
				`run ${run + 1} ${rowId}: ` +
					`${JSON.stringify(figures, (k, v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v))}`,
			);
		}
	}
	return results;
}

/**
 * A fresh n8n with the package installed (this checkout's build, or the one at `packageRoot`) and
 * `publish(server, fake)` done (by default every workflow of this bench published); `stop` ends it.
 */
async function freshN8n(config, fake, root, publish = setUp, packageRoot = undefined) {
	const { node, entry } = await n8n.ensureN8n();
	fs.rmSync(root, { recursive: true, force: true });
	const userFolder = path.join(root, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	n8n.installPackageInto(userFolder, packageRoot);
	const extra = n8nExtraEnv(config, root);
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'warn',
		extra,
	});
	const server = await n8n.startN8nServer({ env, node, entry, timeoutMs: 180_000 });
	try {
		await publish(server, fake);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return {
		server,
		ctx: { config, fake, n8nPid: server.child.pid, webhook: (p) => `${server.url}/webhook/${p}` },
	};
}

/** --cold: every run of every row is the first broadcast of an n8n process of its own. */
async function runCold(config, fake, root, rows, rowIds) {
	const results = [];
	for (let run = 0; run < config.runs; run++) {
		const order = run % 2 === 0 ? rowIds : [...rowIds].reverse();
		for (const rowId of order) {
			const { server, ctx } = await freshN8n(config, fake, root);
			try {
				const figures = await rows[rowId].run(ctx, run * 10_000);
				results.push({ run, rowId, ...figures });
				console.log(
					`run ${run + 1} ${rowId} (fresh n8n): ` +
						`${JSON.stringify(figures, (k, v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v))}`,
				);
			} finally {
				await server.stop();
			}
		}
	}
	return results;
}

const loadAverage = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ');

async function main() {
	const config = parseArgs(process.argv.slice(2));
	const rows = rowsFor(config);
	const rowIds =
		config.rows ?? Object.keys(rows).filter((id) => !config.cold || id.startsWith('bcast-node-'));
	for (const id of rowIds)
		if (!rows[id]) throw new Error(`no row ${id}; rows: ${Object.keys(rows).join(', ')}`);
	const root = path.join(n8n.REPO_ROOT, '.tmp', 'bench-n8n');
	const fake = await startFake(config);
	try {
		console.log(
			`== n8n ${n8n.installedVersion()}; load average ${loadAverage()}` +
				`${config.cold ? '; cold: a fresh n8n per run and row' : ''}`,
		);
		const results = config.cold
			? await runCold(config, fake, root, rows, rowIds)
			: await runWarm(config, fake, root, rows, rowIds);
		console.log(`== load average at the end ${loadAverage()}`);
		report(config, rows, results);
		if (config.json) fs.writeFileSync(config.json, JSON.stringify({ config, results }, null, 1));
	} finally {
		fake.stop();
	}
}

/** Every row in one n8n, warmed up first. */
async function runWarm(config, fake, root, rows, rowIds) {
	const { server, ctx } = await freshN8n(config, fake, root);
	try {
		console.log(`== n8n pid ${ctx.n8nPid}; warming up`);
		await warmUp(ctx);
		return await runAll(ctx, rows, rowIds);
	} finally {
		await server.stop();
	}
}

/** Ends the bench with its error: the caller's `finally` blocks have stopped what it started. */
function runMain(main) {
	main().catch((error) => {
		console.error(error);
		process.exitCode = 1;
	});
}

// scripts/bench/freeze.js runs its own rows in this bench's n8n and fake service.
if (require.main === module) runMain(main);

module.exports = {
	freshN8n,
	whyEnv,
	whyWatcher,
	loadAverage,
	ownerWithCredentials,
	publishAll,
	runAll,
	runMain,
	startFake,
};
