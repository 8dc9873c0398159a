/*
 * npm run bench: a broadcast of WhatsApp template messages through n8n-core's engine, against the
 * fake service running in a child process with a fixed latency and concurrency limit.
 *
 *   rows  A10  custom pipeline (the node as built), options.concurrency = the service's limit
 *         A5   custom pipeline, default concurrency (5)
 *         B    declarative routing (today's engine): same description, no customOperations
 *         Bc   B with continue-on-fail, so the engine reports the failed items itself
 *         R    reference, no n8n: a plain node:http client sending the same requests with
 *              concurrency = the service's limit and `Connection: close` (what n8n sends);
 *              shows what this machine and the fake allow. Rk: the same with keep-alive.
 *
 * Every (row, run) gets a fresh engine process (so its peak RSS is its own): it loads the package,
 * warms up on a few items, then the service's records are cleared and the timed execution runs.
 *
 * Flags: see USAGE below (node .tmp/bench/broadcast.bench.js --help).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { mapperValue } from '../helpers/mapperValue';
import type { ServiceStats } from './fake-service.child';

// ---------------------------------------------------------------------------------------------
// Configuration

const USAGE = `node .tmp/bench/broadcast.bench.js [flags]   (npm run bench -- [flags])

Flags (env in brackets):
  --items N         items per execution, default 2000            [BENCH_ITEMS]
  --latency MS      service latency per request, default 20     [BENCH_LATENCY_MS]
  --limit N         service concurrency limit, default 10       [BENCH_LIMIT]
  --retry-after S   Retry-After of the service's 429, default 1 [BENCH_RETRY_AFTER]
  --runs N          runs of every row, default 3                [BENCH_RUNS]
  --rows LIST       comma list of A<n> (custom pipeline, concurrency n), B, Bc, R, Rk;
                    default A<limit>,A5,B,Bc,R                               [BENCH_ROWS]
                    A<n>+WHAT_IF[+WHAT_IF...] runs a custom row with a diagnostic patch in the
                    engine process (targets ignore such rows):
                      fn-auth       credential authenticate as a function (no per-request expressions)
                      no-node-copy  getNode() without deep copy
                      keep-alive    one shared keep-alive agent (n8n opens a connection per request)
                      literal-vars  template variables as literal text (no per-item expressions)
                    e.g. --rows A10,A10+fn-auth,A10+fn-auth+no-node-copy+keep-alive,R,Rk
  --warmup N        warm-up items before the timed run, default 20 (0: none)
  --counted         run the custom rows through the bench's own runner (test/bench/declarative.ts),
                    which counts credential reads (getDecrypted), instead of test/helpers/engine.ts
                    runNode (the declarative rows always use it)
  --credential-read-ms N   with the bench's runner, make every credential read take N ms, as
                    n8n's database read + decrypt does (the harness's read is free); implies --counted
  --cpu-prof        write a V8 CPU profile of each timed execution to .tmp/bench-prof/<row>-run<n>.cpuprofile
                    (summarise it with: node .tmp/bench/profile-summary.js <file>). The profiler
                    slows the run by ~25%; wall times of profiled runs are not comparable.
  --json FILE       also write every measurement as JSON
`;

interface BenchConfig {
	items: number;
	latencyMs: number;
	limit: number;
	retryAfter: string;
	runs: number;
	rows: string[];
	warmup: number;
	counted: boolean;
	credentialReadMs: number;
	cpuProf: boolean;
	json?: string;
}

function parseArgs(argv: string[]): BenchConfig {
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(USAGE);
		process.exit(0);
	}
	const known = ['items', 'latency', 'limit', 'retry-after', 'runs', 'rows', 'warmup', 'credential-read-ms', 'json'];
	const flags = new Map<string, string>();
	const bools = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
		const [name, inline] = arg.slice(2).split('=', 2);
		if (['counted', 'cpu-prof'].includes(name)) bools.add(name);
		else if (known.includes(name)) flags.set(name, inline ?? argv[++i]);
		else throw new Error(`unknown flag --${name}; see --help`);
	}
	const num = (name: string, env: string, fallback: number) => {
		const raw = flags.get(name) ?? process.env[env];
		if (raw === undefined) return fallback;
		const value = Number(raw);
		if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number, got ${raw}`);
		return value;
	};
	const limit = num('limit', 'BENCH_LIMIT', 10);
	const credentialReadMs = num('credential-read-ms', 'BENCH_CREDENTIAL_READ_MS', 0);
	return {
		items: num('items', 'BENCH_ITEMS', 2000),
		latencyMs: num('latency', 'BENCH_LATENCY_MS', 20),
		limit,
		retryAfter: flags.get('retry-after') ?? process.env.BENCH_RETRY_AFTER ?? '1',
		runs: num('runs', 'BENCH_RUNS', 3),
		rows: (flags.get('rows') ?? process.env.BENCH_ROWS ?? `A${limit},A5,B,Bc,R`).split(',').map((r) => r.trim()).filter(Boolean),
		warmup: num('warmup', 'BENCH_WARMUP', 20),
		counted: bools.has('counted') || credentialReadMs > 0,
		credentialReadMs,
		cpuProf: bools.has('cpu-prof'),
		json: flags.get('json'),
	};
}

interface RowSpec {
	id: string;
	label: string;
	variant: 'custom' | 'declarative' | 'raw';
	concurrency?: number;
	continueOnFail: boolean;
	keepAlive?: boolean;
	/** Diagnostic changes applied inside the engine process (see WHAT_IFS); not the node as built. */
	whatIfs: WhatIf[];
}

