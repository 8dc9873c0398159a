/**
 * The node's Default Country against libphonenumber-js itself ("max" metadata, the one the table
 * is built from), for every country the library knows: its example mobile number, numbers of each
 * number type drawn from the type's own pattern, digit strings that are mostly not numbers, each as
 * typed (national significant number, with the trunk prefix, in the national format, with spaces,
 * dots, brackets and dashes). Per text: the node gives the E.164 number the library gives when the
 * library says it is valid, and refuses it when the library does not.
 *
 * Texts that start with 00 once separators are gone are international numbers, as without a
 * Default Country: they are counted apart and not compared. A number the library finds valid but
 * that has fewer than 7 or more than 15 digits after the + (German pagers, Iranian short service
 * numbers) is refused, as it is when typed with +: counted apart, and it must be refused.
 */
import fc from 'fast-check';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

import { normalizePhone, countryOf } from '../../nodes/OmnichannelMessaging/helpers/phone/phone';
import { FUZZ_SEED, fuzzRuns } from './support/config';
import metadata from 'libphonenumber-js/metadata.max.json';
import examples from 'libphonenumber-js/examples.mobile.json';

type CountryCode = keyof typeof examples;
type Plan = (string | number | null | unknown[])[];

const PLANS = metadata.countries as unknown as Record<string, Plan>;
const COUNTRIES = Object.keys(PLANS).sort();
const TYPE_NAMES = [
	'fixed line',
	'mobile',
	'toll free',
	'premium rate',
	'personal',
	'voicemail',
	'UAN',
	'pager',
	'VoIP',
	'shared cost',
];
const NUMBERS_PER_TYPE = fuzzRuns(4);

/** What the library makes of a text typed for a country: the E.164 number, or undefined when it is not valid. */
function library(text: string, country: string): string | undefined {
	const phone = parsePhoneNumberFromString(text, country as CountryCode);
	return phone?.isValid() ? phone.number : undefined;
}

function node(text: string, country: string): string | undefined {
	const result = normalizePhone(text, countryOf(country));
	return result.ok ? result.value : undefined;
}

/** A national significant number as people type it: grouped, dotted, bracketed, with the trunk prefix. */
function variants(nsn: string, trunkPrefix: string): string[] {
	const groups = nsn.match(/.{1,3}/g) ?? [nsn];
	const head = nsn.slice(0, 3);
	const tail = nsn.slice(3);
	const typed = [nsn, groups.join(' '), groups.join('.'), groups.join('-'), `(${head}) ${tail}`];
	if (!trunkPrefix) return typed;
	return [
		...typed,
		`${trunkPrefix}${nsn}`,
		`${trunkPrefix} ${groups.join(' ')}`,
		`(${trunkPrefix}${head}) ${tail}`,
		`${trunkPrefix}${head}.${tail}`,
	];
}

/** The country's national format of a valid number, as the library writes it. */
function nationalFormat(nsn: string, country: string): string[] {
	const phone = parsePhoneNumberFromString(nsn, country as CountryCode);
	return phone?.isValid() ? [phone.formatNational()] : [];
}

/** Numbers drawn from the pattern of each number type of the country, repeatable by the suite's seed. */
function typeNumbers(country: string): Array<{ type: string; nsn: string }> {
	const types = (PLANS[country][11] ?? []) as Array<[string, number[]?] | 0 | null>;
	return types.flatMap((type, index) => {
		if (!type || !type[0]) return [];
		const numbers = fc.sample(fc.stringMatching(new RegExp(`^(?:${type[0]})$`)), {
			seed: FUZZ_SEED + index,
			numRuns: NUMBERS_PER_TYPE,
		});
		return numbers.map((nsn) => ({ type: TYPE_NAMES[index], nsn }));
	});
}

/** Digit strings of every length a number may have, with and without the trunk prefix. */
function digitStrings(country: string, trunkPrefix: string): string[] {
	const digits = fc.stringMatching(/^\d{3,17}$/);
	return fc
		.sample(digits, {
			seed: FUZZ_SEED + country.charCodeAt(0) * 31 + country.charCodeAt(1),
			numRuns: fuzzRuns(12),
		})
		.flatMap((text) => [text, `${trunkPrefix}${text}`]);
}

/**
 * Numbers typed with the country's own calling code but no +, and after its international call
 * prefix (011 in the US).
 */
