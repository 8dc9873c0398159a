import { CALLING_CODES, COUNTRIES, NON_GEOGRAPHIC } from './phoneTable.generated';

/** A numbering plan with its regular expressions, compiled the first time a number asks for it. */
export interface NumberingPlan {
	callingCode: string;
	/** The international call prefix (00, 011, …), anchored at the start. */
	idd?: RegExp;
	/** The national number pattern, whole. */
	pattern: RegExp;
	lengths: number[];
	/** The national prefix (with carrier codes) to strip, anchored at the start. */
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

/** A plan's text (the format is described in phoneTable.generated.ts), its regular expressions compiled. */
function compile(fields: string[]): NumberingPlan {
	const [callingCode, idd, pattern, lengths, prefixForParsing, transformRule, leadingDigits, types] = fields;
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

/** The fields of a plan: a country's row less its name and example, or a non-geographic plan. */
function fieldsOf(key: string): string[] | undefined {
	if (has(COUNTRIES, key)) return COUNTRIES[key].split(';').slice(1, 9);
	return has(NON_GEOGRAPHIC, key) ? NON_GEOGRAPHIC[key].split(';') : undefined;
}

/**
 * The plan of a country (`DE`), or of a calling code that belongs to no country (`800`).
 * Each is compiled once per process, when first asked for.
 */
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

/** The countries sharing a calling code, the main one first; undefined for none or a non-geographic code. */
export function countriesOfCallingCode(callingCode: string): string[] | undefined {
	return has(CALLING_CODES, callingCode) ? CALLING_CODES[callingCode] : undefined;
}

/** The plan a calling code selects: its main country's, or its non-geographic one. */
export function planOfCallingCode(callingCode: string): NumberingPlan | undefined {
	const countries = countriesOfCallingCode(callingCode);
	return planOf(countries ? countries[0] : callingCode);
}

/** A country by its ISO 3166-1 alpha-2 code (`DE`, `de`); undefined for an unknown code. */
export function countryOf(code: string): Country | undefined {
	const upper = code.toUpperCase();
	if (!has(COUNTRIES, upper)) return undefined;
	let country = countries.get(upper);
	if (!country) {
		const row = COUNTRIES[upper].split(';');
		country = { code: upper, name: row[0], callingCode: row[1], example: { e164: row[9], national: row[10] } };
		countries.set(upper, country);
	}
	return country;
}

/** Every country, for the Default Country list: name, calling code, ISO code. */
export function allCountries(): Array<{ code: string; name: string; callingCode: string }> {
	return Object.keys(COUNTRIES).map((code) => {
		const [name, callingCode] = COUNTRIES[code].split(';', 2);
		return { code, name, callingCode };
	});
}
