/**
 * The rate-limit policy (delivery/paceWindow.ts): which answers are "not taken", the pause each
 * asks for, and when the node stops trying. Times are given, never read from a clock.
 */
import {
	ProgressWatch,
	RATE_LIMIT,
	pauseAfter,
	refusalOf,
	resumeSpreadMs,
	waitsTooLong,
} from '../../../nodes/OmnichannelMessaging/delivery/paceWindow';

describe('what a refusal is', () => {
	test('a 429, with or without Retry-After, and a 503 only with one', () => {
		expect(refusalOf(429, { 'retry-after': '1' }, 0)).toEqual({ retryAfterMs: 1000 });
		expect(refusalOf(429, {}, 0)).toEqual({ retryAfterMs: undefined });
		expect(refusalOf(503, { 'retry-after': '0' }, 0)).toEqual({ retryAfterMs: 0 });
		// A 503 without Retry-After may come after the service took the message: not retried.
		expect(refusalOf(503, {}, 0)).toBeUndefined();
		expect(refusalOf(500, { 'retry-after': '1' }, 0)).toBeUndefined();
		expect(refusalOf(200, {}, 0)).toBeUndefined();
	});
});

describe('the pause', () => {
	test('what the service names, else a backoff that doubles per pause in a row', () => {
		expect(pauseAfter({ retryAfterMs: 1000 }, 5, 0.5)).toBe(1000);
		expect(pauseAfter({ retryAfterMs: 0 }, 1, 0.5)).toBe(0);
		expect(pauseAfter({ retryAfterMs: undefined }, 1, 1)).toBe(RATE_LIMIT.backoffBaseMs);
		expect(pauseAfter({ retryAfterMs: undefined }, 2, 1)).toBe(RATE_LIMIT.backoffBaseMs * 2);
		expect(pauseAfter({ retryAfterMs: undefined }, 30, 1)).toBe(RATE_LIMIT.backoffMaxMs);
	});

	test('starts after a pause are spread over a tenth of it, 50 ms at least', () => {
		expect(resumeSpreadMs(1000)).toBe(100);
		expect(resumeSpreadMs(0)).toBe(RATE_LIMIT.resumeSpreadMinMs);
	});

	test('a burst of refusals of requests sent before the pause doubles the backoff once, not once per request', () => {
		const watch = new ProgressWatch();
		for (const at of [100, 101, 102, 103]) watch.refused(at, 0);
		expect(watch.refusalsInARow).toBe(1);
		// Sent again after the pause began, refused again: the second pause in a row.
		watch.refused(1200, 1100);
		expect(watch.refusalsInARow).toBe(2);
		watch.succeeded(1300);
		expect(watch.refusalsInARow).toBe(0);
	});
});

describe('when the node stops trying', () => {
	test('while the service takes something within the progress window, it keeps trying', () => {
		const watch = new ProgressWatch();
		expect(watch.makingProgress(0)).toBe(true);
		watch.succeeded(1_000);
		watch.refused(2_000, 1_500);
		expect(watch.makingProgress(1_000 + RATE_LIMIT.progressWindowMs)).toBe(true);
		expect(watch.makingProgress(2_001 + RATE_LIMIT.progressWindowMs)).toBe(false);
	});

	test('a Retry-After longer than the progress window ends the send at once', () => {
		expect(waitsTooLong({ retryAfterMs: RATE_LIMIT.progressWindowMs + 1 })).toBe(true);
		expect(waitsTooLong({ retryAfterMs: RATE_LIMIT.progressWindowMs })).toBe(false);
		expect(waitsTooLong({ retryAfterMs: undefined })).toBe(false);
	});
});
