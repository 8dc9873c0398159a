import { sleep } from 'n8n-workflow';

/**
 * Time as the delivery engine's stateful parts (the pacer, the template cache, the send-once
 * history rows) see it: n8n's real one in the node, a virtual one in a unit test or a simulation.
 */
export interface Clock {
	now(): number;
	/** Resolves after `ms`, or rejects once `signal` aborts. */
	wait(ms: number, signal?: AbortSignal): Promise<void>;
	/** A number in [0, 1), for the jitter that keeps waiting sends from coming back in one burst. */
	random(): number;
}

/**
 * n8n-workflow 2.x's sleep ends on abort; older ones ignore the signal, so the abort is raced too
 * (n8n 1.x users would otherwise wait out a cancelled execution's pause).
 */
async function waitOrAbort(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(Math.max(0, ms));
	if (signal.aborted) throw signal.reason;
	let onAbort: () => void = () => {};
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(signal.reason);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(Math.max(0, ms), signal), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * The process's clock. n8n-workflow's sleep, because n8n Cloud code may not use Node's timers or
 * process hooks.
 */
export const REAL_CLOCK: Clock = Object.freeze({
	now: () => Date.now(),
	wait: waitOrAbort,
	random: () => Math.random(),
});

/**
 * One object per key for every execution of this process, made on the clock the caller gives the
 * first time its key is asked for: executions sending to one service share its pacer, and
 * executions of one workflow share its send-once history row. The caller passes REAL_CLOCK as it
 * imported it, so that a clock replacing it reaches the objects too.
 */
export function sharedPerKey<T>(clock: Clock, make: (clock: Clock) => T): (key: string) => T {
	const made = new Map<string, T>();
	return (key) => {
		let shared = made.get(key);
		if (!shared) {
			shared = make(clock);
			made.set(key, shared);
		}
		return shared;
	};
}

/** How much work may run between two turns of the event loop. */
export interface TurnBudget {
	ms: number;
	items: number;
}

/**
 * n8n evaluates expressions synchronously and a promise that is already settled never lets the
 * event loop run: a loop over thousands of items would hold n8n's whole process (health checks,
 * webhooks, the editor) until it ends. 40 ms keeps n8n answering within a blink; the item count
 * bounds the span on any clock, and makes the turns countable by a test.
 */
export const TURN_BUDGET: TurnBudget = Object.freeze({ ms: 40, items: 256 });

/**
 * Gives the event loop a turn once `budget` worth of work has run since the last one. One per
 * loop over items; `after` is awaited after each item.
 */
export class EventLoopTurns {
	private since: number;

	private items = 0;

	constructor(
		private readonly clock: Clock,
		private readonly budget: TurnBudget = TURN_BUDGET,
	) {
		this.since = clock.now();
	}

	async after(): Promise<void> {
		this.items += 1;
		if (this.items < this.budget.items && this.clock.now() - this.since < this.budget.ms) return;
		await this.clock.wait(0);
		this.items = 0;
		this.since = this.clock.now();
	}
}
