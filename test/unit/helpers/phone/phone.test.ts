import {
	normalizePhone,
	countryOf,
	planOf,
} from '../../../../nodes/OmnichannelMessaging/helpers/phone/phone';
import { testEachAccepted, testEachRefused, testRefusesAll } from '../../../helpers/table';

describe('normalizePhone', () => {
	testEachAccepted('%j becomes %s', normalizePhone, [
		['+49 151 2345 6789', '+4915123456789'],
		['0049 (151) 2345-6789', '+4915123456789'],
		['+1.415.555.0100', '+14155550100'],
		['+44\u00a020 7946 0958', '+442079460958'],
		['  +33 6 12 34 56 78  ', '+33612345678'],
		['+1234567', '+1234567'],
		['+123456789012345', '+123456789012345'],
	]);

	testEachRefused('%j is refused (%s)', normalizePhone, [
		['0151 2345 6789', 'must start with +'],
		['+0151234567', '7 to 15 digits, the first not 0'],
		['+123456', '7 to 15 digits'],
		['+1234567890123456', '7 to 15 digits'],
		['+49 151 CALL ME', '7 to 15 digits'],
		['++4915123456789', '7 to 15 digits'],
		['', 'it is empty'],
		['   ', 'it is empty'],
	]);

	testRefusesAll(
		'a number from an expression is read as digits, and still needs the +',
		normalizePhone,
		[4915123456789, { phone: '+4915123456789' }, null],
	);
});

describe('normalizePhone with a Default Country', () => {
	const country = (code: string) => {
		const found = countryOf(code);
		if (!found) throw new Error(`no country ${code}`);
		return found;
	};

	// Expected values are what libphonenumber-js 1.13.16 (max metadata) gives for the same text and country.
	test.each([
		['0151 2345 6789', 'DE', '+4915123456789'],
		['312 345 6789', 'IT', '+393123456789'],
		['02 1234 5678', 'IT', '+390212345678'], // Italy keeps its leading 0
		['011 15-2345-6789', 'AR', '+5491123456789'], // an Argentine mobile: trunk 0 and 15 off, 9 in
		['8 (912) 345-67-89', 'RU', '+79123456789'], // Russia's trunk prefix is 8
		['(415) 555-0132', 'US', '+14155550132'],
		['1 415 555 0132', 'US', '+14155550132'], // the NANP's trunk prefix is 1
		['(613) 555-0123', 'US', '+16135550123'], // a Canadian number, with US chosen
		['06 12 34 56 78', 'FR', '+33612345678'],
		['07624 369230', 'GB', '+447624369230'], // Isle of Man, with GB chosen
		['8 701 234 5678', 'KZ', '+77012345678'], // +7 shared with Russia
		['011 49 151 23456789', 'US', '+4915123456789'], // after the US international call prefix
	])('%j in %s becomes %s', (raw, code, expected) => {
		expect(normalizePhone(raw, country(code))).toEqual({ ok: true, value: expected });
	});

	test.each([
		['0151 234', 'DE'],
		['555 0132', 'US'],
		['0701 234 5678', 'KZ'],
		['0151 CALL ME', 'DE'],
		['0151#2345678', 'DE'],
	])('%j is no number of %s: refused with the country and its example', (raw, code) => {
		const result = normalizePhone(raw, country(code));
		const { name, callingCode, example } = country(code);
		expect(result.ok).toBe(false);
		const reason = result.ok ? '' : result.reason;
		expect(reason).toContain(`${name} (${code}, +${callingCode})`);
		expect(reason).toContain(`for example ${example.national}`);
		expect(reason).toContain(`for example ${example.e164}`);
	});

	test('the German example reads as a person would write it', () => {
		expect(normalizePhone('0151 234', country('DE'))).toEqual({
			ok: false,
			reason:
				'it is not a number of Germany (DE, +49) by its numbering plan: give it as dialled in ' +
				'Germany, for example 01512 3456789, or with + and the country code, for example ' +
				'+4915123456789',
		});
	});

	test('numbers with + or 00 are read as without the option, whatever the country', () => {
		for (const [raw] of [
			['+49 151 2345 6789'],
			['0049 (151) 2345-6789'],
			['+1234567'],
			['+123456'],
			['++4915123456789'],
		]) {
			expect(normalizePhone(raw, country('FR'))).toEqual(normalizePhone(raw));
		}
	});

	test('a valid number of the plan that E.164 has no room for is refused, as with +', () => {
		const result = normalizePhone('01680', country('DE'));
		expect(result).toEqual({
			ok: false,
			reason:
				'as a number of Germany it is +491680, but after the + a phone number has 7 to 15 digits',
		});
		expect(normalizePhone('+491680').ok).toBe(false);
	});

	test('empty, and not text, as without the option', () => {
		expect(normalizePhone('  ', country('DE'))).toEqual(normalizePhone('  '));
		expect(normalizePhone(null, country('DE'))).toEqual(normalizePhone(null));
		expect(normalizePhone(15123456789, country('DE'))).toEqual({
			ok: true,
			value: '+4915123456789',
		});
	});
});

describe('the numbering plans', () => {
	test("a country's rules are compiled once, when first asked for, and then shared", () => {
		const first = planOf('BR');
		expect(first?.pattern).toBeInstanceOf(RegExp);
		expect(planOf('BR')).toBe(first);
		expect(planOf('XX')).toBeUndefined();
	});
});
