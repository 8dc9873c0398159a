import { sleep } from 'n8n-workflow';

import { PACING } from '../constants';
import { backoffDelay } from './retryAfter';

/** The pacer's timings (constants.ts, PACING). */
export type PacingTimings = { readonly [K in keyof typeof PACING]: number };

/** How an execution asks to send: its own upper bound on the window, and its rate cap (0: none). */
export interface SendLimits {
	ceiling: number;
	maxPerSecond: number;
}

/** A place in the window, held for one request; given back with what the service answered. */
export interface Permit {
	readonly startedAt: number;
	/** How many were in flight, this one included, when it started. */
	readonly inFlightAtStart: number;
	/** It took the last place of the window: only such a send shows the window is used up. */
	readonly filledWindow: boolean;
}

/** Waits, but wakes up at once when `signal` aborts. Never longer than `ms`. */
export async function waitUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted || ms <= 0) return;
	if (!signal) return await sleep(ms);
	let onAbort: () => void = () => {};
	const aborted = new Promise<void>((resolve) => {
		onAbort = resolve;
		signal.addEventListener('abort', onAbort, { once: true });
	});
	// n8n-workflow 2.x's sleep clears its timer on abort; older ones ignore the signal, so the race stays.
	await Promise.race([sleep(ms, signal).catch(() => undefined), aborted]);
	signal.removeEventListener('abort', onAbort);
}

/**
 * The pace of one service, shared by every execution in this process that sends to it: an
 * in-flight window that grows while answers come back and shrinks on "not taken" (429, or 503 with
 * Retry-After), a pause of all new starts while the service asks for one, and an optional rate cap.
 */
export class Pacer {
	private window: number;

	private threshold = Number.POSITIVE_INFINITY;

	/** The in-flight level the service last took without complaint, learned from its 429s. */
	private acceptedLevel = Number.POSITIVE_INFINITY;

	private inFlight = 0;

	private pausedUntil = 0;

	private lastDecreaseAt = 0;

	private lastThrottleAt = 0;

	private nextStartAt = 0;

	/** Sends per second the service took between two bursts of "not taken"; 0: no rate learned. */
	private learnedRate = 0;

	private rateHeldUntil = 0;

	/** Answers the service took since the last burst of "not taken". */
	private takenSinceBurst = 0;

	/** "Not taken" answers since the last success, for the pause when the service names none. */
	private throttlesInARow = 0;

	/** When the service began refusing without taking anything since. */
	private refusingSince = 0;

	private lastSuccessAt = 0;

	/** Time spent with the window full since the last burst: idle or half-used time does not count toward a probe. */
	private fullForMs = 0;

	private lastFullAt = 0;

	private waiting: Array<() => void> = [];

	constructor(private readonly timings: PacingTimings = PACING) {
		this.window = timings.initialWindow;
	}

	/** Waits for a place in the window; undefined when `signal` aborted first. */
	async acquire(limits: SendLimits, signal?: AbortSignal): Promise<Permit | undefined> {
		for (;;) {
			if (signal?.aborted) return undefined;
			const now = Date.now();
			if (now < this.pausedUntil) {
				const spread = Math.max(50, (this.pausedUntil - this.lastThrottleAt) * this.timings.resumeJitter);
				await waitUnlessAborted(this.pausedUntil - now + Math.random() * spread, signal);
				continue;
			}
			if (this.inFlight >= Math.max(1, Math.min(Math.floor(this.window), limits.ceiling))) {
				await this.nextRelease(signal);
				continue;
			}
			const rate = this.startRate(limits, now);
			if (rate > 0 && now < this.nextStartAt) {
				await waitUnlessAborted(this.nextStartAt - now, signal);
				continue;
			}
			if (rate > 0) this.nextStartAt = Math.max(now, this.nextStartAt) + 1000 / rate;
			this.inFlight += 1;
			// Before any 429 (slow start) half the window counts as used, so it still doubles per round trip.
			const places = Math.min(Math.floor(this.window), limits.ceiling);
			const filledWindow = this.inFlight >= (this.window < this.threshold ? places / 2 : places);
			return { startedAt: now, inFlightAtStart: this.inFlight, filledWindow };
		}
	}

