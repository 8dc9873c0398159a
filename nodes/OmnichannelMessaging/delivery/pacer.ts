import { sleep } from 'n8n-workflow';

import { PACING } from '../constants';
import { PaceWindow } from './paceWindow';
import type { PacingTimings, Permit, SendLimits } from './paceWindow';
import { ProgressWatch, pauseAfter, refusalOf, resumeSpreadMs } from './rateLimitPolicy';
import type { Refusal } from './rateLimitPolicy';

export type { PacingTimings, Permit, SendLimits } from './paceWindow';

/** Time as the pacer sees it: n8n's clock and timers in the node, a virtual clock in a simulation. */
export interface PacerClock {
	now(): number;
	/** Waits `ms`, but returns at once when `signal` aborts. */
	wait(ms: number, signal?: AbortSignal): Promise<void>;
	/** A number in [0, 1), for the jitter of restarts and backoff. */
	random(): number;
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

export const realClock: PacerClock = Object.freeze({ now: () => Date.now(), wait: waitUnlessAborted, random: () => Math.random() });

/**
 * The pace of one service, shared by every execution in this process that sends to it: the
 * window (paceWindow.ts), a pause of every new start while the service asks for one, and an
 * optional rate cap. What a refusal means and how long it pauses is the policy's (rateLimitPolicy.ts).
 */
export class Pacer {
	private readonly window: PaceWindow;

	private readonly progress = new ProgressWatch();

	private pausedUntil = 0;

	private pauseMs = 0;

	/** A pause was set and no start has come after it yet. */
	private pauseUnended = false;

	private nextStartAt = 0;

	private waiting: Array<() => void> = [];

	constructor(
		private readonly clock: PacerClock,
		timings: PacingTimings = PACING,
	) {
		this.window = new PaceWindow(timings);
	}

	/** Waits for a place in the window; undefined when `signal` aborted first. */
	async acquire(limits: SendLimits, signal?: AbortSignal): Promise<Permit | undefined> {
		for (;;) {
			if (signal?.aborted) return undefined;
			const now = this.clock.now();
			if (now < this.pausedUntil) {
				await this.clock.wait(this.pausedUntil - now + this.clock.random() * resumeSpreadMs(this.pauseMs), signal);
				continue;
			}
			if (this.pauseUnended) {
				this.pauseUnended = false;
				this.window.resume();
			}
			if (!this.window.hasRoom(limits)) {
				await this.nextRelease(signal);
				continue;
			}
			const rate = this.window.startRate(limits, now);
			if (rate > 0 && now < this.nextStartAt) {
				await this.clock.wait(this.nextStartAt - now, signal);
				continue;
			}
			if (rate > 0) this.nextStartAt = Math.max(now, this.nextStartAt) + 1000 / rate;
			return this.window.start(limits, now);
		}
	}

	/**
	 * The service answered: a "not taken" (the policy says which) shrinks the window and pauses
	 * every new start; anything else the service took. Returns the refusal, for the send loop.
	 */
	answered(permit: Permit, limits: SendLimits, statusCode: number, headers: Record<string, unknown>): Refusal | undefined {
		const now = this.clock.now();
		const refusal = refusalOf(statusCode, headers, now);
		if (refusal) {
			this.progress.refused(now, permit.startedAt);
			this.window.refused(permit, now);
			const pause = pauseAfter(refusal, this.progress.refusalsInARow, this.clock.random());
			if (now + pause > this.pausedUntil) {
				this.pausedUntil = now + pause;
				this.pauseMs = pause;
				this.pauseUnended = pause > 0;
			}
		} else {
			if (statusCode >= 200 && statusCode < 300) this.progress.succeeded(now);
			this.window.taken(permit, limits, now);
		}
		this.release();
		return refusal;
	}

	/** No answer, or the send never went out: the place is free again. */
	ended(permit?: Permit): void {
		this.window.ended(this.clock.now(), permit);
		this.release();
	}

	makingProgress(): boolean {
		return this.progress.makingProgress(this.clock.now());
	}

	/** For the simulation's report. */
	snapshot(): { window: number; level: number; inFlight: number } {
		return this.window.snapshot();
	}

	private release(): void {
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	/** Only an answer lowers the count in flight or grows the window, so nothing else needs a look. */
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
		pacer = new Pacer(realClock, PACING);
		pacers.set(service, pacer);
	}
	return pacer;
}
