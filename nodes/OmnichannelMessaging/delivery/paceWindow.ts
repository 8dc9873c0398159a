import { RATE_LIMIT } from '../constants';

/*
 * The window of one service: how many requests may be in flight, and the level the service took.
 * A pure state machine: every method is given the time, nothing here waits or reads a clock.
 */

/** The window's timings and factors (PACING in constants.ts; a simulation may pass others). */
export interface PacingTimings {
	readonly initialWindow: number;
	readonly decrease: number;
	readonly probeAfterMs: number;
	readonly probeAfterMaxMs: number;
	readonly rateEvidenceMargin: number;
	readonly rateHoldMs: number;
	readonly rateEvidenceAfterMs: number;
	readonly sameTurnMs: number;
}

/** How an execution asks to send: its own upper bound on the window, and its rate cap (0: none). */
export interface SendLimits {
	ceiling: number;
	maxPerSecond: number;
}

/** A place in the window, held for one request; given back with what the service answered. */
export interface Permit {
	/** Start order: a refusal of a request started after a burst began belongs to a new burst. */
	readonly seq: number;
	readonly startedAt: number;
	/** It took the last place of the window: only such a send shows the window is used up. */
	readonly filledWindow: boolean;
}

/**
 * A burst of "not taken": the requests in flight when its first refusal came back. Whatever order
 * they reached the service in, those of them it took are what it holds at once.
 */
interface Burst {
	/** The level before it; infinite for the first burst. */
	readonly before: number;
	readonly lastSeq: number;
	readonly open: number;
	refused: number;
	unanswered: number;
	/** The first start after it: the time between bursts is counted from here, without the pause. */
	resumedAt?: number;
}

export class PaceWindow {
	private window: number;

	/** No burst yet: the window doubles per round trip, and half of it counts as used. */
	private slowStart = true;

	/** What the service took at once in the last burst: the window returns to it, not above, until a probe. */
	private level = Number.POSITIVE_INFINITY;

	private inFlight = 0;

	/**
	 * The most in flight just before the answers read in this turn of the event loop: a busy n8n
	 * reads several answers before any send starts again, and a refusal read after them must be
	 * weighed against what was in flight when they came back.
	 */
	private turn = { at: Number.NEGATIVE_INFINITY, peak: 0 };

	private seq = 0;

	private burst: Burst | undefined;

	/** Time spent with the window full since the last burst: idle or half-used time is no evidence of room. */
	private fullForMs = 0;

	private lastFullAt = 0;

	private probeAfterMs: number;

	/** The highest level a burst found: a level far below it was likely set while others crowded the service. */
	private bestLevel = 0;

	/** Sends per second the service took between two bursts; 0: no rate learned. */
	private learnedRate = 0;

	private rateHeldUntil = 0;

	private takenSinceBurst = 0;

	constructor(private readonly timings: PacingTimings) {
		this.window = timings.initialWindow;
		this.probeAfterMs = timings.probeAfterMs;
	}

	/** One place given back at `now`. */
	private giveBack(now: number): void {
		if (now - this.turn.at > this.timings.sameTurnMs) this.turn = { at: now, peak: this.inFlight };
		else this.turn.peak = Math.max(this.turn.peak, this.inFlight);
		this.inFlight = Math.max(0, this.inFlight - 1);
	}

	/** The places an execution with `limits` may use now. */
	places(limits: SendLimits): number {
		return Math.max(1, Math.min(Math.floor(this.window), limits.ceiling));
	}

	hasRoom(limits: SendLimits): boolean {
		return this.inFlight < this.places(limits);
	}

	start(limits: SendLimits, now: number): Permit {
		this.inFlight += 1;
		this.seq += 1;
		if (this.burst && this.burst.resumedAt === undefined) this.burst.resumedAt = now;
		const places = this.places(limits);
		const filledWindow = this.inFlight >= (this.slowStart ? places / 2 : places);
		return { seq: this.seq, startedAt: now, filledWindow };
	}

