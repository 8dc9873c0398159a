/*
 * The rate-limit policy: what a "not taken" answer is, how long it asks every start to wait, and
 * when the node stops trying. The pacer and the send loop ask this module; changing how the
 * service's Retry-After is read or waited for means changing this file and its tests only (its
 * timings are RATE_LIMIT in constants.ts, with the other frozen timings).
 */
import { RATE_LIMIT } from '../constants';

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