function internationalWithoutPlus(country: string, index: number): string[] {
	const [callingCode, iddPattern] = PLANS[country] as [string, string];
	const nsn = examples[country as CountryCode];
	const other = COUNTRIES[(index * 7 + 3) % COUNTRIES.length];
	const abroad = `${PLANS[other][0]}${examples[other as CountryCode]}`;
	const idds = fc.sample(fc.stringMatching(new RegExp(`^(?:${iddPattern})$`)), {
		seed: FUZZ_SEED + index,
		numRuns: 3,
	});
	return [
		`${callingCode}${nsn}`,
		`${callingCode} ${nsn}`,
		...idds.flatMap((idd) => [`${idd}${abroad}`, `${idd} ${callingCode} ${nsn}`]),
	];
}

interface Tally {
	[category: string]: {
		compared: number;
		valid: number;
		international: number;
		beyondE164: number;
	};
}

const mismatches: string[] = [];
const tally: Tally = {};

function compare(category: string, country: string, text: string): void {
	const entry = (tally[category] ??= { compared: 0, valid: 0, international: 0, beyondE164: 0 });
	if (text.replace(/[\s\-.()]/g, '').startsWith('00')) {
		entry.international += 1;
		return;
	}
	const expected = library(text, country);
	const actual = node(text, country);
	entry.compared += 1;
	if (expected) entry.valid += 1;
	if (expected && !/^\+\d{7,15}$/.test(expected)) {
		entry.beyondE164 += 1;
		if (actual !== undefined)
			mismatches.push(
				`${country} ${category} ${JSON.stringify(text)}: library ${expected}, beyond E.164, node ${actual}`,
			);
		return;
	}
	if (actual !== expected)
		mismatches.push(
			`${country} ${category} ${JSON.stringify(text)}: library ${expected ?? 'refuses'}, node ${actual ?? 'refuses'}`,
		);
}

describe('Default Country agrees with libphonenumber-js', () => {
	beforeEach(() => mismatches.splice(0));

	test('every country the library knows is in the node table, under its own calling code', () => {
		expect(COUNTRIES.length).toBeGreaterThan(240);
		for (const country of COUNTRIES)
			expect(countryOf(country)?.callingCode).toBe(PLANS[country][0]);
	});

	test(
		'the example mobile number of every country: valid, and the same E.164 number from every ' +
			'way of typing it',
		() => {
			for (const country of COUNTRIES) {
				const nsn = examples[country as CountryCode];
				const trunkPrefix = String(PLANS[country][5] ?? '');
				expect({ country, valid: library(nsn, country) !== undefined }).toEqual({
					country,
					valid: true,
				});
				for (const text of [...variants(nsn, trunkPrefix), ...nationalFormat(nsn, country)])
					compare('example mobile', country, text);
			}
			const { compared, valid } = tally['example mobile'];
			console.log(
				`example mobile numbers: ${COUNTRIES.length} countries, ${compared} texts, ${valid} valid ` +
					`per the library, ${compared - mismatches.length} agree`,
			);
			expect(mismatches).toEqual([]);
		},
	);

	test('numbers of each number type, drawn from its pattern, and digit strings that are mostly no number', () => {
		for (const country of COUNTRIES) {
			const trunkPrefix = String(PLANS[country][5] ?? '');
			for (const { type, nsn } of typeNumbers(country)) {
				for (const text of [...variants(nsn, trunkPrefix), ...nationalFormat(nsn, country)])
					compare(type, country, text);
			}
			for (const text of digitStrings(country, trunkPrefix)) compare('digits', country, text);
		}
		COUNTRIES.forEach((country, index) => {
			for (const text of internationalWithoutPlus(country, index))
				compare('calling code without +, or after the call prefix', country, text);
		});
		for (const [category, { compared, valid, international, beyondE164 }] of Object.entries(
			tally,
		)) {
			console.log(
				`${category}: ${compared} texts compared, ${valid} valid per the library (${beyondE164} of ` +
					`them beyond E.164's 7 to 15 digits, refused), ${compared - valid} not valid, ` +
					`${international} starting with 00 left as international`,
			);
		}
		console.log(
			`disagreements: ${mismatches.length}${mismatches.length ? `\n${mismatches.slice(0, 40).join('\n')}` : ''}`,
		);
		expect(mismatches).toEqual([]);
	});
});
