/*
 * The node's timings are frozen; tests change them through testing.ts only, and get the frozen
 * values back with resetTuning().
 */
import { BACKOFF } from '../../nodes/OmnichannelMessaging/delivery/retryAfter';
import * as constants from '../../nodes/OmnichannelMessaging/constants';
import { resetTuning, setTuningForTests } from '../../nodes/OmnichannelMessaging/testing';
import { tuning } from '../../nodes/OmnichannelMessaging/tuning';

describe('tuning', () => {
	test('every exported object of constants.ts, and BACKOFF, is frozen', () => {
		const objects = Object.entries({ ...constants, BACKOFF }).filter(([, value]) => typeof value === 'object');
		expect(objects.map(([name]) => name).sort()).toEqual(['BACKOFF', 'PACING', 'PATHS', 'SEND_LIMITS', 'SEND_ONCE', 'TEMPLATE_CACHE']);
		expect(objects.filter(([, value]) => !Object.isFrozen(value)).map(([name]) => name)).toEqual([]);
	});

	test('a test changes a timing through the seam, and gets the frozen value back', () => {
		setTuningForTests({ sendOnce: { verifyAfterMs: 5 } });
		try {
			expect(tuning().sendOnce.verifyAfterMs).toBe(5);
			expect(tuning().sendOnce.settleAfterMs).toBe(constants.SEND_ONCE.settleAfterMs);
			expect(Object.isFrozen(tuning().sendOnce)).toBe(true);
		} finally {
			resetTuning();
		}
		expect(tuning().sendOnce).toBe(constants.SEND_ONCE);
	});
});
