/*
 * npm run bench -- --preset events: the CRM shape of issue 19. Each CRM event (contact created,
 * order shipped) starts an execution of its own that sends ONE WhatsApp template message; several
 * run at once in one n8n process, against the fake service at an internet latency, with the
 * node's default options. Rows:
 *   no-key     no send-once key
 *   key-empty  Send Once per Key on, nothing in the history yet
 *   key-full   the history full at the node's default Send Once History (--history to change it)
 *   key-10x    the history full at 10 × that, Send Once History set to match
 * The history lives in an in-memory processed-data store kept as one serialized JSON row per
 * workflow and node, as n8n's database keeps it (test/helpers/processedDataStore.ts).
 */
import { cpus } from 'node:os';
import path from 'node:path';

import { Child, forkEngine, loadAverage, repoRoot, startFake, timedRun } from './child';
import type { RunShape, ServiceAddress } from './child';
import type { ServiceStats } from './fake-service.child';
import { EXPRESSION_VARIABLES, SEND_ONCE_KEY, itemsFor, templateSendParameters } from './load';

export interface EventsConfig extends RunShape {
	events: number;
	atOnce: number;
	/** Keys in the key-full row's history; the node's default Send Once History unless given. */
	historyKeys?: number;
}

/** `historyTimes`: the history, in multiples of --history; undefined: no send-once key. */
export const EVENT_ROWS: Record<string, { label: string; historyTimes?: number }> = {
	'no-key': { label: 'no send-once key' },
	'key-empty': { label: 'send-once key, empty history', historyTimes: 0 },
	'key-full': {
		label: 'send-once key, history full at the default Send Once History',
		historyTimes: 1,
	},
	'key-10x': {
		label: 'send-once key, history full at 10 × the default (Send Once History set to it)',
		historyTimes: 10,
	},
};

interface EventsJob {
	rowId: string;
	events: number;
	atOnce: number;
	warmup: number;
	/** Keys already in the history; undefined: no send-once key. */
	historyKeys?: number;
	/** The Send Once History option, when not the default. */
	sendOnceHistory?: number;
	service: ServiceAddress;
}

interface EventsResult {
	wallMs: number;
	cpuMs: number;
	latenciesMs: number[];
	failedExecutions: number;
	firstError?: string;
	store?: { calls: number; busyMs: number; rowMb: number };
	/** Where the prefilled entries came from: the node's own function, or the bench's stand-in. */
	historyFrom?: string;
	prefillMs?: number;
}

const DIST = path.join(repoRoot, 'dist', 'nodes', 'OmnichannelMessaging');

/** The node's default Send Once History, from its description as n8n shows it. */
export function defaultSendOnceHistory(): number {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { OmnichannelMessaging } = require(path.join(DIST, 'OmnichannelMessaging.node.js'));
	const seen = new Set<unknown>();
	const find = (value: unknown): number | undefined => {
		if (!value || typeof value !== 'object' || seen.has(value)) return undefined;
		seen.add(value);
		const field = value as { name?: unknown; default?: unknown };
		if (field.name === 'sendOnceHistory' && typeof field.default === 'number') return field.default;
		for (const child of Object.values(value)) {
			const found = find(child);
			if (found !== undefined) return found;
		}
		return undefined;
	};
	const found = find(new OmnichannelMessaging().description.properties);
	if (found === undefined) throw new Error('no Send Once History option in the node description');
	return found;
}

/** The entries the node records for keys the service accepted (delivery/sendOnce/store.ts), to prefill a history. */
function historyEntries(): { entries: (keys: string[]) => string[]; from: string } {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const store = require(path.join(DIST, 'delivery', 'sendOnce', 'store.js')) as {
		sendOnceHistoryEntries: (keys: string[]) => string[];
	};
	return {
		entries: store.sendOnceHistoryEntries,
		from: 'delivery/sendOnce/store.ts sendOnceHistoryEntries',
	};
}

