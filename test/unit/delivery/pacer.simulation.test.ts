/**
 * The pacer (delivery/pacer.ts, delivery/paceWindow.ts) and the rate-limit policy (delivery/paceWindow.ts),
 * through the node's own send loop (delivery/pacer.ts), against a simulated service on a virtual
 * clock (simulator.ts): no sockets, no real time, the same answer on every run.
 *
 * What every scenario asserts:
 * - every message is taken by the service exactly once (0 lost, 0 sent twice);
 * - the wall time, counted from the broadcast's first request, is within a stated bound of the
 *   floor (items × service time ÷ limit, or items ÷ rate). With a network delay of up to J ms each
 *   way, a window that never holds more than the limit keeps the service busy at best
 *   S ÷ (S + J) of the time, so the bound is stated against floor × (S + J) ÷ S, plus the first
 *   burst's pause;
 * - against an in-flight limit in one process: refusals come in at most 3 bursts (refusals less
 *   than a second apart), the first one included, plus one per probe the run had time for, and
 *   the window is below the service's limit for at most 6 s in all after the first refusal.
 */
import fc from 'fast-check';

import { PACING } from '../../../nodes/OmnichannelMessaging/constants';
import { Pacer } from '../../../nodes/OmnichannelMessaging/delivery/pacer';
import type { Clock } from '../../../nodes/OmnichannelMessaging/delivery/clock';
import { simulate } from './scenario';
import type { Execution, Report, SimPacer } from './scenario';
import type { ServiceSpec } from './simulator';

const SEED = Number(process.env.FUZZ_SEED ?? 424242);

/**
 * The pacer under test; PACER_UNDER_TEST=<module exporting OldPacer> runs the suite against
 * another one (docs/performance.md).
 */
const makePacer = (clock: Clock): SimPacer =>
	process.env.PACER_UNDER_TEST
		? // eslint-disable-next-line @typescript-eslint/no-require-imports
			new (require(process.env.PACER_UNDER_TEST).OldPacer)(clock)
		: new Pacer(clock, PACING);

const broadcast = (items: number, extra: Partial<Execution> = {}): Execution => ({
	process: 0,
	startAt: 0,
	items,
	...extra,
});

async function run(
	seed: number,
	service: ServiceSpec,
	executions: Execution[],
	processes = 1,
	batchMs = 0,
): Promise<Report> {
	return await simulate({ seed, service, processes, executions, makePacer, batchMs });
}

/** Refusals grouped: one less than a second after the last belongs to the same burst. */
function bursts(refusals: number[]): number {
	return refusals.filter((at, index) => index === 0 || at - refusals[index - 1] >= 1_000).length;
}

function expectEachTakenOnce(report: Report) {
	expect({ timedOut: report.timedOut, lost: report.lost, sentTwice: report.sentTwice }).toEqual({
		timedOut: false,
		lost: 0,
		sentTwice: 0,
	});
}

/** Wall from the broadcast's first request ÷ the floor with the network's share: what the bound is stated on. */
function stretch(report: Report, service: ServiceSpec): number {
	const network = (service.latencyMs + service.jitterMs) / service.latencyMs;
	const pause = 1_000 + PACING.initialWindow * service.latencyMs;
	return (report.wall - report.broadcastStart - pause) / (report.floor * network);
}