	/**
	 * The service took the request: the window grows, but only when this send had filled it. Sends
	 * that never fill it (CRM events a few at a time) would otherwise grow it far past what the
	 * service takes, and the next broadcast would start with a burst of 429s.
	 */
	taken(permit: Permit, limits: SendLimits, now: number): void {
		this.giveBack(now);
		if (!this.burst || permit.seq > this.burst.lastSeq) this.takenSinceBurst += 1;
		// Answers of a burst's own requests show nothing about room: the burst has just shown there is none.
		if (!permit.filledWindow || (this.burst && permit.seq <= this.burst.lastSeq)) return;
		this.fullForMs += now - Math.max(permit.startedAt, this.lastFullAt);
		this.lastFullAt = now;
		const probing = this.probing();
		const cap = probing ? limits.ceiling : Math.min(limits.ceiling, this.level);
		// Below the level taken before, the window comes back one place per answer (doubling per round
		// trip); above it, by one place per round trip.
		const step = this.slowStart || this.window < this.level ? 1 : 1 / this.window;
		this.window = Math.max(1, Math.min(Math.max(cap, 1), this.window + step));
	}

	/** A pause the service asked for has ended: the burst's answers are in, and the window starts again at the level. */
	resume(): void {
		if (Number.isFinite(this.level)) this.window = Math.max(this.window, this.level);
	}

	/** No answer (network fault, timeout), or never sent: the place is free again, nothing learned. */
	ended(now: number, permit?: Permit): void {
		this.giveBack(now);
		if (permit && this.burst && permit.seq <= this.burst.lastSeq) this.burst.unanswered += 1;
	}

	/** "Not taken": a new burst halves the window; every refusal of the burst lowers the level to what was taken. */
	refused(permit: Permit, now: number): void {
		this.giveBack(now);
		if (!this.burst || permit.seq > this.burst.lastSeq) this.beginBurst(this.turn.peak, now);
		else (this.burst as Burst).refused += 1;
		this.level = Math.max(1, Math.min(this.level, this.tookAtOnce(this.burst as Burst)));
		this.window = Math.max(1, Math.min(this.window, this.level));
	}

	/**
	 * What the service held at once in a burst: of the requests in flight when its first refusal
	 * came back, those it took. This counts, and does not depend on the order they reached it in.
	 */
	private tookAtOnce(burst: Burst): number {
		const taken = burst.open - burst.refused - burst.unanswered;
		if (!Number.isFinite(burst.before)) return taken;
		// A service that just lowered its limit still serves what it took before, and refuses nearly
		// everything while it drains: one burst lowers the level by half at most.
		return Math.max(Math.ceil(burst.before * this.timings.decrease), taken);
	}

	private beginBurst(inFlight: number, now: number): void {
		const previous = this.level;
		const probing = this.probing();
		if (Number.isFinite(previous)) this.bestLevel = Math.max(this.bestLevel, previous);
		this.learnRate(inFlight, previous, now);
		this.burst = { before: previous, lastSeq: this.seq, open: inFlight, refused: 1, unanswered: 0 };
		// A burst below the level means that level was too high (or the service now takes less): it
		// comes down by one at least. A probe's burst, or the first, sets the level anew.
		this.level =
			!probing && !this.slowStart && Number.isFinite(previous)
				? Math.max(1, previous - 1)
				: Number.POSITIVE_INFINITY;
		this.window = Math.max(1, this.window * this.timings.decrease);
		// Each probe waits twice as long as the last: a level that holds costs a pause ever more rarely.
		// A burst below the level shows the service changed, and the next probe comes at the base time.
		this.probeAfterMs = probing
			? Math.min(this.timings.probeAfterMaxMs, this.probeAfterMs * 2)
			: this.timings.probeAfterMs;
		this.slowStart = false;
		this.fullForMs = 0;
		this.lastFullAt = now;
	}

	/**
	 * Whether the window may grow above the level: after it has been full for the probe time, a
	 * quarter of it when the level is below half the best one found (others were likely sending).
	 */
	private probing(): boolean {
		const crowded = this.level <= this.bestLevel * this.timings.decrease;
		return this.fullForMs >= (crowded ? this.probeAfterMs / 4 : this.probeAfterMs);
	}

	/**
	 * A new burst at fewer in flight than the service took before is the mark of a rate limit: a
	 * token bucket refills during the pause, so the count taken between bursts is its rate.
	 */
	private learnRate(inFlight: number, previous: number, now: number): void {
		const belowTaken = inFlight <= previous - this.timings.rateEvidenceMargin;
		const since = this.burst?.resumedAt ?? now;
		// A burst soon after sending resumed is the window coming back to a level set too high, not a
		// bucket run dry: a bucket holds seconds' worth.
		if (this.burst && belowTaken && now - since >= this.timings.rateEvidenceAfterMs) {
			const measured = Math.max(0.1, (this.takenSinceBurst * 1000) / (now - since));
			// Never lower while it holds: sends paced at it, pause included, measure less every time,
			// and other processes using the service would drive it down burst by burst.
			if (now >= this.rateHeldUntil || measured > this.learnedRate) {
				this.learnedRate = measured;
				this.rateHeldUntil = now + this.timings.rateHoldMs;
			}
		}
		this.takenSinceBurst = 0;
	}