function eventParameters(job: EventsJob) {
	return templateSendParameters(EXPRESSION_VARIABLES, {
		...(job.historyKeys !== undefined ? { sendOnceKey: SEND_ONCE_KEY } : {}),
		...(job.sendOnceHistory !== undefined ? { sendOnceHistory: job.sendOnceHistory } : {}),
	});
}

/** `count` calls of `run`, at most `atOnce` at a time, each started as soon as one ends. */
async function inPool(count: number, atOnce: number, run: (index: number) => Promise<void>) {
	let next = 0;
	const worker = async () => {
		while (next < count) await run(next++);
	};
	await Promise.all(Array.from({ length: Math.min(atOnce, count) }, worker));
}

/** The store with the history the row asks for, written in one go as the node would have left it. */
async function storeFor(job: EventsJob) {
	if (job.historyKeys === undefined) return undefined;
	const { useProcessedDataStore } = await import('../helpers/processedDataStore');
	const store = await useProcessedDataStore();
	const started = performance.now();
	const { entries, from } = historyEntries();
	const keys = Array.from(
		{ length: job.historyKeys },
		(_, i) => `+49153${String(i).padStart(7, '0')}-shipped`,
	);
	store.reset();
	// runNode's workflow and node (the default scope is the node).
	store.prefill('wf-1', 'node-1', entries(keys));
	return { store, from, prefillMs: performance.now() - started };
}

async function eventsChild() {
	const job = await new Promise<EventsJob>((resolve) =>
		process.once('message', (m: { job: EventsJob }) => resolve(m.job)),
	);
	const { runNode } = await import('../helpers/engine');
	const parameters = eventParameters(job);
	const runEvent = async (index: number, prefix: string, url: string) =>
		await runNode({
			parameters,
			credentials: { baseUrl: url, apiKey: job.service.apiKey },
			items: itemsFor(1, prefix, index),
			executionId: `${prefix}-${index}`,
		});
	// The warm-up goes to a second fake: nothing the node keeps per service carries into the timed run.
	await inPool(
		job.warmup,
		job.atOnce,
		async (i) => void (await runEvent(i, '+49152', job.service.warmupUrl)),
	);
	const held = await storeFor(job);
	const storeBefore = held && {
		calls: held.store.calls.checkProcessedAndRecord + held.store.calls.removeProcessed,
		busyMs: held.store.busyMs,
	};
	global.gc?.();
	process.send?.({ type: 'ready' });
	await new Promise<void>((resolve) => process.once('message', () => resolve()));

	const latenciesMs: number[] = [];
	let failedExecutions = 0;
	let firstError: string | undefined;
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	await inPool(job.events, job.atOnce, async (i) => {
		const started = performance.now();
		const result = await runEvent(i, '+49151', job.service.url);
		latenciesMs.push(performance.now() - started);
		if (result.error) {
			failedExecutions += 1;
			firstError ??= result.error.message;
		}
	});
	const wallMs = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	const result: EventsResult = {
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		latenciesMs,
		failedExecutions,
		firstError,
		store: held &&
			storeBefore && {
				calls:
					held.store.calls.checkProcessedAndRecord +
					held.store.calls.removeProcessed -
					storeBefore.calls,
				busyMs: held.store.busyMs - storeBefore.busyMs,
				rowMb: [...held.store.rows.values()].reduce((sum, row) => sum + row.length, 0) / 2 ** 20,
			},
		historyFrom: held?.from,
		prefillMs: held?.prefillMs,
	};
	process.send?.({ type: 'result', result }, () => process.exit(0));
}

interface EventsMeasurement {
	rowId: string;
	run: number;
	historyKeys?: number;
	engine: EventsResult;
	service: ServiceStats;
}

