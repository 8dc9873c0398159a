/** The pause after a "not taken" answer that names no Retry-After: doubles per answer in a row. */
export const BACKOFF = Object.freeze({
	baseDelayMs: 1_000,
	maxDelayMs: 30_000,
} as const);

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

/** Exponential backoff with jitter, so many waiting items do not come back in one burst. */
export function backoffDelay(attempt: number, random: number): number {
	const ceiling = Math.min(BACKOFF.maxDelayMs, BACKOFF.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