describe('one process, a limit on requests in flight, requests arriving out of order', () => {
	const arbitrary = fc.record({
		seed: fc.integer({ min: 1, max: 1_000_000 }),
		limit: fc.integer({ min: 3, max: 16 }),
		latencyMs: fc.constantFrom(50, 100, 200),
		jitterShare: fc.constantFrom(0, 0.1, 0.3),
		coldMs: fc.constantFrom(0, 0, 150, 300),
		batchMs: fc.constantFrom(0, 2, 5),
		refusal: fc.constantFrom<Pick<ServiceSpec, 'retryAfter' | 'status'>>(
			{ retryAfter: '1' },
			{ retryAfter: '0' },
			{},
			{ retryAfter: '1', status: 503 },
		),
	});

	test(
		'every message once; wall within 1.3 × the floor (network included) plus the first pause; ' +
			'few bursts; the window back at the limit',
		async () => {
			await fc.assert(
				fc.asyncProperty(
					arbitrary,
					async ({ seed, limit, latencyMs, jitterShare, coldMs, batchMs, refusal }) => {
						const coldRequests = { count: 2, extraMs: coldMs };
						const service: ServiceSpec = {
							latencyMs,
							inFlightLimit: limit,
							jitterMs: latencyMs * jitterShare,
							coldRequests,
							...refusal,
						};
						const items = Math.ceil((8_000 * limit) / latencyMs);
						const report = await run(seed, service, [broadcast(items)], 1, batchMs);
						expectEachTakenOnce(report);
						expect(stretch(report, service)).toBeLessThanOrEqual(1.3);
						const probes = Math.floor(report.wall / PACING.probeAfterMs);
						expect(bursts(report.refusals)).toBeLessThanOrEqual(3 + probes);
						expect(report.belowLimitMs).toBeLessThanOrEqual(6_000);
					},
				),
				{ seed: SEED, numRuns: 40 },
			);
		},
	);

	test(
		'the case of issue 29: 600 and 3,000 recipients, limit 10, 100 ms, 0–30 ms each way, ' +
			'answers read 5 ms at a time',
		async () => {
			const service: ServiceSpec = {
				latencyMs: 100,
				inFlightLimit: 10,
				jitterMs: 30,
				retryAfter: '1',
			};
			for (const [seed, items] of [
				[1, 600],
				[2, 600],
				[3, 3_000],
			]) {
				const report = await run(seed, service, [broadcast(items)], 1, 5);
				expectEachTakenOnce(report);
				expect(stretch(report, service)).toBeLessThanOrEqual(1.25);
			}
		},
	);

	test('the same seed gives the same run', async () => {
		const service: ServiceSpec = {
			latencyMs: 100,
			inFlightLimit: 10,
			jitterMs: 30,
			retryAfter: '1',
		};
		expect(await run(7, service, [broadcast(300)])).toEqual(
			await run(7, service, [broadcast(300)]),
		);
	});
});

describe('a limit on sends per second (token bucket), alone and with an in-flight limit', () => {
	test('every message once; wall within 1.35 × the floor plus the first pause', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 1_000_000 }),
				fc.integer({ min: 10, max: 80 }),
				fc.boolean(),
				async (seed, rate, alsoInFlight) => {
					const service: ServiceSpec = {
						latencyMs: 100,
						ratePerSecond: rate,
						inFlightLimit: alsoInFlight ? Math.ceil(rate / 10) + 2 : undefined,
						jitterMs: 20,
						retryAfter: '1',
					};
					const report = await run(seed, service, [broadcast(rate * 8)]);
					expectEachTakenOnce(report);
					expect(stretch(report, { ...service, jitterMs: 0 })).toBeLessThanOrEqual(1.35);
				},
			),
			{ seed: SEED, numRuns: 20 },
		);
	});
});

/** 15 runs of a property over random seeds and limits on requests in flight within `limits`. */
async function forSeedsAndLimits(
	limits: { min: number; max: number },
	check: (seed: number, limit: number) => Promise<void>,
) {
	await fc.assert(
		fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer(limits), check),
		{ seed: SEED, numRuns: 15 },
	);
}

/** A service at 100 ms a request with 20 ms of jitter, refusing with Retry-After: 1 above `limit` in flight. */
const limitedService = (limit: number, more: Partial<ServiceSpec> = {}): ServiceSpec => ({
	latencyMs: 100,
	inFlightLimit: limit,
	jitterMs: 20,
	retryAfter: '1',
	...more,
});

