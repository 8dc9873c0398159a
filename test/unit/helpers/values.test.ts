import { describeIndexes } from '../../../nodes/OmnichannelMessaging/helpers/errors';
import {
	backoffDelay,
	parseRetryAfter,
	RATE_LIMIT,
} from '../../../nodes/OmnichannelMessaging/delivery/paceWindow';
import {
	toPositiveInteger,
	toServiceString,
} from '../../../nodes/OmnichannelMessaging/helpers/values';
import {
	normalizeVariables,
	parseVariablesJson,
} from '../../../nodes/OmnichannelMessaging/helpers/template';

describe('values', () => {
	test('toServiceString turns expression results into text or refuses', () => {
		expect(toServiceString(12)).toBe('12');
		expect(toServiceString(true)).toBe('true');
		expect(toServiceString(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
		expect(toServiceString(Number.NaN)).toBeUndefined();
		expect(toServiceString({})).toBeUndefined();
		expect(toServiceString([1])).toBeUndefined();
		expect(toServiceString(null)).toBeUndefined();
	});

	test('toPositiveInteger accepts whole numbers only', () => {
		expect(toPositiveInteger('12')).toBe(12);
		expect(toPositiveInteger(' 7 ')).toBe(7);
		expect(toPositiveInteger(3)).toBe(3);
		for (const bad of [0, -1, 1.5, '1.5', '12a', '', null, undefined, {}, '99999999999999999999']) {
			expect(toPositiveInteger(bad)).toBeUndefined();
		}
	});
});

describe('variables', () => {
	test('keys become positions and values text', () => {
		expect(normalizeVariables({ '1': 'Anna', '02': 7, '{{3}}': false }, false)).toEqual({
			ok: true,
			value: { '1': 'Anna', '2': '7', '3': 'false' },
		});
	});
	test('empty values are missing unless allowed', () => {
		expect(normalizeVariables({ '1': '', '2': null, '3': '  ' }, false)).toEqual({
			ok: true,
			value: {},
		});
		expect(normalizeVariables({ '1': '', '2': null }, true)).toEqual({
			ok: true,
			value: { '1': '', '2': '' },
		});
	});
	test('names and objects are refused with a reason', () => {
		const named = normalizeVariables({ name: 'Anna' }, false);
		expect(named.ok ? '' : named.reason).toContain('"name" is not a variable position');
		const object = normalizeVariables({ '1': { first: 'Anna' } }, false);
		expect(object.ok ? '' : object.reason).toContain('{{1}} is an object');
		expect(normalizeVariables(['Anna'], false).ok).toBe(false);
	});
	test('JSON text is parsed, broken JSON is refused', () => {
		expect(parseVariablesJson('{"1":"a"}')).toEqual({ ok: true, value: { '1': 'a' } });
		expect(parseVariablesJson({ '1': 'a' })).toEqual({ ok: true, value: { '1': 'a' } });
		expect(parseVariablesJson('{1:}').ok).toBe(false);
	});
});

describe('retry timing', () => {
	test('Retry-After in seconds or as an HTTP date', () => {
		const now = Date.parse('2026-11-21T10:00:00Z');
		expect(parseRetryAfter('2', now)).toBe(2000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
	});
	test('backoff grows, is capped, and is jittered within half to full', () => {
		expect(backoffDelay(1, 0)).toBe(RATE_LIMIT.backoffBaseMs / 2);
		expect(backoffDelay(1, 1)).toBe(RATE_LIMIT.backoffBaseMs);
		expect(backoffDelay(3, 1)).toBe(RATE_LIMIT.backoffBaseMs * 4);
		expect(backoffDelay(30, 1)).toBe(RATE_LIMIT.backoffMaxMs);
	});
	test('index lists are compact', () => {
		expect(describeIndexes([5, 0, 1, 2, 7, 8])).toBe('0-2, 5, 7-8');
		expect(describeIndexes([])).toBe('none');
	});
});
