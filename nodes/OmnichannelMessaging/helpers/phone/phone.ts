import { accepted, refused } from '../checked';
import type { Checked } from '../checked';
import { CALLING_CODES, COUNTRIES, NON_GEOGRAPHIC } from './phoneTable.generated';

// Separators people type or CRMs export; anything else (letters, '#', a second '+') is a real error.
const SEPARATORS = /[\s\-.()\u00a0\u200b-\u200d\u2060\ufeff]/g;
const E164 = /^\+[1-9]\d{6,14}$/;
const DIGITS = /^\d+$/;

function fromNational(phone: string, country: Country): Checked<string> {
	const converted = DIGITS.test(phone) ? nationalToE164(phone, country.code) : undefined;
	if (converted && E164.test(converted)) return accepted(converted);
	const { name, callingCode, example } = country;
	if (converted) {
		// A valid number of the plan (a pager, a short service number) that E.164 has no room for.
		return refused(
			`as a number of ${name} it is ${converted}, but after the + a phone number has 7 to 15 digits`,
		);
	}
	const dialled = example.e164 ? `, for example ${example.national}` : '';
	const international = example.e164 ? `, for example ${example.e164}` : '';
	return refused(
		`it is not a number of ${name} (${country.code}, +${callingCode}) by its numbering plan: ` +
			`give it as dialled in ${name}${dialled}, or with + and the country code${international}`,
	);
}

/**
 * "0049 (170) 123-45.67" becomes "+491701234567"; with a default country a number without + or 00
 * is read as dialled there, the way libphonenumber reads it.
 */
export function normalizePhone(
	raw: unknown,
	country?: Country | (() => Country | undefined),
): Checked<string> {
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		return refused('it must be text, for example +4915123456789');
	}
	let phone = String(raw).replace(SEPARATORS, '');
	if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
	if (phone === '') return refused('it is empty');
	if (!phone.startsWith('+')) {
		// The country is looked up only here: an international number is sent whatever the option says.
		const plan = typeof country === 'function' ? country() : country;
		if (plan) return fromNational(phone, plan);
		return refused('it must start with + and the country code (or 00), for example +4915123456789');
	}
	if (!E164.test(phone)) {
		return refused(
			'after the + it must have 7 to 15 digits, the first not 0, and nothing else, for example +4915123456789',
		);
	}
	return accepted(phone);
}

// libphonenumber-js's national reading (parse.js with a default country, then isValid) on the table
// scripts/phones-generate.js builds; test/robustness/phones.property.test.ts holds it to the library.

/** libphonenumber's bounds: fewer than 3 digits is no number, a national number has 2 to 17. */
const MIN_DIGITS = 3;
const MIN_NATIONAL = 2;
const MAX_NATIONAL = 17;
const MAX_CALLING_CODE = 3;

/** The number with its national prefix, or a carrier code, taken off. */
function stripNationalPrefix(digits: string, plan: NumberingPlan): string {
	const prefix = plan.prefixForParsing;
	const match = prefix?.exec(digits);
	if (!prefix || !match) return digits;
	const groups = match.length - 1;
	const captured = groups > 0 && Boolean(match[groups]);
	if (plan.transformRule && captured) return digits.replace(prefix, plan.transformRule);
	return digits.slice(match[0].length);
}

/** Whether the number is of a type of the plan, as libphonenumber's getNumberType says it is. */
function hasType(nationalNumber: string, plan: NumberingPlan): boolean {
	if (!plan.pattern.test(nationalNumber)) return false;
	if (!plan.types) return true;
	return plan.types.some(
		(type) => type.lengths.includes(nationalNumber.length) && type.pattern.test(nationalNumber),
	);
}

/** The number's country among those of its calling code, as libphonenumber's getCountryByCallingCode finds it. */
function exactCountry(callingCode: string, nationalNumber: string): string | undefined {
	const countries = countriesOfCallingCode(callingCode);
	if (!countries || countries.length === 1) return countries?.[0];
	return countries.find((country) => {
		const plan = planOf(country) as NumberingPlan;
		if (plan.leadingDigits) return plan.leadingDigits.test(nationalNumber);
		return hasType(nationalNumber, plan);
	});
}