/**
 * Diagnostics: run a row with one of the per-request or per-item costs removed, to measure what
 * it costs. They patch the engine process only (never the package's files).
 */
const WHAT_IFS = {
	'fn-auth': 'credential authenticate as a function: no expression evaluation per request',
	'no-node-copy': "getNode() without n8n's deep copy (the node calls it on every response)",
	'keep-alive': 'one shared keep-alive http.Agent instead of a new agent + TCP connection per request (n8n change)',
	'literal-vars': 'template variables as literal text: no per-item expressions for them (phone stays an expression)',
} as const;
type WhatIf = keyof typeof WHAT_IFS;

function rowSpec(id: string, limit: number): RowSpec {
	const [base, ...whatIfs] = id.split('+');
	for (const w of whatIfs) {
		if (!(w in WHAT_IFS)) throw new Error(`unknown what-if ${w} in row ${id}: use ${Object.keys(WHAT_IFS).join(', ')}`);
	}
	const custom = /^A(\d+)$/.exec(base);
	if (custom) {
		const concurrency = Number(custom[1]);
		return {
			id,
			label: `custom pipeline, concurrency ${concurrency}${whatIfs.length ? ` — what if: ${whatIfs.map((w) => WHAT_IFS[w as WhatIf]).join('; ')}` : ''}`,
			variant: 'custom',
			concurrency,
			continueOnFail: false,
			whatIfs: whatIfs as WhatIf[],
		};
	}
	if (whatIfs.length) throw new Error(`what-ifs (${id}) apply to custom pipeline rows (A<n>) only`);
	return fixedRowSpec(id, limit);
}

function fixedRowSpec(id: string, limit: number): RowSpec {
	if (id === 'B') return { id, label: "declarative routing (today's engine)", variant: 'declarative', continueOnFail: false, whatIfs: [] };
	if (id === 'Bc') return { id, label: 'declarative routing, continue on fail', variant: 'declarative', continueOnFail: true, whatIfs: [] };
	if (id === 'R' || id === 'Rk') {
		const keepAlive = id === 'Rk';
		return {
			id,
			label: `reference: plain node:http client, no n8n, concurrency ${limit}, ${keepAlive ? 'keep-alive' : 'Connection: close'}`,
			variant: 'raw',
			concurrency: limit,
			continueOnFail: true,
			keepAlive,
			whatIfs: [],
		};
	}
	throw new Error(`unknown row ${id}: use A<concurrency>[+what-if...], B, Bc, R or Rk`);
}

// ---------------------------------------------------------------------------------------------
// The load: one template message per item, each to its own phone number

const CHANNEL_ID = 12;
const TEMPLATE_ID = 101;

function phoneFor(index: number, prefix = '+49151'): string {
	return `${prefix}${String(index).padStart(7, '0')}`; // +49151000NNNN, unique per item
}