async function measureRow(
	config: EventsConfig,
	fake: Child,
	service: ServiceAddress,
	rowId: string,
	run: number,
	defaultHistory: number,
) {
	const times = EVENT_ROWS[rowId].historyTimes;
	const historyKeys =
		times === undefined ? undefined : times * (config.historyKeys ?? defaultHistory);
	const job: EventsJob = {
		rowId,
		events: config.events,
		atOnce: config.atOnce,
		warmup: config.warmup,
		historyKeys,
		// Above the default, the option must hold the history, or the first write trims it.
		sendOnceHistory:
			historyKeys !== undefined && historyKeys > defaultHistory ? historyKeys : undefined,
		service,
	};
	const execArgv = ['--expose-gc', '--max-old-space-size=8192'];
	const engine = forkEngine(__filename, '--events-child', execArgv, `engine ${rowId}`);
	const { result, stats } = await timedRun<EventsResult>(engine, fake, job);
	return { rowId, run, historyKeys, engine: result, service: stats } satisfies EventsMeasurement;
}

/** Nearest rank. */
function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
}

const COLUMNS: Array<[string, number, (m: EventsMeasurement, events: number) => string]> = [
	['row', 9, (m) => m.rowId],
	['run', 3, (m) => String(m.run)],
	['history keys', 12, (m) => (m.historyKeys === undefined ? '-' : String(m.historyKeys))],
	['req/msg', 7, (m, n) => (m.service.requests / n).toFixed(3)],
	['GETs', 4, (m) => String(m.service.templateGets)],
	['store calls/msg', 15, (m, n) => (m.engine.store ? (m.engine.store.calls / n).toFixed(2) : '0')],
	['store ms/msg', 12, (m, n) => (m.engine.store ? (m.engine.store.busyMs / n).toFixed(1) : '-')],
	['CPU ms/msg', 10, (m, n) => (m.engine.cpuMs / n).toFixed(1)],
	['p50 ms', 7, (m) => percentile(m.engine.latenciesMs, 0.5).toFixed(0)],
	['p95 ms', 7, (m) => percentile(m.engine.latenciesMs, 0.95).toFixed(0)],
	['wall ms', 8, (m) => m.engine.wallMs.toFixed(0)],
	['sent', 5, (m) => String(m.service.deliveredPhones)],
	['dup', 3, (m) => String(m.service.duplicateSends)],
	['429s', 4, (m) => String(m.service.tooMany)],
	[
		'failed',
		0,
		(m) =>
			m.engine.failedExecutions
				? `${m.engine.failedExecutions}: ${m.engine.firstError?.slice(0, 60)}`
				: '0',
	],
];

function printRow(m: EventsMeasurement, events: number) {
	console.log(
		COLUMNS.map(([, width, value], i) =>
			i === 0 ? value(m, events).padEnd(width) : value(m, events).padStart(width),
		).join('  '),
	);
}

const verdict = (ok: boolean) => (ok ? 'MET    ' : 'NOT MET');

/** Issue 19's targets, for the conditions it states them at (every run of every row). */
function targets(config: EventsConfig, all: EventsMeasurement[]): string[] {
	if (config.events !== 200 || config.atOnce !== 10 || config.latencyMs !== 100) {
		return [
			'(issue 19 states its targets for 200 events, 10 at once, 100 ms latency: not checked)',
		];
	}
	const of = (rowId: string) => all.filter((m) => m.rowId === rowId);
	const n = config.events;
	const lines: Array<[boolean, string] | undefined> = [
		[
			all.every((m) => m.service.requests / n <= 1.02),
			`requests to the service per message <= 1.02: ` +
				`${all.map((m) => `${m.rowId} ${(m.service.requests / n).toFixed(3)}`).join(', ')}`,
		],
		of('no-key').length
			? [
					of('no-key').every((m) => percentile(m.engine.latenciesMs, 0.5) <= 150),
					'latency p50 <= 150 ms, no key',
				]
			: undefined,
		of('key-empty').length
			? [
					of('key-empty').every((m) => percentile(m.engine.latenciesMs, 0.5) <= 170),
					'latency p50 <= 170 ms, key with an empty history',
				]
			: undefined,
		of('key-empty').length
			? [
					of('key-empty').every((m) => (m.engine.store?.calls ?? 0) / n <= 1),
					'store calls per new key <= 1.0 at 10 at once (key-empty)',
				]
			: undefined,
		of('key-full').length
			? [
					of('key-full').every((m) => m.engine.cpuMs / n <= 25),
					'full default history: CPU <= 25 ms per message',
				]
			: undefined,
		of('key-full').length
			? [
					of('key-full').every((m) => percentile(m.engine.latenciesMs, 0.95) <= 300),
					'full default history: latency p95 <= 300 ms',
				]
			: undefined,
	];
	const noKeyWall = of('no-key').map((m) => m.engine.wallMs);
	if (of('key-full').length && noKeyWall.length) {
		const ratio = Math.max(...of('key-full').map((m) => m.engine.wallMs)) / Math.min(...noKeyWall);
		lines.push([
			ratio <= 1.5,
			`full default history: wall <= 1.5 × the no-key row (worst ${ratio.toFixed(2)} ×)`,
		]);
	}
	return lines.flatMap((line) => (line ? [`${verdict(line[0])}  ${line[1]}`] : []));
}