type Length = 'possible' | 'tooShort' | 'tooLong' | 'invalid';

function checkLength(nationalNumber: string, lengths: number[]): Length {
	const length = nationalNumber.length;
	if (lengths.length === 0 || lengths[0] === length) return 'possible';
	if (lengths[0] > length) return 'tooShort';
	if (lengths[lengths.length - 1] < length) return 'tooLong';
	return lengths.includes(length) ? 'possible' : 'invalid';
}

/** The prefix comes off only when what is left can still be a number. */
function nationalNumberOf(digits: string, plan: NumberingPlan): string {
	const stripped = stripNationalPrefix(digits, plan);
	if (stripped === digits) return digits;
	if (plan.pattern.test(digits) && !plan.pattern.test(stripped)) return digits;
	const country = exactCountry(plan.callingCode, stripped);
	const lengths = country ? (planOf(country) as NumberingPlan).lengths : plan.lengths;
	const length = checkLength(stripped, lengths);
	return length === 'tooShort' || length === 'invalid' ? digits : stripped;
}

/** Splits the calling code off a number, as libphonenumber's extractCountryCallingCode does. */
function splitCallingCode(digits: string): { callingCode: string; rest: string } | undefined {
	if (digits.startsWith('0')) return undefined;
	for (let size = 1; size <= MAX_CALLING_CODE && size <= digits.length; size++) {
		const callingCode = digits.slice(0, size);
		if (planOfCallingCode(callingCode)) return { callingCode, rest: digits.slice(size) };
	}
	return undefined;
}

function afterIdd(digits: string, plan: NumberingPlan): string | undefined {
	const match = plan.idd?.exec(digits);
	if (!match) return undefined;
	const rest = digits.slice(match[0].length);
	return rest === '' || rest.startsWith('0') ? undefined : rest;
}

/** "49 151…" typed for Germany: the calling code without its +, when only that reading is a number. */
function withoutPlusSign(digits: string, plan: NumberingPlan): string | undefined {
	if (!digits.startsWith(plan.callingCode)) return undefined;
	const shorter = digits.slice(plan.callingCode.length);
	const full = nationalNumberOf(digits, plan);
	const fits = (number: string) => plan.pattern.test(number);
	if (
		(!fits(full) && fits(nationalNumberOf(shorter, plan))) ||
		checkLength(full, plan.lengths) === 'tooLong'
	) {
		return shorter;
	}
	return undefined;
}

interface Reading {
	callingCode: string;
	digits: string;
	country?: string;
}

function readingOf(digits: string, country: string, plan: NumberingPlan): Reading | undefined {
	const international = afterIdd(digits, plan);
	if (international !== undefined) {
		const split = splitCallingCode(international);
		return split && { callingCode: split.callingCode, digits: split.rest };
	}
	const shorter = withoutPlusSign(digits, plan);
	if (shorter !== undefined) return { callingCode: plan.callingCode, digits: shorter };
	return { callingCode: plan.callingCode, digits, country };
}

/** `country` must be in the table; undefined where libphonenumber would not read a valid number. */
export function nationalToE164(digits: string, country: string): string | undefined {
	const plan = planOf(country);
	if (!plan || digits.length < MIN_DIGITS) return undefined;
	const reading = readingOf(digits, country, plan);
	if (!reading || reading.digits === '') return undefined;
	const { callingCode } = reading;
	const readPlan = reading.country ? plan : (planOfCallingCode(callingCode) as NumberingPlan);
	const nationalNumber = nationalNumberOf(reading.digits, readPlan);
	const numberCountry = exactCountry(callingCode, nationalNumber) ?? reading.country;
	if (nationalNumber.length < MIN_NATIONAL || nationalNumber.length > MAX_NATIONAL)
		return undefined;
	const validPlan = numberCountry ? planOf(numberCountry) : planOfCallingCode(callingCode);
	return validPlan && hasType(nationalNumber, validPlan)
		? `+${callingCode}${nationalNumber}`
		: undefined;
}

