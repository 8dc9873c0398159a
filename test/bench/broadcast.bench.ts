/*
 * npm run bench: a broadcast of WhatsApp template messages through n8n-core's engine, against the
 * fake service running in a child process with a fixed latency and concurrency limit.
 *
 *   rows  A10  custom pipeline (the node as built), options.concurrency = the service's limit
 *         A5   custom pipeline, concurrency 5
 *         D    custom pipeline, the node's default options (no concurrency set)
 *         3xA10, 2xD@50rps ...  several executions at once in one engine process (so they share
 *              whatever the node keeps per process), and/or a requests-per-second limit at the
 *              service instead of the in-flight one; see USAGE for the grammar
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
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { requestJson } from '../fake-service/client';
import { Child, forkEngine, loadAverage, repoRoot, startFake, timedRun } from './child';
import type { RunShape, ServiceAddress } from './child';
import { orchestrateEvents } from './events';
import {
	CHANNEL_ID,
	EXPRESSION_VARIABLES,
	SEND_ONCE_KEY,
	TEMPLATE_ID,
	itemsFor,
	templateSendParameters,
} from './load';
import type { ServiceStats } from './fake-service.child';

// ---------------------------------------------------------------------------------------------
// Configuration

/**
 * Issue 11's situations: several executions (or one with a high concurrency) against one shared
 * limit, at an internet round trip (at 20 ms the run is CPU-bound in n8n's request stack).
 */
const PRESETS = {
	pacing: {
		flags: { latency: '100', limit: '10', items: '600', runs: '1', 'retry-after': '1' },
		continueOnFail: true,
		rows: 'A50,3xA10,3xD,D,2xD@50rps',
	},
	/**
	 * Issue 29: what a new user meets, the first broadcast of a fresh process with default options,
	 * no warm-up, requests reaching the service out of order (0-30 ms each).
	 */
	cold: {
		flags: {
			latency: '100',
			limit: '10',
			items: '600',
			runs: '3',
			'retry-after': '1',
			warmup: '0',
			jitter: '30',
		},
		continueOnFail: false,
		rows: 'D',
	},
	/** Issue 19: the CRM shape, many single-message executions (test/bench/events.ts). */
	events: {
		flags: { latency: '100', runs: '1', events: '200', 'at-once': '10', warmup: '20' },
		continueOnFail: false,
		rows: 'no-key,key-empty,key-full,key-10x',
	},
} as const;
type PresetName = keyof typeof PRESETS;

const USAGE = `node .tmp/bench/broadcast.bench.js [flags]   (npm run bench -- [flags])

Flags (env in brackets):
  --preset pacing   the table of issue 11 (several executions sharing one rate limit), with its
                    targets checked; sets --latency 100 --limit 10 --items 600 --runs 1
                    --continue-on-fail --rows ${PRESETS.pacing.rows} (flags given
                    beside it win). Exits 1 when a target is not met.
  --preset cold     issue 29's first broadcast: row D (default options) in a fresh engine process,
                    no warm-up, the service admitting each request after 0-30 ms; sets --latency 100
                    --limit 10 --items 600 --runs 3 --warmup 0 --jitter 30. With --events-before 60:
                    the first broadcast after 60 single-message executions.
  --preset events   issue 19's CRM shape (test/bench/events.ts): --events single-message executions,
                    --at-once at a time in one engine process, default options; rows
                    ${PRESETS.events.rows}: no send-once key, a key with an empty
                    history, the history full at the node's default Send Once History, and
                    at 10 × that. Prints requests and store calls per message, CPU ms per
                    message, execution latency p50/p95 and wall; sets --latency 100 --runs 1
                    --events 200 --at-once 10 --warmup 20 (flags given beside it win).
  --events N        (--preset events) executions, one message each, default 200
  --at-once N       (--preset events) executions at once, default 10
  --items N         items per row, default 2000; a row of k executions sends N in all, N/k
                    each (the floor is always for N items)           [BENCH_ITEMS]
  --latency MS      service latency per request, default 20     [BENCH_LATENCY_MS]
  --limit N         service in-flight limit, default 10 (429 above it) [BENCH_LIMIT]
  --retry-after S   Retry-After of the in-flight limit's 429, default 1 [BENCH_RETRY_AFTER]
  --runs N          runs of every row, default 3                [BENCH_RUNS]
  --continue-on-fail / --no-continue-on-fail
                    the node's continue-on-fail for the A and D rows; default off (on with
                    --preset pacing). Off, the first item the node gives up on stops the
                    execution and every item not sent by then counts as not sent; on, the
                    execution goes on and "not sent" counts exactly the items lost.
  --rows LIST       comma list of rows; default A<limit>,A5,B,Bc,R        [BENCH_ROWS]
                    [<k>x]<base>[@<r>rps][+WHAT_IF...]
                      base   A<n>  custom pipeline (the node as built), options.concurrency n
                             D     custom pipeline with the node's default options (no concurrency)
                             B     declarative routing (today's engine); Bc: with continue on fail
                             R     reference client without n8n, concurrency = --limit; Rk: keep-alive
                      <k>x   k executions of the workflow at once in the same engine process
                             (A and D rows), each with its share of the items and its own phones
                      @<r>rps  the service limits sends to r per second (a token bucket holding one
                             second's worth; 429 with Retry-After in whole seconds) instead of
                             --limit in flight; floor = items ÷ r
                    e.g. --rows A50,3xA10,3xD,D,2xD@50rps
                    A<n>+WHAT_IF[+WHAT_IF...] runs a custom row with a diagnostic patch in the
                    engine process (targets ignore such rows):
                      fn-auth       credential authenticate as a function (no per-request expressions)
                      no-node-copy  getNode() without deep copy
                      keep-alive    one shared keep-alive agent (n8n opens a connection per request)
                      literal-vars  template variables as literal text (no per-item expressions)
                    e.g. --rows A10,A10+fn-auth,A10+fn-auth+no-node-copy+keep-alive,R,Rk
                    A<n>+send-once (or D+send-once) is not a patch but the node's Send Once per Key
                    option (a key per item), on an in-memory processed-data store that behaves like
                    n8n's database one (test/helpers/processedDataStore.ts) holding --history
                    entries; beside the row without it, its cost is checked against 10% of the wall
                    e.g. --latency 100 --rows A10,A10+send-once
  --history N       entries already in the send-once history of +send-once rows, default 10000;
                    with --preset events: keys in the key-full row's history (key-10x: 10 × N),
                    default the node's default Send Once History
  --warmup N        warm-up items before the timed run, default 20 (0: none)
  --jitter MS       the service admits each request after a random 0..MS ms, so requests reach it
                    in another order than they were sent, default 0
  --events-before N before the timed run, N single-message executions (10 at a time) to the same
                    service, as CRM events before a broadcast, default 0
  --counted         run the custom rows through the bench's own runner (test/bench/declarative.ts),
                    which counts credential reads (getDecrypted), instead of test/helpers/engine.ts
                    runNode (the declarative rows always use it)
  --credential-read-ms N   with the bench's runner, make every credential read take N ms, as
                    n8n's database read + decrypt does (the harness's read is free); implies --counted
  --cpu-prof        write a V8 CPU profile of each timed execution to .tmp/bench-prof/<row>-run<n>.cpuprofile
                    (summarise it with: node .tmp/bench/profile-summary.js <file>). The profiler
                    slows the run by ~25%; wall times of profiled runs are not comparable.
  --json FILE       also write every measurement as JSON
Environment: BENCH_TRACE=DIR writes each timed run's sends as DIR/sends-<pid>-<n>.tsv (ms from the
                    first send, status, requests in flight at the service) to see how the pacer behaved.
`;

