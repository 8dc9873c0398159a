import { PACING } from '../constants';
import { REAL_CLOCK, sharedPerKey } from './clock';
import type { Clock } from './clock';
import {
	PaceWindow,
	ProgressWatch,
	pauseAfter,
	refusalOf,
	resumeSpreadMs,
	RATE_LIMIT,
	waitsTooLong,
} from './paceWindow';
import type { PacingTimings, Permit, SendLimits, Refusal } from './paceWindow';
import type { RunLog } from './runLog';

export type { PacingTimings, Permit, SendLimits } from './paceWindow';

/** How fast an execution with given limits sends now: messages in flight at once, and starts a second (0: no cap). */
export interface Pace {
	atOnce: number;
	perSecond: number;
}

/**
 * The pace of one service, shared by every execution in this process that sends to it: the
 * window (paceWindow.ts), a pause of every new start while the service asks for one, and an
 * optional rate cap. What a refusal means and how long it pauses is the policy's (paceWindow.ts).
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

/** One pacer per service (serviceKey, delivery/templateCache.ts), shared by every execution of this process. */
export const pacerFor = sharedPerKey(REAL_CLOCK, (clock) => new Pacer(clock, PACING));

/** What one execution saw of the service's pace, for its summary. */
export interface PaceFigures {
	/** Answers that asked the node to slow down (a 429, or a 503 naming a Retry-After). */
	slowDowns: number;
	/** The same answers by status code. */
	byStatus: Record<string, number>;
	/** Pauses of every new send that answers of this execution began. */
	pauses: number;
	/** The pace at the end, once the service asked to slow down. */
	settled?: Pace;
	/** The execution's own caps: Concurrency and Max Messages per Second (0: none). */
	limits?: SendLimits;
}

/** Starts a second as a builder reads them: one decimal. */
const perSecond = (pace: Pace) => Math.round(pace.perSecond * 10) / 10;

/**
 * The service's pacer as one execution uses it: the pacer is shared by every execution sending
 * to the service, so each logs the pauses and changes of pace that its own answers brought.
 */
export class WatchedPacer implements PacerApi {
	private readonly figures: PaceFigures = { slowDowns: 0, byStatus: {}, pauses: 0 };

	private lastPace: Pace;

	private refusedSinceLastPace = false;

	constructor(
		private readonly pacer: Pacer,
		private readonly limits: SendLimits,
		private readonly log: RunLog,
	) {
		this.lastPace = pacer.pace(limits);
	}

	async acquire(limits: SendLimits, signal?: AbortSignal): Promise<Permit | undefined> {
		return await this.pacer.acquire(limits, signal);
	}

	ended(permit?: Permit): void {
		this.pacer.ended(permit);
	}

	makingProgress(): boolean {
		return this.pacer.makingProgress();
	}

	answered(...answer: Parameters<Pacer['answered']>): Refusal | undefined {
		const [, , statusCode] = answer;
		const pausesBefore = this.pacer.pausesBegun;
		const refusal = this.pacer.answered(...answer);
		if (refusal) this.refused(statusCode, refusal, this.pacer.pausesBegun > pausesBefore);
		else if (this.refusedSinceLastPace && statusCode >= 200 && statusCode < 300) this.tookAgain();
		return refusal;
	}

	/** What this execution saw, with the pace it ended at. */
	finish(): PaceFigures {
		if (this.figures.slowDowns === 0) return { ...this.figures };
		return { ...this.figures, settled: this.pacer.pace(this.limits), limits: this.limits };
	}

	private refused(statusCode: number, refusal: Refusal, paused: boolean): void {
		const { figures } = this;
		figures.slowDowns += 1;
		figures.byStatus[statusCode] = (figures.byStatus[statusCode] ?? 0) + 1;
		this.refusedSinceLastPace = true;
		if (!paused) return;
		figures.pauses += 1;
		const pauseMs = this.pacer.pauseLeftMs();
		this.log.write(
			'info',
			`the service asked to slow down (${statusCode}): new sends wait ${(pauseMs / 1000).toFixed(1)} s`,
			{
				statusCode,
				pauseMs,
				retryAfterMs: refusal.retryAfterMs ?? 'none',
				pauseNumber: figures.pauses,
			},
		);
	}

	/** The first message taken after a slow-down: the pace the node came back at. */
	private tookAgain(): void {
		this.refusedSinceLastPace = false;
		const pace = this.pacer.pace(this.limits);
		const was = this.lastPace;
		if (pace.atOnce === was.atOnce && perSecond(pace) === perSecond(was)) return;
		this.lastPace = pace;
		const rate = pace.perSecond > 0 ? `, at most ${perSecond(pace)} a second` : '';
		this.log.write(
			'info',
			`pace changed: ${pace.atOnce} message(s) at once${rate} (was ${was.atOnce})`,
			{
				atOnce: pace.atOnce,
				perSecond: perSecond(pace),
				wasAtOnce: was.atOnce,
				wasPerSecond: perSecond(was),
			},
		);
	}
}

/** What the send loop needs of a pacer (a simulation may wrap another). */
export type PacerApi = Pick<Pacer, 'acquire' | 'answered' | 'ended' | 'makingProgress'>;

/** What the send loop needs of an answer; the transport's answers have more. */
export interface AnswerHead {
	statusCode: number;
	headers: Record<string, unknown>;
}

/** How one message's sends ended: answered (taken, or refused for a reason other than the pace), or not sent. */
export type PacedEnd<A> =
	| { kind: 'answered'; answer: A }
	| { kind: 'cancelled' }
	| {
			kind: 'gaveUp';
			why: 'noProgress' | 'waitTooLong';
			tries: number;
			retryAfterMs?: number;
			progressWindowMs: number;
	  };

/**
 * Sends one message through the pacer. Only a "not taken" answer is tried again, for as long as
 * the service makes progress: any other failure may come after the service accepted the message,
 * and a second try could make the customer get it twice. `send` rejects on a fault with no
 * answer (the place is given back first).
 */
export async function sendPaced<A extends AnswerHead>(
	pacer: PacerApi,
	limits: SendLimits,
	signal: AbortSignal | undefined,
	send: () => Promise<A>,
): Promise<PacedEnd<A>> {
	const progressWindowMs = RATE_LIMIT.progressWindowMs;
	for (let tries = 1; ; tries++) {
		const permit = await pacer.acquire(limits, signal);
		if (!permit) return { kind: 'cancelled' };
		if (!pacer.makingProgress()) {
			pacer.ended(permit);
			return { kind: 'gaveUp', why: 'noProgress', tries: tries - 1, progressWindowMs };
		}
		let answer: A | undefined;
		try {
			answer = await send();
		} finally {
			if (answer === undefined) pacer.ended(permit);
		}
		const refusal = pacer.answered(permit, limits, answer.statusCode, answer.headers);
		if (!refusal) return { kind: 'answered', answer };
		if (waitsTooLong(refusal))
			return {
				kind: 'gaveUp',
				why: 'waitTooLong',
				tries,
				retryAfterMs: refusal.retryAfterMs,
				progressWindowMs,
			};
	}
}