/** Regular expressions compiled the first time a number asks for the plan. */
export interface NumberingPlan {
	callingCode: string;
	/** The international call prefix (00, 011, …), anchored at the start. */
	idd?: RegExp;
	pattern: RegExp;
	lengths: number[];
	/** With carrier codes; anchored at the start. */
	prefixForParsing?: RegExp;
	transformRule: string;
	/** For a country sharing its calling code: the start of its numbers, anchored. */
	leadingDigits?: RegExp;
	/** Whole patterns of the number types, each with the lengths it allows; undefined: no types. */
	types?: Array<{ lengths: number[]; pattern: RegExp }>;
}

export interface Country {
	code: string;
	name: string;
	callingCode: string;
	/** The country's example mobile number, in E.164 and as dialled in the country. */
	example: { e164: string; national: string };
}

const whole = (source: string) => new RegExp(`^(?:${source})$`);
const start = (source: string) => (source ? new RegExp(`^(?:${source})`) : undefined);
const numbers = (list: string) => (list ? list.split(',').map(Number) : []);

/** The format is described in phoneTable.generated.ts. */
function compile(fields: string[]): NumberingPlan {
	const [
		callingCode,
		idd,
		pattern,
		lengths,
		prefixForParsing,
		transformRule,
		leadingDigits,
		types,
	] = fields;
	return {
		callingCode,
		idd: start(idd),
		pattern: whole(pattern),
		lengths: numbers(lengths),
		prefixForParsing: start(prefixForParsing),
		transformRule,
		leadingDigits: start(leadingDigits),
		types:
			types === '-'
				? undefined
				: types.split('!').map((group) => {
						const at = group.indexOf('@');
						return { lengths: numbers(group.slice(0, at)), pattern: whole(group.slice(at + 1)) };
					}),
	};
}

const compiled = new Map<string, NumberingPlan>();
const countries = new Map<string, Country>();
const has = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

function fieldsOf(key: string): string[] | undefined {
	if (has(COUNTRIES, key)) return COUNTRIES[key].split(';').slice(1, 9);
	return has(NON_GEOGRAPHIC, key) ? NON_GEOGRAPHIC[key].split(';') : undefined;
}

/** A country (`DE`) or a calling code of no country (`800`); compiled once per process. */
export function planOf(key: string): NumberingPlan | undefined {
	let plan = compiled.get(key);
	if (!plan) {
		const fields = fieldsOf(key);
		if (!fields) return undefined;
		plan = compile(fields);
		compiled.set(key, plan);
	}
	return plan;
}

/** The main country first; undefined for none or a non-geographic code. */
export function countriesOfCallingCode(callingCode: string): string[] | undefined {
	return has(CALLING_CODES, callingCode) ? CALLING_CODES[callingCode] : undefined;
}

export function planOfCallingCode(callingCode: string): NumberingPlan | undefined {
	const countries = countriesOfCallingCode(callingCode);
	return planOf(countries ? countries[0] : callingCode);
}

/** `DE` or `de`; undefined for an unknown code. */
export function countryOf(code: string): Country | undefined {
	const upper = code.toUpperCase();
	if (!has(COUNTRIES, upper)) return undefined;
	let country = countries.get(upper);
	if (!country) {
		const row = COUNTRIES[upper].split(';');
		country = {
			code: upper,
			name: row[0],
			callingCode: row[1],
			example: { e164: row[9], national: row[10] },
		};
		countries.set(upper, country);
	}
	return country;
}

export function allCountries(): Array<{ code: string; name: string; callingCode: string }> {
	return Object.keys(COUNTRIES).map((code) => {
		const [name, callingCode] = COUNTRIES[code].split(';', 2);
		return { code, name, callingCode };
	});
}