	/** The rate to start at: the execution's cap, and the rate the service took, while it is fresh. */
	startRate(limits: SendLimits, now: number): number {
		const caps = [limits.maxPerSecond, now < this.rateHeldUntil ? this.learnedRate : 0].filter(
			(rate) => rate > 0,
		);
		return caps.length > 0 ? Math.min(...caps) : 0;
	}

	/** For the simulation's report: the window and the level now. */
	snapshot(): { window: number; level: number; inFlight: number } {
		return { window: this.window, level: this.level, inFlight: this.inFlight };
	}
}

/*
 * The rate-limit policy: what a "not taken" answer is, how long it asks every start to wait, and
 * when the node stops trying. The pacer and the send loop ask this module; changing how the
 * service's Retry-After is read or waited for means changing this file and its tests only (its
 * timings are RATE_LIMIT in constants.ts, with the other frozen timings).
 */

export { RATE_LIMIT };

/** A "not taken" answer: the service did not take the request, and sending it again is safe. */
export interface Refusal {
	/** What the service asked to wait, when it named a time. */
	readonly retryAfterMs: number | undefined;
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: unknown, now: number): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * A 429, or a 503 that names a Retry-After, is "not taken". A 503 without one may come after the
 * service took the message, so it is not retried: a second try could send it twice.
 */
export function refusalOf(
	statusCode: number,
	headers: Record<string, unknown>,
	now: number,
): Refusal | undefined {
	const retryAfterMs = parseRetryAfter(headers['retry-after'], now);
	if (statusCode === 429 || (statusCode === 503 && retryAfterMs !== undefined))
		return { retryAfterMs };
	return undefined;
}

/** Exponential backoff with jitter, so many waiting sends do not come back in one burst. */
export function backoffDelay(refusalsInARow: number, random: number): number {
	const ceiling = Math.min(
		RATE_LIMIT.backoffMaxMs,
		RATE_LIMIT.backoffBaseMs * 2 ** (refusalsInARow - 1),
	);
	return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** How long every start to the service waits after this refusal: its Retry-After, or the backoff. */
export function pauseAfter(refusal: Refusal, refusalsInARow: number, random: number): number {
	return refusal.retryAfterMs ?? backoffDelay(refusalsInARow, random);
}

/** How far the starts after a pause of `pauseMs` are spread. */
export function resumeSpreadMs(pauseMs: number): number {
	return Math.max(RATE_LIMIT.resumeSpreadMinMs, pauseMs * RATE_LIMIT.resumeSpread);
}

/** A wait the service asks for that is longer than the node keeps trying ends the send. */
export function waitsTooLong(refusal: Refusal): boolean {
	return (refusal.retryAfterMs ?? 0) > RATE_LIMIT.progressWindowMs;
}

/** Whether the service still takes anything: the node keeps trying only while it does. */
export class ProgressWatch {
	/**
	 * Pauses since the last success, for the backoff when the service names no pause. Refusals of
	 * requests that started before the last pause began belong to that pause: a burst of them
	 * doubles the backoff once, not once per request.
	 */
	refusalsInARow = 0;

	private refusingSince = 0;

	private lastSuccessAt = 0;

	private lastPauseAt = Number.NEGATIVE_INFINITY;

	succeeded(now: number): void {
		this.lastSuccessAt = now;
		this.refusalsInARow = 0;
		this.lastPauseAt = Number.NEGATIVE_INFINITY;
	}

	/** A refusal of a request that started at `startedAt`. */
	refused(now: number, startedAt: number): void {
		if (this.refusalsInARow === 0) this.refusingSince = now;
		if (startedAt < this.lastPauseAt) return;
		this.refusalsInARow += 1;
		this.lastPauseAt = now;
	}

	/** False once the service has refused every send, and taken none, for the whole progress window. */
	makingProgress(now: number): boolean {
		return (
			this.refusalsInARow === 0 ||
			now - Math.max(this.lastSuccessAt, this.refusingSince) <= RATE_LIMIT.progressWindowMs
		);
	}
}