interface BenchConfig extends RunShape {
	items: number;
	counted: boolean;
	credentialReadMs: number;
	cpuProf: boolean;
	/** The node's continue-on-fail for the A and D rows. */
	continueOnFail: boolean;
	preset?: PresetName;
	/** Entries already in the send-once history of +send-once rows. */
	history: number;
	/** --preset events: single-message executions, and how many run at once. */
	events: number;
	atOnce: number;
	/** --history as given (the events preset defaults to the node's own default instead). */
	historyGiven?: number;
	/** Single-message executions to the timed service before each row's run. */
	eventsBefore: number;
}

function parseArgs(argv: string[]): BenchConfig {
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(USAGE);
		process.exit(0);
	}
	const known = [
		'jitter',
		'events-before',
		'items',
		'latency',
		'limit',
		'retry-after',
		'runs',
		'rows',
		'warmup',
		'credential-read-ms',
		'json',
		'preset',
		'history',
		'events',
		'at-once',
	];
	const flags = new Map<string, string>();
	const bools = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
		const [name, inline] = arg.slice(2).split('=', 2);
		if (['counted', 'cpu-prof', 'continue-on-fail', 'no-continue-on-fail'].includes(name))
			bools.add(name);
		else if (known.includes(name)) flags.set(name, inline ?? argv[++i]);
		else throw new Error(`unknown flag --${name}; see --help`);
	}
	const presetName = flags.get('preset');
	if (presetName !== undefined && !(presetName in PRESETS)) {
		throw new Error(`unknown preset ${presetName}; use ${Object.keys(PRESETS).join(', ')}`);
	}
	const preset = presetName === undefined ? undefined : PRESETS[presetName as PresetName];
	// A preset's values stand above the environment (a stray BENCH_ITEMS must not change its table), below flags.
	const presetValue = (name: string): string | undefined =>
		name === 'rows' ? preset?.rows : (preset?.flags as Record<string, string> | undefined)?.[name];
	const num = (name: string, env: string, fallback: number) => {
		const raw = flags.get(name) ?? presetValue(name) ?? process.env[env];
		if (raw === undefined) return fallback;
		const value = Number(raw);
		if (!Number.isFinite(value) || value < 0)
			throw new Error(`--${name} must be a number, got ${raw}`);
		return value;
	};
	const limit = num('limit', 'BENCH_LIMIT', 10);
	const credentialReadMs = num('credential-read-ms', 'BENCH_CREDENTIAL_READ_MS', 0);
	return {
		items: num('items', 'BENCH_ITEMS', 2000),
		latencyMs: num('latency', 'BENCH_LATENCY_MS', 20),
		limit,
		retryAfter:
			flags.get('retry-after') ??
			presetValue('retry-after') ??
			process.env.BENCH_RETRY_AFTER ??
			'1',
		runs: num('runs', 'BENCH_RUNS', 3),
		rows: (
			flags.get('rows') ??
			presetValue('rows') ??
			process.env.BENCH_ROWS ??
			`A${limit},A5,B,Bc,R`
		)
			.split(',')
			.map((r) => r.trim())
			.filter(Boolean),
		warmup: num('warmup', 'BENCH_WARMUP', 20),
		jitter: num('jitter', 'BENCH_JITTER_MS', 0),
		eventsBefore: num('events-before', 'BENCH_EVENTS_BEFORE', 0),
		counted: bools.has('counted') || credentialReadMs > 0,
		credentialReadMs,
		cpuProf: bools.has('cpu-prof'),
		continueOnFail: bools.has('no-continue-on-fail')
			? false
			: bools.has('continue-on-fail') || (preset?.continueOnFail ?? false),
		preset: presetName as PresetName | undefined,
		json: flags.get('json'),
		history: num('history', 'BENCH_HISTORY', 10_000),
		events: num('events', 'BENCH_EVENTS', 200),
		atOnce: Math.max(1, num('at-once', 'BENCH_AT_ONCE', 10)),
		historyGiven:
			flags.has('history') || process.env.BENCH_HISTORY
				? num('history', 'BENCH_HISTORY', 0)
				: undefined,
	};
}

