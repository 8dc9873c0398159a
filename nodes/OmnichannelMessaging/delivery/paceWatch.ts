import type { Pace, Pacer, Permit, SendLimits } from './pacer';
import type { PacerApi } from './pacedSend';
import type { Refusal } from './rateLimitPolicy';
import type { RunLog } from './runLog';

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

	answered(
		permit: Permit,
		limits: SendLimits,
		statusCode: number,
		headers: Record<string, unknown>,
	): Refusal | undefined {
		const pausesBefore = this.pacer.pausesBegun;
		const refusal = this.pacer.answered(permit, limits, statusCode, headers);
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
