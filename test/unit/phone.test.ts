import { normalizePhone } from '../../nodes/OmnichannelMessaging/helpers/phone';

describe('normalizePhone', () => {
	test.each([
		['+49 151 2345 6789', '+4915123456789'],
		['0049 (151) 2345-6789', '+4915123456789'],
		['+1.415.555.0100', '+14155550100'],
		['+44\u00a020 7946 0958', '+442079460958'],
		['  +33 6 12 34 56 78  ', '+33612345678'],
		['+1234567', '+1234567'],
		['+123456789012345', '+123456789012345'],
	])('%j becomes %s', (raw, expected) => {
		expect(normalizePhone(raw)).toEqual({ ok: true, phone: expected });
	});

	test.each([
		['0151 2345 6789', 'must start with +'],
		['+0151234567', '7 to 15 digits, the first not 0'],
		['+123456', '7 to 15 digits'],
		['+1234567890123456', '7 to 15 digits'],
		['+49 151 CALL ME', '7 to 15 digits'],
		['++4915123456789', '7 to 15 digits'],
		['', 'it is empty'],
		['   ', 'it is empty'],
	])('%j is refused (%s)', (raw, reason) => {
		const result = normalizePhone(raw);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.reason).toContain(reason);
	});

	test('a number from an expression is read as digits, and still needs the +', () => {
		expect(normalizePhone(4915123456789).ok).toBe(false);
		expect(normalizePhone({ phone: '+4915123456789' }).ok).toBe(false);
		expect(normalizePhone(null).ok).toBe(false);
	});
});
