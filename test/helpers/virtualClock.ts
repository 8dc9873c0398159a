/**
 * A clock that moves only when a test moves it: the delivery engine's stateful parts take one when
 * they are made (delivery/clock.ts's Clock), so their unit tests run their timings in no time.
 * Every wait is an event in one queue, in time order and, at one time, in the order set; a unit
 * test moves the clock with `advance`, the pacer's simulator (test/unit/delivery/simulator.ts)
 * runs it event by event with `run`. No timer and no real time: the same test gives the same run.
 */
import type { Clock } from '../../nodes/OmnichannelMessaging/delivery/clock';

interface Event {
	at: number;
	order: number;
	run: () => void;
}

/** Lets every promise that can settle now settle (a few turns of the event loop). */
export async function settle(): Promise<void> {
	for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
}

export class VirtualClock implements Clock {
	private order = 0;

	private events: Event[] = [];

	/**
	 * `random` defaults to the middle of the jitter range, so that a unit test's timings do not
	 * depend on chance. Events due within `batchMs` of each other run together before any promise
	 * job (`run` only): a busy event loop, n8n's, reads several answers in one turn.
	 */
	constructor(
		readonly random: () => number = () => 0.5,
		private readonly batchMs = 0,
		private time = 1_000_000,
	) {}

	now = (): number => this.time;

	/** Runs `run` at `at` (never before now); events at one time run in the order they were set. */
	at(at: number, run: () => void): Event {
		const event = { at: Math.max(this.time, at), order: this.order++, run };
		let low = 0;
		let high = this.events.length;
		while (low < high) {
			const mid = (low + high) >> 1;
			const other = this.events[mid];
			if (other.at < event.at || (other.at === event.at && other.order < event.order))
				low = mid + 1;
			else high = mid;
		}
		this.events.splice(low, 0, event);
		return event;
	}

	/** A wait of no time ends at once; an abort ends a wait with an error, as REAL_CLOCK's does. */
	wait = async (ms: number, signal?: AbortSignal): Promise<void> =>
		await new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('aborted'));
			if (ms <= 0) return resolve();
			const onAbort = () => {
				this.events = this.events.filter((other) => other !== event);
				reject(new Error('aborted'));
			};
			const event = this.at(this.time + ms, () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			});
			signal?.addEventListener('abort', onAbort, { once: true });
		});

	/** How many waits have not ended yet. */
	get pending(): number {
		return this.events.length;
	}

	/** Moves time to each wait due within `ms` in turn, letting what it sets off run, then to the end. */
	async advance(ms: number): Promise<void> {
		const end = this.time + ms;
		for (;;) {
			await settle();
			const next = this.events[0];
			if (!next || next.at > end) break;
			this.events.shift();
			this.time = Math.max(this.time, next.at);
			next.run();
		}
		this.time = end;
		await settle();
	}

	/**
	 * Runs events until `done` holds or nothing is left; returns false when the time limit passed
	 * first. `observe` sees each stretch of time before the clock moves over it.
	 */
	async run(
		done: () => boolean,
		limitMs: number,
		observe?: (from: number, to: number) => void,
	): Promise<boolean> {
		for (;;) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (done()) return true;
			const next = this.events.shift();
			if (!next || next.at > limitMs) return false;
			observe?.(this.time, next.at);
			this.time = next.at;
			next.run();
			while (
				this.batchMs > 0 &&
				this.events.length > 0 &&
				this.events[0].at <= next.at + this.batchMs
			) {
				const together = this.events.shift() as Event;
				this.time = together.at;
				together.run();
			}
		}
	}
}
