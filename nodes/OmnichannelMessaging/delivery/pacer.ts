import { PACING } from '../constants';
import { REAL_CLOCK } from './clock';
import type { Clock } from './clock';
import { PaceWindow } from './paceWindow';
import type { PacingTimings, Permit, SendLimits } from './paceWindow';
import { ProgressWatch, pauseAfter, refusalOf, resumeSpreadMs } from './rateLimitPolicy';
import type { Refusal } from './rateLimitPolicy';

export type { PacingTimings, Permit, SendLimits } from './paceWindow';

/** How fast an execution with given limits sends now: messages in flight at once, and starts a second (0: no cap). */
export interface Pace {
	atOnce: number;
	perSecond: number;
}

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

	/** Pauses begun so far: a refusal that paused starts while none held (each execution logs those it saw). */
	pausesBegun = 0;

	constructor(
		private readonly clock: Clock,
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
				await this.waitUnlessAborted(
					this.pausedUntil - now + this.clock.random() * resumeSpreadMs(this.pauseMs),
					signal,
				);
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
				await this.waitUnlessAborted(this.nextStartAt - now, signal);
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
	answered(
		permit: Permit,
		limits: SendLimits,
		statusCode: number,
		headers: Record<string, unknown>,
	): Refusal | undefined {
		const now = this.clock.now();
		const refusal = refusalOf(statusCode, headers, now);
		if (refusal) {
			this.progress.refused(now, permit.startedAt);
			this.window.refused(permit, now);
			const pause = pauseAfter(refusal, this.progress.refusalsInARow, this.clock.random());
			if (now + pause > this.pausedUntil) {
				if (now >= this.pausedUntil && pause > 0) this.pausesBegun += 1;
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

	/** The pace of an execution with `limits` now, for its summary and its log. */
	pace(limits: SendLimits): Pace {
		const now = this.clock.now();
		return { atOnce: this.window.places(limits), perSecond: this.window.startRate(limits, now) };
	}

	/** What is left of the pause in force, 0 when none is. */
	pauseLeftMs(): number {
		return Math.max(0, this.pausedUntil - this.clock.now());
	}

	/** For the simulation's report. */
	snapshot(): { window: number; level: number; inFlight: number } {
		return this.window.snapshot();
	}

	/** An abort ends the wait; the caller's loop then sees the signal and gives up its place. */
	private async waitUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
		await this.clock.wait(ms, signal).catch(() => undefined);
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
		pacer = new Pacer(REAL_CLOCK, PACING);
		pacers.set(service, pacer);
	}
	return pacer;
}