describe('the service changes under the broadcast', () => {
	test(
		'a second process sharing the service: every message once, both done within 2.6 × the ' +
			'floor of both',
		async () => {
			await forSeedsAndLimits({ min: 6, max: 16 }, async (seed, limit) => {
				const service = limitedService(limit);
				const items = limit * 40;
				const report = await run(
					seed,
					service,
					[broadcast(items, { process: 1 }), broadcast(items, { startAt: 500 })],
					2,
				);
				expectEachTakenOnce(report);
				const floorOfBoth = (2 * items * service.latencyMs) / limit;
				expect(report.wall / floorOfBoth).toBeLessThanOrEqual(2.6);
			});
		},
	);

	test(
		'a limit that drops to half mid-broadcast: every message once, wall within 1.6 × the floor ' +
			'at the lower limit (network included) plus the first pause',
		async () => {
			await forSeedsAndLimits({ min: 8, max: 16 }, async (seed, limit) => {
				const to = Math.ceil(limit / 2);
				const service = limitedService(limit, { limitDrop: { atMs: 3_000, to } });
				const report = await run(seed, service, [broadcast(to * 100)]);
				expectEachTakenOnce(report);
				expect(stretch(report, service)).toBeLessThanOrEqual(1.6);
			});
		},
	);
});

describe('Retry-After and the rate cap', () => {
	test(
		'a Retry-After pauses every start to the service: an execution that starts during the ' +
			'pause waits for its end',
		async () => {
			// Two requests at once, the second refused at 100 ms with Retry-After: 2.
			const service: ServiceSpec = {
				latencyMs: 100,
				inFlightLimit: 1,
				jitterMs: 0,
				retryAfter: '2',
			};
			const report = await run(1, service, [broadcast(2), broadcast(1, { startAt: 200 })]);
			expectEachTakenOnce(report);
			expect(report.refusals).toEqual([0]);
			expect(report.broadcastStart).toBeGreaterThanOrEqual(2_100);
		},
	);

	test('Max Messages per Second spaces the starts exactly', async () => {
		const service: ServiceSpec = { latencyMs: 100, jitterMs: 0 };
		const report = await run(1, service, [broadcast(41, { maxPerSecond: 20 })]);
		expectEachTakenOnce(report);
		expect(report.wall).toBe(2_000 + service.latencyMs);
	});
});

describe('single-message executions', () => {
	const service: ServiceSpec = { latencyMs: 100, inFlightLimit: 10, jitterMs: 15, retryAfter: '1' };
	const events = (count: number, from: number, gapMs: number) =>
		Array.from({ length: count }, (_, i) => broadcast(1, { startAt: from + i * gapMs }));
	/** Runs the executions on seeds 1, 2 and 3: every message taken once each time, then `check`. */
	const onSeeds1To3 = async (
		executions: () => Array<ReturnType<typeof broadcast>>,
		check: (report: Report) => void,
	) => {
		for (const seed of [1, 2, 3]) {
			const report = await run(seed, service, executions());
			expectEachTakenOnce(report);
			check(report);
		}
	};

	test(
		'after the level is learned, 60 of them over 20 s do not grow the window: the next ' +
			'broadcast starts without a 429',
		async () => {
			await onSeeds1To3(
				() => [broadcast(300), ...events(60, 8_000, 333), broadcast(600, { startAt: 30_000 })],
				(report) => {
					expect(report.refusals.filter((at) => at >= 30_000 && at < 31_000)).toEqual([]);
				},
			);
		},
	);

	test(
		'60 of them on a fresh process, then its first broadcast: within 1.25 × the floor (network ' +
			'included) plus the first pause',
		async () => {
			await onSeeds1To3(
				() => [...events(60, 0, 100), broadcast(600, { startAt: 7_000 })],
				(report) => {
					expect(stretch(report, service)).toBeLessThanOrEqual(1.25);
				},
			);
		},
	);
});