interface RowSpec {
	id: string;
	label: string;
	variant: 'custom' | 'declarative' | 'raw';
	/** options.concurrency; undefined for D (the node's default options) and the declarative rows. */
	concurrency?: number;
	/** Executions of the workflow at once in the engine process; --items is split between them. */
	executions: number;
	/** The service's requests-per-second limit for this row (its in-flight limit is then off). */
	ratePerSecond?: number;
	continueOnFail: boolean;
	keepAlive?: boolean;
	/** Diagnostic changes applied inside the engine process (see WHAT_IFS); not the node as built. */
	whatIfs: WhatIf[];
	/** The node's Send Once per Key option on, against an in-memory processed-data store. */
	sendOnce: boolean;
}

/**
 * Diagnostics: run a row with one of the per-request or per-item costs removed, to measure what
 * it costs. They patch the engine process only (never the package's files).
 */
const WHAT_IFS = {
	'fn-auth': 'credential authenticate as a function: no expression evaluation per request',
	'no-node-copy': "getNode() without n8n's deep copy (the node calls it on every response)",
	'keep-alive':
		'one shared keep-alive http.Agent instead of a new agent + TCP connection per request (n8n change)',
	'literal-vars':
		'template variables as literal text: no per-item expressions for them (phone stays an expression)',
} as const;
type WhatIf = keyof typeof WHAT_IFS;

const ROW_GRAMMAR = /^(?:(\d+)x)?(A\d+|D|B|Bc|R|Rk)(?:@(\d+(?:\.\d+)?)rps)?$/;

function rowSpec(id: string, limit: number, continueOnFail: boolean): RowSpec {
	const [shape, ...modifiers] = id.split('+');
	const sendOnce = modifiers.includes('send-once');
	const whatIfs = modifiers.filter((m) => m !== 'send-once');
	for (const w of whatIfs) {
		if (!(w in WHAT_IFS))
			throw new Error(`unknown what-if ${w} in row ${id}: use ${Object.keys(WHAT_IFS).join(', ')}`);
	}
	const parts = ROW_GRAMMAR.exec(shape);
	if (!parts)
		throw new Error(
			`unknown row ${id}: use [<k>x]A<concurrency>|D|B|Bc|R|Rk[@<r>rps][+what-if...] (see --help)`,
		);
	const executions = parts[1] === undefined ? 1 : Number(parts[1]);
	const base = parts[2];
	const ratePerSecond = parts[3] === undefined ? undefined : Number(parts[3]);
	if (executions < 1) throw new Error(`row ${id}: at least one execution`);
	if (ratePerSecond !== undefined && !(ratePerSecond > 0))
		throw new Error(`row ${id}: the rate must be above 0`);
	const spec = baseRowSpec(base, limit, continueOnFail);
	if (whatIfs.length && spec.variant !== 'custom')
		throw new Error(`what-ifs (${id}) apply to custom pipeline rows (A<n>, D) only`);
	if (executions > 1 && spec.variant !== 'custom')
		throw new Error(`several executions (${id}) apply to custom pipeline rows (A<n>, D) only`);
	if (sendOnce && spec.variant !== 'custom')
		throw new Error(`send-once (${id}) applies to custom pipeline rows (A<n>, D) only`);
	const shared = [
		sendOnce ? 'Send Once per Key on (in-memory processed-data store)' : '',
		executions > 1 ? `${executions} executions at once in one process` : '',
		ratePerSecond !== undefined
			? `service limit ${ratePerSecond} sends/s (no in-flight limit)`
			: '',
		spec.variant === 'custom' && continueOnFail ? 'continue on fail' : '',
		whatIfs.length ? `what if: ${whatIfs.map((w) => WHAT_IFS[w as WhatIf]).join('; ')}` : '',
	].filter(Boolean);
	return {
		...spec,
		id,
		label: [spec.label, ...shared].join(', '),
		executions,
		ratePerSecond,
		whatIfs: whatIfs as WhatIf[],
		sendOnce,
	};
}

