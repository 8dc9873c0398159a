/*
 * Executions sending through the node's own send loop (delivery/pacer.ts) and pacers against a
 * simulated service (simulator.ts), and what the service saw.
 */
import { sendPaced } from '../../../nodes/OmnichannelMessaging/delivery/pacer';
import type { PacerApi } from '../../../nodes/OmnichannelMessaging/delivery/pacer';
import type { Clock } from '../../../nodes/OmnichannelMessaging/delivery/clock';
import { SimService, VirtualClock, seeded } from './simulator';
import type { ServiceSpec } from './simulator';

/** One execution: `items` messages from process `process`, started at `startAt`. */
export interface Execution {
	process: number;
	startAt: number;
	items: number;
	concurrency?: number;
	maxPerSecond?: number;
}

/** The pacer under test, with what the report reads of it. */
export type SimPacer = PacerApi & { snapshot(): { window: number } };

export interface Scenario {
	seed: number;
	service: ServiceSpec;
	/** One pacer per process, as n8n keeps one per service in each process. */
	processes: number;
	executions: Execution[];
	makePacer: (clock: Clock) => SimPacer;
	/** The senders' event loop reads answers due within this many ms in one turn (simulator.ts). */
	batchMs?: number;
}

export interface Report {
	wall: number;
	/** When the broadcast's first request went out (the last execution is the broadcast). */
	broadcastStart: number;
	/** items × latency ÷ limit, or items ÷ rate, whichever is longer: no pacer can do better. */
	floor: number;
	refusals: number[];
	lost: number;
	sentTwice: number;
	requests: number;
	averageServing: number;
	/** After the first refusal, while sends remained, the time process 0's window was below the service's limit. */
	belowLimitMs: number;
	timedOut: boolean;
}

function floorOf(spec: ServiceSpec, items: number): number {
	const byCount = spec.inFlightLimit
		? (items * spec.latencyMs) / Math.min(spec.inFlightLimit, spec.limitDrop?.to ?? Infinity)
		: 0;
	const byRate = spec.ratePerSecond ? (items * 1000) / spec.ratePerSecond : 0;
	return Math.max(byCount, byRate);
}

async function runExecution(
	clock: VirtualClock,
	service: SimService,
	pacer: SimPacer,
	execution: Execution,
	index: number,
	started: number[],
) {
	await clock.wait(execution.startAt);
	const limits = {
		ceiling: execution.concurrency ?? 20,
		maxPerSecond: execution.maxPerSecond ?? 0,
	};
	let next = 0;
	const worker = async () => {
		while (next < execution.items) {
			const message = `${index}-${next++}`;
			await sendPaced(pacer, limits, undefined, async () => {
				started[index] = Math.min(started[index], clock.now());
				return await service.request(execution.process, message);
			});
		}
	};
	await Promise.all(Array.from({ length: limits.ceiling }, async () => await worker()));
}

export async function simulate(scenario: Scenario): Promise<Report> {
	const random = seeded(scenario.seed);
	const clock = new VirtualClock(random, scenario.batchMs ?? 0, 0);
	const service = new SimService(clock, scenario.service, seeded(scenario.seed * 7 + 1));
	const pacers = Array.from({ length: scenario.processes }, () => scenario.makePacer(clock));
	const started = scenario.executions.map(() => Number.POSITIVE_INFINITY);
	let finished = 0;
	for (const [index, execution] of scenario.executions.entries()) {
		void runExecution(clock, service, pacers[execution.process], execution, index, started).then(
			() => (finished += 1),
		);
	}
	let belowLimitMs = 0;
	const observe = (from: number, to: number) => {
		const firstRefusal = service.arrivals.find((arrival) => !arrival.taken);
		if (
			firstRefusal &&
			from >= firstRefusal.at &&
			pacers[0].snapshot().window < service.limitAt(from)
		)
			belowLimitMs += to - from;
	};
	const done = await clock.run(() => finished === scenario.executions.length, 600_000, observe);
	const items = scenario.executions.reduce((sum, execution) => sum + execution.items, 0);
	const counts = [...service.takenCount.values()];
	const broadcast = scenario.executions[scenario.executions.length - 1];
	return {
		wall: clock.now(),
		broadcastStart: started[started.length - 1],
		floor: floorOf(scenario.service, broadcast.items),
		refusals: service.arrivals.filter((arrival) => !arrival.taken).map((arrival) => arrival.at),
		lost: items - counts.length,
		sentTwice: counts.filter((count) => count > 1).length,
		requests: service.arrivals.length,
		averageServing: service.averageServing(clock.now()),
		belowLimitMs,
		timedOut: !done,
	};
}
