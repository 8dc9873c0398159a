// libphonenumber-js's national reading (parse.js with a default country, then isValid) on the table
// scripts/phones-generate.js builds; test/robustness/phones.property.test.ts holds it to the library.
import { countriesOfCallingCode, planOf, planOfCallingCode } from './phonePlans';
import type { NumberingPlan } from './phonePlans';

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
