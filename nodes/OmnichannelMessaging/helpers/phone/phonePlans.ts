import { CALLING_CODES, COUNTRIES, NON_GEOGRAPHIC } from './phoneTable.generated';

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