function itemsFor(count: number, prefix?: string) {
	return Array.from({ length: count }, (_, i) => ({
		phone: phoneFor(i, prefix),
		name: `Customer ${i}`,
		order: `ORD-${100000 + i}`,
		date: `2025-06-${String((i % 28) + 1).padStart(2, '0')}`,
	}));
}

function parametersFor(row: RowSpec) {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: CHANNEL_ID,
		templateId: { __rl: true, mode: 'id', value: String(TEMPLATE_ID) },
		customerPhone: '={{ $json.phone }}',
		variablesMode: 'mapper',
		variables: mapperValue(
			row.whatIfs.includes('literal-vars')
				? { '1': 'Anna', '2': 'ORD-100000', '3': '2025-06-01' }
				: { '1': '={{ $json.name }}', '2': '={{ $json.order }}', '3': '={{ $json.date }}' },
		),
		options: row.concurrency !== undefined ? { concurrency: row.concurrency } : {},
	};
}

// ---------------------------------------------------------------------------------------------
// Engine process: one (row, run)

interface EngineResult {
	wallMs: number;
	startedAt: number;
	endedAt: number;
	cpuUserMs: number;
	cpuSystemMs: number;
	maxRssMb: number;
	rssBeforeMb: number;
	heapUsedPeakMb: number;
	loopDelayP99Ms: number;
	loopDelayMaxMs: number;
	outputItems: number;
	errorItems: number;
	nodeError?: string;
	decryptCalls?: number;
}

interface EngineJob {
	row: RowSpec;
	items: number;
	warmup: number;
	counted: boolean;
	credentialReadMs: number;
	/** Where to write a CPU profile of the timed execution only (not loading, not warm-up). */
	cpuProfile?: string;
	url: string;
	apiKey: string;
}

/**
 * The reference row: the same requests as the node sends (one template GET, then one POST per
 * item, `concurrency` in flight), from a bare node:http client, so nothing of n8n is measured.
 */
async function rawClient(job: EngineJob, items: ReturnType<typeof itemsFor>) {
	const http = await import('node:http');
	const url = new URL(job.url);
	const agent = new http.Agent({ keepAlive: job.row.keepAlive === true });
	const request = (method: string, requestPath: string, body?: unknown) =>
		new Promise<{ status: number; body: unknown }>((resolve, reject) => {
			const payload = body === undefined ? undefined : JSON.stringify(body);
			const req = http.request(
				{
					host: url.hostname,
					port: url.port,
					method,
					path: requestPath,
					agent,
					headers: {
						Accept: 'application/json',
						'X-Service-Api-Key': job.apiKey,
						...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
					},
				},
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
				},
			);
			req.on('error', reject);
			req.end(payload);
		});
	await request('GET', `/stable/open/whatsapp/get-template-detail?platform_id=${CHANNEL_ID}&template_id=${TEMPLATE_ID}`);
	const output: Array<{ json: IDataObjectLike; error?: unknown }> = new Array(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const i = next++;
			const item = items[i];
			const answer = await request('POST', '/stable/open/whatsapp/send-template-message', {
				template_id: String(TEMPLATE_ID),
				channel_id: String(CHANNEL_ID),
				customer_phone: item.phone,
				attributes: { '1': item.name, '2': item.order, '3': item.date },
			});
			output[i] = answer.status === 200 ? { json: answer.body as IDataObjectLike } : { json: { error: answer.status }, error: answer.status };
		}
	};
	await Promise.all(Array.from({ length: job.row.concurrency ?? 1 }, worker));
	agent.destroy();
	return { output, error: undefined as { message: string } | undefined };
}

type IDataObjectLike = Record<string, unknown>;