	/**
	 * The service took the request (whatever it then answered): the window may grow, but only when
	 * this send had filled it. Executions that never fill it (CRM events a few at a time) would
	 * otherwise grow it far past what the service takes, and the next broadcast would start with a
	 * burst of 429s and the pause the service asks for.
	 */
	accepted(permit: Permit, limits: SendLimits, succeeded: boolean): void {
		const now = Date.now();
		if (succeeded) {
			this.lastSuccessAt = now;
			this.throttlesInARow = 0;
		}
		this.takenSinceBurst += 1;
		if (permit.filledWindow) {
			this.fullForMs += now - Math.max(permit.startedAt, this.lastFullAt);
			this.lastFullAt = now;
		}
		const cap = this.fullForMs < this.timings.probeAfterMs ? Math.min(limits.ceiling, this.acceptedLevel) : limits.ceiling;
		const growth = this.window < this.threshold ? 1 : 1 / this.window;
		const step = permit.filledWindow ? growth : 0;
		this.window = Math.max(1, Math.min(cap, this.window + step));
		this.release();
	}

	/** "Not taken": the window shrinks once per burst, and a Retry-After pauses every new start. */
	throttled(permit: Permit, retryAfterMs: number | undefined): void {
		const now = Date.now();
		this.lastThrottleAt = now;
		// Answers to requests that started before the last decrease belong to the burst that caused it.
		const newBurst = permit.startedAt >= this.lastDecreaseAt;
		if (newBurst) this.learnRate(permit, now);
		// Each burst tells anew what the service takes: a level learned while other processes used
		// the service gives way to a higher one once they are gone.
		const level = newBurst ? Number.POSITIVE_INFINITY : this.acceptedLevel;
		this.acceptedLevel = Math.max(1, Math.min(level, permit.inFlightAtStart - 1));
		if (newBurst) {
			this.window = Math.max(1, Math.min(this.window * this.timings.decrease, this.acceptedLevel));
			this.threshold = this.window;
			this.lastDecreaseAt = now;
			this.fullForMs = 0;
			this.lastFullAt = now;
		}
		if (this.throttlesInARow === 0) this.refusingSince = now;
		this.throttlesInARow += 1;
		const pause = retryAfterMs ?? backoffDelay(this.throttlesInARow, Math.random());
		this.pausedUntil = Math.max(this.pausedUntil, now + pause);
		this.release();
	}

	/** The rate to start at: the execution's cap, and the rate the service took, while it is fresh. */
	private startRate(limits: SendLimits, now: number): number {
		const caps = [limits.maxPerSecond, now < this.rateHeldUntil ? this.learnedRate : 0].filter((rate) => rate > 0);
		return caps.length > 0 ? Math.min(...caps) : 0;
	}

	/**
	 * A new burst of "not taken" at fewer in flight than the service took before is the mark of a
	 * rate limit (a token bucket refills during the pause, so the count between bursts is its rate).
	 */
	private learnRate(permit: Permit, now: number): void {
		const belowTaken = permit.inFlightAtStart <= this.acceptedLevel - this.timings.rateEvidenceMargin;
		if (this.lastDecreaseAt > 0 && belowTaken && now > this.lastDecreaseAt) {
			const measured = Math.max(0.1, (this.takenSinceBurst * 1000) / (now - this.lastDecreaseAt));
			// Never lower while it holds: sends paced at it, pause included, measure less every time,
			// and other processes using the service would drive it down burst by burst.
			if (now >= this.rateHeldUntil || measured > this.learnedRate) {
				this.learnedRate = measured;
				this.rateHeldUntil = now + this.timings.probeAfterMs;
			}
		}
		this.takenSinceBurst = 0;
	}

	ended(): void {
		this.release();
	}

	/** False once the service has refused every send, and taken none, for the whole progress window. */
	makingProgress(now = Date.now()): boolean {
		return this.throttlesInARow === 0 || now - Math.max(this.lastSuccessAt, this.refusingSince) <= this.timings.progressWindowMs;
	}

	private release(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	/** Only a release lowers the count in flight or grows the window, so nothing else needs a look. */
	private async nextRelease(signal?: AbortSignal): Promise<void> {
		let wake: () => void = () => {};
		const released = new Promise<void>((resolve) => {
			wake = () => resolve();
			this.waiting.push(wake);
			signal?.addEventListener('abort', wake, { once: true });
		});
		await released;
		signal?.removeEventListener('abort', wake);
		this.waiting = this.waiting.filter((entry) => entry !== wake);
	}
}

/** One pacer per service (helpers/serviceKey.ts), shared by every execution of this process. */
const pacers = new Map<string, Pacer>();

export function pacerFor(service: string): Pacer {
	let pacer = pacers.get(service);
	if (!pacer) {
		pacer = new Pacer(PACING);
		pacers.set(service, pacer);
	}
	return pacer;
}
