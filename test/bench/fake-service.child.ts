/*
 * The fake Omnichannel Messaging service in a process of its own, so its event loop and the
 * engine's never wait on each other. Started by broadcast.bench.ts with fork(); talks over IPC:
 *   child -> parent  { type: 'listening', url, apiKey, warmupUrl }
 *                    warmupUrl: a second fake on its own port, without limits, for the engines'
 *                    warm-up, so what the node learns per service while warming up does not carry
 *                    into the timed run
 *   parent -> child  { type: 'reset' } -> { type: 'reset-done' }
 *   parent -> child  { type: 'stats' } -> { type: 'stats', stats: ServiceStats }
 *   parent -> child  { type: 'limits', limits } -> { type: 'limits-set' }  (FakeService.setLimits;
 *                    null switches a limit off, JSON having no Infinity)
 *   parent -> child  { type: 'stop' }  (closes the server and exits)
 * Options come as one JSON argument: { latencyMs, concurrencyLimit, retryAfter, rateLimitPerSecond }.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { FakeService as FakeServiceInstance, FakeServiceOptions } from '../fake-service';

/** test/fake-service lives in the source tree, not in the compiled output: find it by walking up. */
function sourceRoot(): string {
	let dir = __dirname;
	for (;;) {
		if (existsSync(path.join(dir, 'test', 'fake-service', 'index.js'))) return dir;
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error('test/fake-service not found above ' + __dirname);
		dir = parent;
	}
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { FakeService } = require(
	path.join(sourceRoot(), 'test', 'fake-service'),
) as typeof import('../fake-service');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { repeatsOf } = require(path.join(sourceRoot(), 'test', 'fake-service', 'child')) as {
	repeatsOf: (counts: Map<string, number>) => number;
};

export const SEND_PATH = '/stable/open/whatsapp/send-template-message';
export const DETAIL_PATH = '/stable/open/whatsapp/get-template-detail';

export interface ServiceStats {
	requests: number;
	sendPosts: number;
	templateGets: number;
	otherRequests: number;
	byStatus: Record<string, number>;
	tooMany: number;
	/** 429s by the limit that answered them: in flight, or the requests-per-second bucket. */
	tooManyInFlight: number;
	tooManyRate: number;
	/** Distinct phones the service accepted (2xx) at least one send for. */
	deliveredPhones: number;
	/** Accepted sends beyond the first, per phone: messages a customer got twice. */
	duplicateSends: number;
	/** POSTs beyond the first, per phone, whatever the answer (429 retries count here). */
	repeatedPosts: number;
	peakInFlight: number;
	/** Requests being served on average, from the first admitted one to the last answer. */
	averageServing: number;
	/** After the first 429, how long fewer requests than the in-flight limit were being served. */
	belowLimitAfterBurstMs: number;
	/** TCP connections the service accepted: one per request means no keep-alive. */
	connections: number;
	connectionHeaders: Record<string, number>;
	firstRequestAt?: number;
	lastRequestAt?: number;
	firstSendAt?: number;
	lastSendAt?: number;
	/** CPU the service process used since the last reset: is the fake itself the bottleneck? */
	serviceCpuMs: number;
	serviceLoopDelayP99Ms: number;
	serviceLoopDelayMaxMs: number;
}

function startedFake(options: FakeServiceOptions) {
	const fake: FakeServiceInstance & { inFlight?: number; messageCounter?: number } =
		new FakeService(options);
	let connections = 0;
	fake.server.on('connection', () => {
		connections += 1;
	});
	let cpu0 = process.cpuUsage();
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	const stats = (): ServiceStats => {
		const byStatus: Record<string, number> = {};
		const connectionHeaders: Record<string, number> = {};
		const postsPerPhone = new Map<string, number>();
		const acceptedPerPhone = new Map<string, number>();
		let sendPosts = 0;
		let templateGets = 0;
		let otherRequests = 0;
		let firstSendAt: number | undefined;
		let lastSendAt: number | undefined;
		for (const r of fake.requests) {
			const status = String(r.status ?? 'pending');
			byStatus[status] = (byStatus[status] ?? 0) + 1;
			const connection = String(r.headers.connection ?? '(none)').toLowerCase();
			connectionHeaders[connection] = (connectionHeaders[connection] ?? 0) + 1;
			if (r.method === 'POST' && r.path === SEND_PATH) {
				sendPosts += 1;
				firstSendAt ??= r.time;
				lastSendAt = r.time;
				const phone = String(r.body?.customer_phone ?? '');
				postsPerPhone.set(phone, (postsPerPhone.get(phone) ?? 0) + 1);
				if (typeof r.status === 'number' && r.status >= 200 && r.status < 300) {
					acceptedPerPhone.set(phone, (acceptedPerPhone.get(phone) ?? 0) + 1);
				}
			} else if (r.method === 'GET' && r.path === DETAIL_PATH) {
				templateGets += 1;
			} else {
				otherRequests += 1;
			}
		}
		const duplicateSends = repeatsOf(acceptedPerPhone);
		const repeatedPosts = repeatsOf(postsPerPhone);
		return {
			requests: fake.requests.length,
			sendPosts,
			templateGets,
			otherRequests,
			byStatus,
			tooMany: byStatus['429'] ?? 0,
			tooManyInFlight: fake.tooMany.inFlight,
			tooManyRate: fake.tooMany.rate,
			deliveredPhones: acceptedPerPhone.size,
			duplicateSends,
			repeatedPosts,
			peakInFlight: fake.peakInFlight,
			...fake.occupancyFigures(),
			connections,
			connectionHeaders,
			firstRequestAt: fake.requests[0]?.time,
			lastRequestAt: fake.requests[fake.requests.length - 1]?.time,
			firstSendAt,
			lastSendAt,
			serviceCpuMs: (() => {
				const cpu = process.cpuUsage(cpu0);
				return (cpu.user + cpu.system) / 1000;
			})(),
			serviceLoopDelayP99Ms: loop.percentile(99) / 1e6,
			serviceLoopDelayMaxMs: loop.max / 1e6,
		};
	};
	const reset = () => {
		fake.reset();
		connections = 0;
		fake.messageCounter = 0;
		cpu0 = process.cpuUsage();
		loop.reset();
	};
	return { fake, stats, reset };
}

let traceRun = 0;

/**
 * BENCH_TRACE=DIR: each timed run's sends (ms from the first, status, in flight at arrival) as a
 * file, to see how a pacer behaved.
 */
function traceSends(fake: FakeServiceInstance) {
	const dir = process.env.BENCH_TRACE;
	if (!dir || fake.requests.length === 0) return;
	const sends = fake.requests.filter((r) => r.method === 'POST' && r.path === SEND_PATH);
	const t0 = sends[0]?.time ?? 0;
	const lines = sends.map((r) => `${(r.time - t0).toFixed(1)}\t${r.status}\t${r.inFlight ?? ''}`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, `sends-${process.pid}-${++traceRun}.tsv`), lines.join('\n') + '\n');
}