/** Patches n8n's modules in this engine process for the row's what-ifs (see WHAT_IFS). */
async function applyWhatIfs(whatIfs: WhatIf[]) {
	if (whatIfs.length === 0) return;
	const { loadPackage, CREDENTIAL_TYPE } = await import('../helpers/engine');
	const coreDist = path.dirname(require.resolve('n8n-core'));
	// Deep files by absolute path: @n8n/backend-network's "exports" would refuse the subpath.
	const networkDist = path.dirname(require.resolve('@n8n/backend-network', { paths: [coreDist] }));
	for (const whatIf of whatIfs) {
		if (whatIf === 'fn-auth') {
			const type = (await loadPackage()).getCredential(CREDENTIAL_TYPE).type;
			type.authenticate = async (credentials, requestOptions) => {
				const header = String(credentials.apiKeyHeader || 'X-Service-Api-Key');
				requestOptions.headers = { ...requestOptions.headers, [header]: credentials.apiKey as string };
				return requestOptions;
			};
		} else if (whatIf === 'no-node-copy') {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const context = require(path.join(coreDist, 'execution-engine/node-execution-context/node-execution-context.js'));
			context.NodeExecutionContext.prototype.getNode = function (this: { node: unknown }) {
				return this.node;
			};
		} else if (whatIf === 'keep-alive') {
			const http = await import('node:http');
			const agent = new http.Agent({ keepAlive: true });
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const utils = require(path.join(networkDist, 'http/axios/utils.js'));
			utils.setAxiosAgents = (config: { httpAgent?: unknown; httpsAgent?: unknown }) => {
				if (config.httpAgent || config.httpsAgent) return;
				config.httpAgent = agent;
			};
		}
	}
}

/** V8's sampling profiler through the inspector, around the timed execution only. */
async function startProfiler() {
	const inspector = await import('node:inspector/promises');
	const session = new inspector.Session();
	session.connect();
	await session.post('Profiler.setSamplingInterval', { interval: 1000 });
	await session.post('Profiler.enable');
	await session.post('Profiler.start');
	return {
		async stop() {
			const { profile } = await session.post('Profiler.stop');
			session.disconnect();
			return profile;
		},
	};
}