/**
 * The rows named without a figure: the node's default options, and n8n's declarative routing, which
 * continues on fail only in its own row.
 */
const NAMED_ROWS: Record<string, Pick<RowSpec, 'label' | 'variant'> & Partial<RowSpec>> = {
	D: { label: "custom pipeline, the node's default options", variant: 'custom' },
	B: {
		label: "declarative routing (today's engine)",
		variant: 'declarative',
		continueOnFail: false,
	},
	Bc: {
		label: 'declarative routing, continue on fail',
		variant: 'declarative',
		continueOnFail: true,
	},
};

function baseRowSpec(
	base: string,
	limit: number,
	continueOnFail: boolean,
): Omit<RowSpec, 'executions' | 'sendOnce'> {
	const common = { id: base, whatIfs: [] as WhatIf[] };
	const custom = /^A(\d+)$/.exec(base);
	if (custom) {
		const concurrency = Number(custom[1]);
		return {
			...common,
			label: `custom pipeline, concurrency ${concurrency}`,
			variant: 'custom',
			concurrency,
			continueOnFail,
		};
	}
	const named = NAMED_ROWS[base];
	if (named) return { ...common, continueOnFail, ...named };
	const keepAlive = base === 'Rk';
	return {
		...common,
		label:
			`reference: plain node:http client, no n8n, concurrency ${limit}, ` +
			`${keepAlive ? 'keep-alive' : 'Connection: close'}`,
		variant: 'raw',
		concurrency: limit,
		continueOnFail: true,
		keepAlive,
	};
}

// ---------------------------------------------------------------------------------------------
// The load: one template message per item, each to its own phone number

function parametersFor(row: RowSpec) {
	return templateSendParameters(
		row.whatIfs.includes('literal-vars')
			? { '1': 'Anna', '2': 'ORD-100000', '3': '2025-06-01' }
			: EXPRESSION_VARIABLES,
		{
			...(row.concurrency !== undefined ? { concurrency: row.concurrency } : {}),
			...(row.sendOnce ? { sendOnceKey: SEND_ONCE_KEY } : {}),
		},
	);
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
	/** The first execution's error that failed the node (and how many executions failed). */
	nodeError?: string;
	failedExecutions: number;
	/** Wall time of each execution of the row. */
	executionWallMs: number[];
	decryptCalls?: number;
	/** +send-once rows: calls to the processed-data store in the timed run, and the time spent inside them. */
	store?: { calls: number; busyMs: number };
}

interface EngineJob {
	row: RowSpec;
	/** Items of each execution of the row, in order. */
	itemsPerExecution: number[];
	warmup: number;
	counted: boolean;
	credentialReadMs: number;
	/** Where to write a CPU profile of the timed execution only (not loading, not warm-up). */
	cpuProfile?: string;
	url: string;
	/** A second fake without limits, for the warm-up (see fake-service.child.ts). */
	warmupUrl: string;
	apiKey: string;
	history: number;
	/** Single-message executions to the timed service before the run. */
	eventsBefore: number;
}

/**
 * The reference row: the same requests as the node sends (one template GET, then one POST per
 * item, `concurrency` in flight), from a bare node:http client, so nothing of n8n is measured.
 */