async function main() {
	const options = JSON.parse(process.argv[2] ?? '{}') as FakeServiceOptions;
	const { fake, stats, reset } = startedFake(options);
	const url = await fake.start(0, '127.0.0.1');
	const warmup = new FakeService({ latencyMs: options.latencyMs, apiKey: fake.apiKey });
	const warmupUrl = await warmup.start(0, '127.0.0.1');
	const send = (message: unknown) => process.send?.(message);
	process.on('message', (message: { type: string }) => {
		switch (message.type) {
			case 'reset':
				reset();
				send({ type: 'reset-done' });
				break;
			case 'limits':
				fake.setLimits(
					(message as unknown as { limits: Parameters<FakeServiceInstance['setLimits']>[0] })
						.limits,
				);
				send({ type: 'limits-set' });
				break;
			case 'stats':
				traceSends(fake);
				send({ type: 'stats', stats: stats() });
				break;
			case 'stop':
				void Promise.all([fake.close(), warmup.close()]).then(() => process.exit(0));
				break;
		}
	});
	// The parent going away must not leave the server running.
	process.on('disconnect', () => process.exit(0));
	send({
		type: 'listening',
		url,
		warmupUrl,
		apiKey: fake.apiKey,
		latencyMs: fake.latencyMs,
		concurrencyLimit: fake.concurrencyLimit,
	});
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