async function engineChild() {
	const send = (message: unknown) => process.send?.(message);
	const job = await new Promise<EngineJob>((resolve) => process.once('message', (m: { job: EngineJob }) => resolve(m.job)));
	// Imported here, not at the top: the orchestrator never loads n8n.
	const { runNode } = await import('../helpers/engine');
	const { runVariant } = await import('./declarative');
	const { row } = job;
	await applyWhatIfs(row.whatIfs);
	const credentials = { baseUrl: job.url, apiKey: job.apiKey };
	const parameters = parametersFor(row);
	const run = async (items: ReturnType<typeof itemsFor>) => {
		if (row.variant === 'raw') return await rawClient(job, items);
		if (row.variant === 'custom' && !job.counted) {
			return await runNode({ parameters, credentials, items, continueOnFail: row.continueOnFail });
		}
		return await runVariant({
			variant: row.variant,
			parameters,
			credentials,
			items,
			continueOnFail: row.continueOnFail,
			credentialReadMs: job.credentialReadMs,
		});
	};

	if (job.warmup > 0) await run(itemsFor(job.warmup, '+49152'));
	const items = itemsFor(job.items);
	global.gc?.();
	send({ type: 'ready' });
	await new Promise<void>((resolve) => process.once('message', () => resolve()));

	const profiler = job.cpuProfile ? await startProfiler() : undefined;
	const rssBefore = process.memoryUsage().rss;
	let heapUsedPeak = 0;
	const sampler = setInterval(() => {
		heapUsedPeak = Math.max(heapUsedPeak, process.memoryUsage().heapUsed);
	}, 50);
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	const cpu0 = process.cpuUsage();
	const startedAt = Date.now();
	const t0 = performance.now();
	const result = await run(items);
	const wallMs = performance.now() - t0;
	const endedAt = Date.now();
	const cpu = process.cpuUsage(cpu0);
	loop.disable();
	clearInterval(sampler);
	if (profiler && job.cpuProfile) writeFileSync(job.cpuProfile, JSON.stringify(await profiler.stop()));
	heapUsedPeak = Math.max(heapUsedPeak, process.memoryUsage().heapUsed);
	const message: EngineResult = {
		wallMs,
		startedAt,
		endedAt,
		cpuUserMs: cpu.user / 1000,
		cpuSystemMs: cpu.system / 1000,
		maxRssMb: process.resourceUsage().maxRSS / 1024,
		rssBeforeMb: rssBefore / 2 ** 20,
		heapUsedPeakMb: heapUsedPeak / 2 ** 20,
		loopDelayP99Ms: loop.percentile(99) / 1e6,
		loopDelayMaxMs: loop.max / 1e6,
		outputItems: result.output.length,
		errorItems: result.output.filter((item) => item.error !== undefined || item.json?.error !== undefined).length,
		nodeError: result.error ? `${result.error.message}`.slice(0, 200) : undefined,
		decryptCalls: 'decryptCalls' in result ? (result.decryptCalls as number) : undefined,
	};
	// Exit once the result is out: sockets or timers left by the engine must not keep it alive.
	process.send?.({ type: 'result', result: message }, () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// Orchestrator

type Reply = { type: string; [key: string]: unknown };

/** A forked child with request/answer over IPC. */
class Child {
	private readonly waiting: Array<{ type: string; resolve: (m: Reply) => void }> = [];
	private readonly exited: Promise<number | null>;

	constructor(readonly proc: ChildProcess, readonly name: string) {
		proc.on('message', (m: Reply) => {
			const index = this.waiting.findIndex((w) => w.type === m.type);
			if (index >= 0) this.waiting.splice(index, 1)[0].resolve(m);
		});
		this.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
		void this.exited.then((code) => {
			for (const w of this.waiting.splice(0)) {
				w.resolve({ type: 'exit', error: `${this.name} exited with code ${code} before answering "${w.type}"` });
			}
		});
	}

	async next(type: string, timeoutMs = 600_000): Promise<Reply> {
		let timer: NodeJS.Timeout | undefined;
		const reply = await Promise.race([
			new Promise<Reply>((resolve) => this.waiting.push({ type, resolve })),
			new Promise<Reply>((resolve) => {
				timer = setTimeout(() => resolve({ type: 'timeout', error: `${this.name}: no "${type}" within ${timeoutMs} ms` }), timeoutMs);
			}),
		]);
		clearTimeout(timer);
		if (reply.type !== type) throw new Error(String(reply.error));
		return reply;
	}

	async ask(message: Reply, answer: string): Promise<Reply> {
		const pending = this.next(answer);
		this.proc.send(message);
		return await pending;
	}

	async end(): Promise<void> {
		if (this.proc.exitCode === null && this.proc.connected) this.proc.send({ type: 'stop' });
		const timer = setTimeout(() => this.proc.kill(), 5_000);
		await this.exited;
		clearTimeout(timer);
	}
}

interface Measurement {
	run: number;
	row: RowSpec;
	engine: EngineResult;
	service: ServiceStats;
	floorMs: number;
	ratio: number;
	requestsPerItem: number;
	failedItems: number;
	prepMs?: number;
	sendMs?: number;
}

const repoRoot = (() => {
	// Compiled to .tmp/bench/; the sources are two levels up.
	let dir = __dirname;
	for (let i = 0; i < 5; i++) {
		if (path.basename(dir) === '.tmp') return path.dirname(dir);
		dir = path.dirname(dir);
	}
	return process.cwd();
})();

async function measure(config: BenchConfig, fake: Child, service: { url: string; apiKey: string }, row: RowSpec, run: number): Promise<Measurement> {
	const execArgv = ['--expose-gc'];
	let cpuProfile: string | undefined;
	if (config.cpuProf) {
		const dir = path.join(repoRoot, '.tmp', 'bench-prof');
		mkdirSync(dir, { recursive: true });
		cpuProfile = path.join(dir, `${row.id}-run${run}.cpuprofile`);
	}
	const engine = new Child(
		fork(__filename, ['--engine-child'], {
			execArgv,
			env: { ...process.env, N8N_USER_FOLDER: path.join(repoRoot, '.tmp', 'bench-n8n-home') },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		}),
		`engine ${row.id}`,
	);
	engine.proc.send({
		job: {
			row,
			items: config.items,
			warmup: config.warmup,
			counted: config.counted,
			credentialReadMs: config.credentialReadMs,
			cpuProfile,
			...service,
		} satisfies EngineJob,
	});
	await engine.next('ready');
	await fake.ask({ type: 'reset' }, 'reset-done');
	const { result } = (await engine.ask({ type: 'go' }, 'result')) as unknown as { result: EngineResult };
	await engine.end();
	const { stats } = (await fake.ask({ type: 'stats' }, 'stats')) as unknown as { stats: ServiceStats };
	const floorMs = (config.items * config.latencyMs) / config.limit;
	const firstSend = stats.firstSendAt;
	return {
		run,
		row,
		engine: result,
		service: stats,
		floorMs,
		ratio: result.wallMs / floorMs,
		requestsPerItem: (stats.sendPosts + stats.templateGets) / config.items,
		failedItems: config.items - stats.deliveredPhones,
		prepMs: firstSend !== undefined ? firstSend - result.startedAt : undefined,
		sendMs: stats.lastSendAt !== undefined && firstSend !== undefined ? result.endedAt - firstSend : undefined,
	};
}

// ---------------------------------------------------------------------------------------------
// Output

function pad(text: string, width: number, right = false) {
	return right ? text.padStart(width) : text.padEnd(width);
}

const COLUMNS: Array<[string, number, (m: Measurement) => string]> = [
	['row', 4, (m) => m.row.id], // widened to the longest row id in orchestrate()
	['run', 3, (m) => String(m.run)],
	['wall ms', 8, (m) => m.engine.wallMs.toFixed(0)],
	['floor ms', 8, (m) => m.floorMs.toFixed(0)],
	['ratio', 6, (m) => m.ratio.toFixed(3)],
	['req/item', 8, (m) => m.requestsPerItem.toFixed(4)],
	['429s', 5, (m) => String(m.service.tooMany)],
	['failed', 6, (m) => String(m.failedItems)],
	['dup', 4, (m) => String(m.service.duplicateSends)],
	['RSS MB', 7, (m) => m.engine.maxRssMb.toFixed(0)],
	['prep ms', 7, (m) => (m.prepMs === undefined ? '-' : m.prepMs.toFixed(0))],
	['send ms', 7, (m) => (m.sendMs === undefined ? '-' : m.sendMs.toFixed(0))],
	['cpu ms', 7, (m) => (m.engine.cpuUserMs + m.engine.cpuSystemMs).toFixed(0)],
	['conns', 6, (m) => String(m.service.connections)],
	['node result', 0, (m) =>
		m.engine.nodeError
			? `error: ${m.engine.nodeError.slice(0, 60)}`
			: `${m.engine.outputItems} items${m.engine.errorItems ? `, ${m.engine.errorItems} error items` : ''}`],
];

function header() {
	return COLUMNS.map(([name, width], i) => pad(name, width, i > 1 && width > 0)).join('  ');
}

function line(m: Measurement) {
	return COLUMNS.map(([, width, value], i) => pad(value(m), width, i > 1 && width > 0)).join('  ');
}

function median(values: number[]) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function targets(config: BenchConfig, all: Measurement[]) {
	const lines: string[] = [];
	const custom = all.filter((m) => m.row.variant === 'custom' && m.row.whatIfs.length === 0);
	const atLimit = custom.filter((m) => m.row.concurrency === config.limit);
	const declarative = all.filter((m) => m.row.variant === 'declarative');
	const reference = all.filter((m) => m.row.variant === 'raw' && !m.row.keepAlive);
	const verdict = (ok: boolean) => (ok ? 'MET    ' : 'NOT MET');
	if (custom.length) {
		const clean = custom.every((m) => m.failedItems === 0 && m.service.duplicateSends === 0);
		const declFails = declarative.length === 0 ? undefined : declarative.every((m) => m.failedItems > 0);
		const worst = custom.reduce((w, m) => Math.max(w, m.failedItems + m.service.duplicateSends), 0);
		lines.push(
			`${verdict(clean && declFails !== false)}  custom pipeline: 0 failed items and 0 duplicates in every run` +
				` (worst failed+dup: ${worst})` +
				(declFails === undefined
					? '; no declarative row to compare'
					: `; declarative failed items per run: ${declarative.map((m) => `${m.row.id}=${m.failedItems}`).join(' ')}`),
		);
	}
	if (atLimit.length) {
		const ratios = atLimit.map((m) => m.ratio);
		lines.push(
			`${verdict(ratios.every((r) => r <= 1.25))}  wall / floor <= 1.25 with concurrency = service limit (${config.limit}):` +
				` ${ratios.map((r) => r.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})` +
				(reference.length
					? `; reference client without n8n on this machine: median ${median(reference.map((m) => m.ratio)).toFixed(3)}`
					: ''),
		);
	} else if (custom.length) {
		lines.push(`(no custom row with concurrency = the service's limit ${config.limit}: ratio target not checked)`);
	}
	if (custom.length) {
		const rpi = custom.map((m) => m.requestsPerItem);
		lines.push(
			`${verdict(rpi.every((r) => r <= 1.001))}  requests per item <= 1.001 (custom rows): max ${Math.max(...rpi).toFixed(4)}` +
				(config.items < 1000 ? ` (with ${config.items} items the one template GET alone adds ${(1 / config.items).toFixed(4)})` : ''),
		);
	}
	return lines;
}

async function orchestrate(config: BenchConfig) {
	const rows = config.rows.map((id) => rowSpec(id, config.limit));
	COLUMNS[0][1] = Math.max(4, ...rows.map((r) => r.id.length));
	const fake = new Child(
		fork(path.join(__dirname, 'fake-service.child.js'), [
			JSON.stringify({ latencyMs: config.latencyMs, concurrencyLimit: config.limit, retryAfter: config.retryAfter }),
		], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
		'fake service',
	);
	const service = (await fake.next('listening', 30_000)) as unknown as { url: string; apiKey: string };
	console.log(
		`broadcast bench: ${config.items} WhatsApp template messages (channel ${CHANNEL_ID}, template ${TEMPLATE_ID}), ` +
			`service latency ${config.latencyMs} ms, limit ${config.limit} in flight (429 Retry-After: ${config.retryAfter} above), ` +
			`${config.runs} run(s), warm-up ${config.warmup} items, node ${process.version}` +
			(config.counted ? `, bench runner for all rows (credential read ${config.credentialReadMs} ms)` : ''),
	);
	console.log(`fake service: ${service.url} (own process); each row runs in a fresh engine process`);
	console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at start\n`);
	for (const row of rows) console.log(`  ${pad(row.id, COLUMNS[0][1])}  ${row.label}`);
	console.log('');
	console.log(header());
	const all: Measurement[] = [];
	try {
		for (let run = 1; run <= config.runs; run++) {
			for (const row of rows) {
				const m = await measure(config, fake, service, row, run);
				all.push(m);
				console.log(line(m));
			}
		}
	} finally {
		await fake.end();
	}
	console.log('');
	console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes on the machine inflate wall times)`);
	console.log('');
	console.log('median per row:');
	for (const row of rows) {
		const ms = all.filter((m) => m.row.id === row.id);
		console.log(
			`  ${pad(row.id, COLUMNS[0][1])}  wall ${median(ms.map((m) => m.engine.wallMs)).toFixed(0)} ms, ratio ${median(ms.map((m) => m.ratio)).toFixed(3)}, ` +
				`req/item ${median(ms.map((m) => m.requestsPerItem)).toFixed(4)}, 429s ${median(ms.map((m) => m.service.tooMany))}, ` +
				`failed ${median(ms.map((m) => m.failedItems))}, dup ${median(ms.map((m) => m.service.duplicateSends))}, ` +
				`peak RSS ${median(ms.map((m) => m.engine.maxRssMb)).toFixed(0)} MB, ` +
				`service peak in flight ${Math.max(...ms.map((m) => m.service.peakInFlight))}, ` +
				`Connection header: ${Object.entries(ms[0].service.connectionHeaders).map(([k, v]) => `${k}×${v}`).join(' ')}` +
				(ms[0].engine.decryptCalls !== undefined ? `, credential reads ${ms[0].engine.decryptCalls}` : ''),
		);
	}
	console.log('');
	console.log('targets:');
	for (const l of targets(config, all)) console.log(`  ${l}`);
	console.log('');
	console.log(
		'columns: floor = items × latency ÷ service limit; req/item = (send POSTs + template GETs) ÷ items; failed = items the ' +
			'service never accepted; dup = accepted sends beyond the first for a phone; RSS = peak RSS (maxRSS) of the engine process; ' +
			'prep = execution start to the first send at the service (checks, template GET); send = first send to end of execution; ' +
			'conns = TCP connections the service accepted.',
	);
	if (config.json) {
		writeFileSync(config.json, JSON.stringify({ config, measurements: all }, null, 2));
		console.log(`measurements written to ${config.json}`);
	}
}

if (process.argv.includes('--engine-child')) {
	engineChild().catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	orchestrate(parseArgs(process.argv.slice(2))).catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