export async function orchestrateEvents(config: EventsConfig): Promise<boolean> {
	for (const rowId of config.rows) {
		if (!(rowId in EVENT_ROWS))
			throw new Error(
				`unknown row ${rowId} for --preset events; use ${Object.keys(EVENT_ROWS).join(', ')}`,
			);
	}
	const defaultHistory = defaultSendOnceHistory();
	const { fake, service } = await startFake(config);
	console.log(
		`events bench (issue 19, the CRM shape): ${config.events} executions of one WhatsApp template message each, ` +
			`${config.atOnce} at once in one engine process, service latency ${config.latencyMs} ms ` +
			`(limit ${config.limit} in flight), ` +
			`default options, ${config.runs} run(s), warm-up ${config.warmup} executions against a ` +
			`second fake, node ${process.version}`,
	);
	console.log(
		`history: ${config.historyKeys ?? defaultHistory} keys in key-full (the node's default ` +
			`Send Once History is ${defaultHistory}); each row in a fresh engine process`,
	);
	console.log(`machine: ${cpus().length} cores, load average ${loadAverage()} at start\n`);
	for (const rowId of config.rows) console.log(`  ${rowId.padEnd(9)}  ${EVENT_ROWS[rowId].label}`);
	console.log('');
	console.log(
		COLUMNS.map(([name, width], i) => (i === 0 ? name.padEnd(width) : name.padStart(width))).join(
			'  ',
		),
	);
	const all: EventsMeasurement[] = [];
	try {
		for (let run = 1; run <= config.runs; run++) {
			for (const rowId of config.rows) {
				const m = await measureRow(config, fake, service, rowId, run, defaultHistory);
				all.push(m);
				printRow(m, config.events);
			}
		}
	} finally {
		await fake.end();
	}
	console.log('');
	console.log(
		`load average at end: ${loadAverage()} (other processes on the machine inflate times)`,
	);
	for (const m of all.filter((x) => x.engine.store)) {
		console.log(
			`  ${m.rowId} run ${m.run}: store row ${m.engine.store?.rowMb.toFixed(1)} MB at the end, ` +
				`prefilled in ${m.engine.prefillMs?.toFixed(0)} ms from ${m.engine.historyFrom}`,
		);
	}
	console.log('');
	console.log('targets (issue 19; informational, the exit code does not depend on them):');
	for (const line of targets(config, all)) console.log(`  ${line}`);
	console.log('');
	console.log(
		'columns: req/msg = every request the service received ÷ messages (template reads + ' +
			'sends); GETs = template reads; ' +
			'store calls/msg = processed-data store calls ÷ messages; store ms = time inside them; CPU ' +
			'= process.cpuUsage of the engine ' +
			'process over the run ÷ messages; p50/p95 = execution latency, start to end of each ' +
			'execution; sent = phones the service ' +
			'accepted; dup = messages a phone got twice. Timings are noisy on a shared machine.',
	);
	if (config.json) {
		const { writeFileSync } = await import('node:fs');
		writeFileSync(config.json, JSON.stringify({ config, measurements: all }, null, 2));
		console.log(`measurements written to ${config.json}`);
	}
	return true;
}

if (require.main === module && process.argv.includes('--events-child')) {
	eventsChild().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