async function rawClient(job: EngineJob, items: ReturnType<typeof itemsFor>) {
	const http = await import('node:http');
	const agent = new http.Agent({ keepAlive: job.row.keepAlive === true });
	const request = async (method: 'GET' | 'POST', requestPath: string, body?: unknown) =>
		await requestJson(`${job.url}${requestPath}`, { method, apiKey: job.apiKey, body, agent });
	await request(
		'GET',
		`/stable/open/whatsapp/get-template-detail?platform_id=${CHANNEL_ID}&template_id=${TEMPLATE_ID}`,
	);
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
			output[i] =
				answer.status === 200
					? { json: answer.body as IDataObjectLike }
					: { json: { error: answer.status }, error: answer.status };
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
				requestOptions.headers = {
					...requestOptions.headers,
					[header]: credentials.apiKey as string,
				};
				return requestOptions;
			};
		} else if (whatIf === 'no-node-copy') {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const context = require(
				path.join(coreDist, 'execution-engine/node-execution-context/node-execution-context.js'),
			);
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

type Items = ReturnType<typeof itemsFor>;
interface ExecutionResult {
	output: Array<{ json: IDataObjectLike; error?: unknown }>;
	error?: { message: string };
	decryptCalls?: number;
}

/** How the engine process runs one execution of the row's workflow. */
async function executionRunner(job: EngineJob) {
	// Imported here, not at the top: the orchestrator never loads n8n.
	const { runNode } = await import('../helpers/engine');
	const { runVariant } = await import('./declarative');
	const { row } = job;
	const parameters = parametersFor(row);
	return async (items: Items, executionId: string, url = job.url): Promise<ExecutionResult> => {
		if (row.variant === 'raw') return await rawClient({ ...job, url }, items);
		const credentials = { baseUrl: url, apiKey: job.apiKey };
		const common = {
			parameters,
			credentials,
			items,
			continueOnFail: row.continueOnFail,
			executionId,
		};
		if (row.variant === 'custom' && !job.counted) return await runNode(common);
		return await runVariant({
			...common,
			variant: row.variant,
			credentialReadMs: job.credentialReadMs,
		});
	};
}

/** The row's executions, all started at once in this process, each timed on its own. */
async function runExecutions(
	run: (items: Items, executionId: string) => Promise<ExecutionResult>,
	batches: Items[],
) {
	return await Promise.all(
		batches.map(async (items, e) => {
			const t0 = performance.now();
			const result = await run(items, `bench-${e + 1}`);
			return { result, wallMs: performance.now() - t0 };
		}),
	);
}

function batchesFor(job: EngineJob): Items[] {
	let offset = 0;
	return job.itemsPerExecution.map((count) => {
		const items = itemsFor(count, undefined, offset);
		offset += count;
		return items;
	});
}

/** +send-once rows: n8n's store helpers on an in-memory store holding `history` entries. */
async function sendOnceStore(job: EngineJob) {
	if (!job.row.sendOnce) return undefined;
	const { useProcessedDataStore } = await import('../helpers/processedDataStore');
	const store = await useProcessedDataStore();
	// runNode's workflow and node (the default scope is the node).
	store.seed('wf-1', 'node-1', job.history);
	return store;
}

/** --events-before: single-message executions, 10 at a time, to the service the timed run uses. */
async function eventsBefore(
	run: (items: Items, executionId: string, url?: string) => Promise<ExecutionResult>,
	job: EngineJob,
) {
	for (let first = 0; first < job.eventsBefore; first += 10) {
		const count = Math.min(10, job.eventsBefore - first);
		await Promise.all(
			Array.from(
				{ length: count },
				async (_, i) => await run(itemsFor(1, '+49153', first + i), `event-${first + i}`, job.url),
			),
		);
	}
}

async function engineChild() {
	const send = (message: unknown) => process.send?.(message);
	const job = await new Promise<EngineJob>((resolve) =>
		process.once('message', (m: { job: EngineJob }) => resolve(m.job)),
	);
	await applyWhatIfs(job.row.whatIfs);
	const store = await sendOnceStore(job);
	const run = await executionRunner(job);
	if (job.warmup > 0) await run(itemsFor(job.warmup, '+49152'), 'warm-up', job.warmupUrl);
	await eventsBefore(run, job);
	const storeBefore = store && {
		calls: store.calls.checkProcessedAndRecord + store.calls.removeProcessed,
		busyMs: store.busyMs,
	};
	const batches = batchesFor(job);
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
	const executions = await runExecutions(run, batches);
	const wallMs = performance.now() - t0;
	const endedAt = Date.now();
	const cpu = process.cpuUsage(cpu0);
	loop.disable();
	clearInterval(sampler);
	if (profiler && job.cpuProfile)
		writeFileSync(job.cpuProfile, JSON.stringify(await profiler.stop()));
	heapUsedPeak = Math.max(heapUsedPeak, process.memoryUsage().heapUsed);
	const outputs = executions.flatMap((e) => e.result.output);
	const storeUse = store &&
		storeBefore && {
			calls: store.calls.checkProcessedAndRecord + store.calls.removeProcessed - storeBefore.calls,
			busyMs: store.busyMs - storeBefore.busyMs,
		};
	const errors = executions.flatMap((e) => (e.result.error ? [e.result.error] : []));
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
		outputItems: outputs.length,
		errorItems: outputs.filter((item) => item.error !== undefined || item.json?.error !== undefined)
			.length,
		nodeError: errors.length ? `${errors[0].message}`.slice(0, 200) : undefined,
		failedExecutions: errors.length,
		executionWallMs: executions.map((e) => e.wallMs),
		decryptCalls: executions.reduce<number | undefined>(
			(sum, e) => (e.result.decryptCalls === undefined ? sum : (sum ?? 0) + e.result.decryptCalls),
			undefined,
		),
		store: storeUse,
	};
	// Exit once the result is out: sockets or timers left by the engine must not keep it alive.
	process.send?.({ type: 'result', result: message }, () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// Orchestrator

interface Measurement {
	run: number;
	row: RowSpec;
	engine: EngineResult;
	service: ServiceStats;
	floorMs: number;
	ratio: number;
	requestsPerItem: number;
	/** 429s the service answered ÷ items. */
	tooManyPerItem: number;
	/** Items whose message the service never accepted. */
	notSent: number;
	prepMs?: number;
	sendMs?: number;
}

/** --items split between the row's executions, the first ones taking the remainder. */
function splitItems(items: number, executions: number): number[] {
	return Array.from(
		{ length: executions },
		(_, e) => Math.floor(items / executions) + (e < items % executions ? 1 : 0),
	);
}

/** The shared limit's floor: items × latency ÷ in-flight limit, or items ÷ rate. */
function floorFor(config: BenchConfig, row: RowSpec): number {
	return row.ratePerSecond !== undefined
		? (config.items / row.ratePerSecond) * 1000
		: (config.items * config.latencyMs) / config.limit;
}

/** The row's limits at the service: the in-flight limit, or the rate limit instead of it. */
function limitsFor(config: BenchConfig, row: RowSpec) {
	return row.ratePerSecond !== undefined
		? {
				concurrencyLimit: null,
				rateLimitPerSecond: row.ratePerSecond,
				retryAfter: config.retryAfter,
			}
		: { concurrencyLimit: config.limit, rateLimitPerSecond: null, retryAfter: config.retryAfter };
}

async function measure(
	config: BenchConfig,
	fake: Child,
	service: ServiceAddress,
	row: RowSpec,
	run: number,
): Promise<Measurement> {
	await fake.ask({ type: 'limits', limits: limitsFor(config, row) }, 'limits-set');
	const execArgv = ['--expose-gc'];
	let cpuProfile: string | undefined;
	if (config.cpuProf) {
		const dir = path.join(repoRoot, '.tmp', 'bench-prof');
		mkdirSync(dir, { recursive: true });
		cpuProfile = path.join(dir, `${row.id}-run${run}.cpuprofile`);
	}
	const engine = forkEngine(__filename, '--engine-child', execArgv, `engine ${row.id}`);
	const job: EngineJob = {
		row,
		itemsPerExecution: splitItems(config.items, row.executions),
		warmup: config.warmup,
		counted: config.counted,
		credentialReadMs: config.credentialReadMs,
		cpuProfile,
		history: config.history,
		eventsBefore: config.eventsBefore,
		...service,
	};
	const { result, stats } = await timedRun<EngineResult>(engine, fake, job);
	const floorMs = floorFor(config, row);
	const firstSend = stats.firstSendAt;
	return {
		run,
		row,
		engine: result,
		service: stats,
		floorMs,
		ratio: result.wallMs / floorMs,
		requestsPerItem: (stats.sendPosts + stats.templateGets) / config.items,
		tooManyPerItem: stats.tooMany / config.items,
		notSent: config.items - stats.deliveredPhones,
		prepMs: firstSend !== undefined ? firstSend - result.startedAt : undefined,
		sendMs:
			stats.lastSendAt !== undefined && firstSend !== undefined
				? result.endedAt - firstSend
				: undefined,
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
	['429/item', 8, (m) => m.tooManyPerItem.toFixed(4)],
	['not sent', 8, (m) => String(m.notSent)],
	['dup', 4, (m) => String(m.service.duplicateSends)],
	['RSS MB', 7, (m) => m.engine.maxRssMb.toFixed(0)],
	['prep ms', 7, (m) => (m.prepMs === undefined ? '-' : m.prepMs.toFixed(0))],
	['send ms', 7, (m) => (m.sendMs === undefined ? '-' : m.sendMs.toFixed(0))],
	['cpu ms', 7, (m) => (m.engine.cpuUserMs + m.engine.cpuSystemMs).toFixed(0)],
	['conns', 6, (m) => String(m.service.connections)],
	[
		'node result',
		0,
		(m) =>
			m.engine.nodeError
				? `error${m.engine.failedExecutions > 1 ? ` (${m.engine.failedExecutions} executions)` : ''}: ` +
					`${m.engine.nodeError.slice(0, 60)}`
				: `${m.engine.outputItems} items${m.engine.errorItems ? `, ${m.engine.errorItems} error items` : ''}`,
	],
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

const verdict = (ok: boolean) => (ok ? 'MET    ' : 'NOT MET');

/** One execution against the in-flight limit: the rows the original targets are about. */
const isClassic = (m: Measurement) => m.row.executions === 1 && m.row.ratePerSecond === undefined;

function targets(config: BenchConfig, all: Measurement[]) {
	const lines: string[] = [];
	const custom = all.filter(
		(m) => m.row.variant === 'custom' && m.row.whatIfs.length === 0 && isClassic(m),
	);
	const atLimit = custom.filter((m) => m.row.concurrency === config.limit);
	const declarative = all.filter((m) => m.row.variant === 'declarative');
	const reference = all.filter((m) => m.row.variant === 'raw' && !m.row.keepAlive);
	if (custom.length) {
		const clean = custom.every((m) => m.notSent === 0 && m.service.duplicateSends === 0);
		const declFails =
			declarative.length === 0 ? undefined : declarative.every((m) => m.notSent > 0);
		const worst = custom.reduce((w, m) => Math.max(w, m.notSent + m.service.duplicateSends), 0);
		lines.push(
			`${verdict(clean && declFails !== false)}  custom pipeline: 0 items not sent and 0 duplicates in every run` +
				` (worst not sent+dup: ${worst})` +
				(declFails === undefined
					? '; no declarative row to compare'
					: `; declarative items not sent per run: ${declarative.map((m) => `${m.row.id}=${m.notSent}`).join(' ')}`),
		);
	}
	if (atLimit.length) {
		const ratios = atLimit.map((m) => m.ratio);
		lines.push(
			`${verdict(ratios.every((r) => r <= 1.25))}  wall / floor <= 1.25 with concurrency = ` +
				`service limit (${config.limit}):` +
				` ${ratios.map((r) => r.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})` +
				(reference.length
					? `; reference client without n8n on this machine: median ${median(reference.map((m) => m.ratio)).toFixed(3)}`
					: ''),
		);
	} else if (custom.length) {
		lines.push(
			`(no custom row with concurrency = the service's limit ${config.limit}: ratio target not checked)`,
		);
	}
	if (custom.length) {
		const rpi = custom.map((m) => m.requestsPerItem);
		lines.push(
			`${verdict(rpi.every((r) => r <= 1.001))}  requests per item <= 1.001 (custom rows): max ` +
				`${Math.max(...rpi).toFixed(4)}` +
				(config.items < 1000
					? ` (with ${config.items} items the one template GET alone adds ${(1 / config.items).toFixed(4)})`
					: ''),
		);
	}
	if (all.some((m) => !isClassic(m))) {
		lines.push(
			'(rows with several executions or a rate limit have their targets under --preset pacing)',
		);
	}
	lines.push(...sendOnceCost(all));
	return { lines, met: true };
}

/** Issue 12: Send Once per Key costs at most 10% of the wall time, each +send-once row against its row without. */
function sendOnceCost(all: Measurement[]): string[] {
	const withKey = [...new Set(all.filter((m) => m.row.sendOnce).map((m) => m.row.id))];
	return withKey.map((id) => {
		const baseId = id
			.split('+')
			.filter((part) => part !== 'send-once')
			.join('+');
		const wall = (rowId: string) =>
			median(all.filter((m) => m.row.id === rowId).map((m) => m.engine.wallMs));
		if (!all.some((m) => m.row.id === baseId))
			return `(no row ${baseId} beside ${id}: send-once cost not checked)`;
		const cost = wall(id) / wall(baseId) - 1;
		const sign = cost >= 0 ? '+' : '';
		return (
			`${verdict(cost <= 0.1)}  send-once costs <= 10% of the wall time: ${id} ${wall(id).toFixed(0)} ms vs ` +
			`${baseId} ${wall(baseId).toFixed(0)} ms (${sign}${(cost * 100).toFixed(1)}%, medians)`
		);
	});
}

/** "A50 29, 3xA10 6/4": a value per row, one per run. */
function perRow(ms: Measurement[], value: (m: Measurement) => string) {
	const ids = [...new Set(ms.map((m) => m.row.id))];
	return ids
		.map(
			(id) =>
				`${id} ${ms
					.filter((m) => m.row.id === id)
					.map(value)
					.join('/')}`,
		)
		.join(', ');
}

/** Issue 11's targets, every one in every run of every custom row. */
function pacingTargets(all: Measurement[]) {
	const custom = all.filter((m) => m.row.variant === 'custom' && m.row.whatIfs.length === 0);
	const isOneDefault = (m: Measurement) => isClassic(m) && m.row.concurrency === undefined;
	const shared = custom.filter((m) => !isOneDefault(m));
	const oneDefault = custom.filter(isOneDefault);
	const checks: Array<[boolean, string]> = [];
	if (custom.length) {
		checks.push([
			custom.every((m) => m.notSent === 0 && m.service.duplicateSends === 0),
			`0 items not sent and 0 duplicates in every row (not sent/dup): ` +
				`${perRow(custom, (m) => `${m.notSent}/${m.service.duplicateSends}`)}`,
		]);
	}
	if (shared.length) {
		checks.push([
			shared.every((m) => m.ratio <= 1.25),
			`wall <= 1.25 × floor of the shared limit: ${perRow(shared, (m) => m.ratio.toFixed(2))}`,
		]);
	}
	if (custom.length) {
		checks.push([
			custom.every((m) => m.tooManyPerItem <= 0.05),
			`429s <= 0.05 per item: ${perRow(custom, (m) => m.tooManyPerItem.toFixed(3))}`,
		]);
	}
	if (oneDefault.length) {
		checks.push([
			oneDefault.every((m) => m.ratio <= 1.25),
			`1 execution, default options: wall <= 1.25 × floor: ${perRow(oneDefault, (m) => m.ratio.toFixed(2))}`,
		]);
	}
	const lines = checks.map(([ok, text]) => `${verdict(ok)}  ${text}`);
	lines.push(
		'(not checked here: "the existing rows no worse": run npm run bench -- --runs 2 and ' +
			"compare with the README's table)",
	);
	const met = checks.length > 0 && checks.every(([ok]) => ok);
	lines.push(
		`pacing targets: ${met ? 'PASS' : `FAIL (${checks.filter(([ok]) => !ok).length} of ${checks.length} not met)`}`,
	);
	return { lines, met };
}

function printIntro(config: BenchConfig, rows: RowSpec[], service: ServiceAddress) {
	console.log(
		`broadcast bench${config.preset ? ` (preset ${config.preset})` : ''}: ${config.items} ` +
			`WhatsApp template messages per row ` +
			`(channel ${CHANNEL_ID}, template ${TEMPLATE_ID}; a row of k executions sends ${config.items} ÷ k each), ` +
			`service latency ${config.latencyMs} ms, limit ${config.limit} in flight (429 Retry-After: ` +
			`${config.retryAfter} above) ` +
			`unless a row has @<r>rps, ${config.runs} run(s), warm-up ${config.warmup} items, ` +
			`continue on fail ${config.continueOnFail ? 'on' : 'off'} (A, D rows), node ${process.version}` +
			(config.counted
				? `, bench runner for all rows (credential read ${config.credentialReadMs} ms)`
				: ''),
	);
	console.log(
		`fake service: ${service.url} (own process; warm-ups go to a second fake, ` +
			`${service.warmupUrl}, without limits); each row runs in a fresh engine process`,
	);
	console.log(`machine: ${cpus().length} cores, load average ${loadAverage()} at start\n`);
	for (const row of rows) console.log(`  ${pad(row.id, COLUMNS[0][1])}  ${row.label}`);
	console.log('');
}

function printMedians(rows: RowSpec[], all: Measurement[]) {
	console.log('median per row:');
	for (const row of rows) {
		const ms = all.filter((m) => m.row.id === row.id);
		if (ms.length === 0) continue;
		const walls = ms.flatMap((m) => m.engine.executionWallMs);
		console.log(
			`  ${pad(row.id, COLUMNS[0][1])}  wall ` +
				`${median(ms.map((m) => m.engine.wallMs)).toFixed(0)} ms, ratio ` +
				`${median(ms.map((m) => m.ratio)).toFixed(3)}, ` +
				(row.executions > 1
					? `each execution ${Math.min(...walls).toFixed(0)}-${Math.max(...walls).toFixed(0)} ms, `
					: '') +
				`req/item ${median(ms.map((m) => m.requestsPerItem)).toFixed(4)}, 429s ` +
				`${median(ms.map((m) => m.service.tooMany))} ` +
				`(in flight ${median(ms.map((m) => m.service.tooManyInFlight))}, rate ` +
				`${median(ms.map((m) => m.service.tooManyRate))}), ` +
				`not sent ${median(ms.map((m) => m.notSent))}, dup ${median(ms.map((m) => m.service.duplicateSends))}, ` +
				`peak RSS ${median(ms.map((m) => m.engine.maxRssMb)).toFixed(0)} MB, ` +
				`service peak in flight ${Math.max(...ms.map((m) => m.service.peakInFlight))}, ` +
				`served on average ${median(ms.map((m) => m.service.averageServing)).toFixed(2)}, below ` +
				`the limit after the first 429 ` +
				`${median(ms.map((m) => m.service.belowLimitAfterBurstMs)).toFixed(0)} ms, ` +
				`Connection header: ${Object.entries(ms[0].service.connectionHeaders)
					.map(([k, v]) => `${k}×${v}`)
					.join(' ')}` +
				(ms[0].engine.decryptCalls !== undefined
					? `, credential reads ${ms[0].engine.decryptCalls}`
					: '') +
				(ms[0].engine.store
					? `, store calls ${median(ms.map((m) => m.engine.store?.calls ?? 0))} taking ` +
						`${median(ms.map((m) => m.engine.store?.busyMs ?? 0)).toFixed(0)} ms`
					: ''),
		);
	}
}

const LEGEND =
	'columns: floor = items × latency ÷ in-flight limit, or items ÷ rate for @<r>rps rows ' +
	'(items: all executions of the row ' +
	'together); req/item = (send POSTs + template GETs) ÷ items; 429/item = 429s ÷ items; not ' +
	'sent = items the service never ' +
	'accepted (with continue on fail off, the first item the node gives up on ends its ' +
	'execution, and the items not sent by ' +
	'then count too); dup = accepted sends beyond the first for a phone; RSS = peak RSS ' +
	'(maxRSS) of the engine process; ' +
	'prep = execution start to the first send at the service (checks, template GET); send = ' +
	'first send to end of execution; ' +
	'conns = TCP connections the service accepted. Timings are noisy on a shared machine.';

async function orchestrate(config: BenchConfig): Promise<boolean> {
	const rows = config.rows.map((id) => rowSpec(id, config.limit, config.continueOnFail));
	COLUMNS[0][1] = Math.max(4, ...rows.map((r) => r.id.length));
	const { fake, service } = await startFake(config);
	printIntro(config, rows, service);
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
	console.log(
		`load average at end: ${loadAverage()} (other processes on the machine inflate wall times)`,
	);
	console.log('');
	printMedians(rows, all);
	console.log('');
	const verdicts = config.preset === 'pacing' ? pacingTargets(all) : targets(config, all);
	console.log(
		config.preset === 'pacing' ? 'targets (issue 11, every run of every row):' : 'targets:',
	);
	for (const l of verdicts.lines) console.log(`  ${l}`);
	console.log('');
	console.log(LEGEND);
	if (config.json) {
		writeFileSync(config.json, JSON.stringify({ config, measurements: all }, null, 2));
		console.log(`measurements written to ${config.json}`);
	}
	return verdicts.met;
}

if (process.argv.includes('--engine-child')) {
	engineChild().catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	const config = parseArgs(process.argv.slice(2));
	const running =
		config.preset === 'events'
			? orchestrateEvents({ ...config, historyKeys: config.historyGiven })
			: orchestrate(config);
	running.then(
		(met) => {
			// Only the preset's targets decide the exit code: the lead runs it to check the pacer.
			if (!met) process.exitCode = 1;
		},
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
