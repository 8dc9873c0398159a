/*
 * Digits as a person types them on a phone: ASCII, Arabic-Indic (Arabic), Extended Arabic-Indic
 * (Persian, Urdu) and Devanagari (Hindi), with Arabic's decimal and thousands separators. Read as
 * ASCII on the server; the page's number field lets the browser take any of them (NUMBER_PATTERN).
 */
const NATIVE_ZEROS = [0x660, 0x6f0, 0x966];
const ARABIC_DECIMAL = '٫';
/** Groups a whole number's digits by thousands in Arabic (`١٬٢٥٠`): the number's reader places it. */
export const ARABIC_THOUSANDS = '٬';
const MINUS_SIGN = '−';

const escaped = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;

// As regular expression source, shared by the server's reader and the page's pattern.
const NATIVE_DIGITS = NATIVE_ZEROS.map((zero) => `${escaped(zero)}-${escaped(zero + 9)}`).join('');
/** Invisible marks a number copied from a page may hold: Intl writes U+061C before an Arabic minus. */
const DIRECTION_MARKS = String.raw`\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const TO_ASCII = new RegExp(
	`[${NATIVE_DIGITS}${ARABIC_DECIMAL}${MINUS_SIGN}${DIRECTION_MARKS}]`,
	'g',
);

function asciiOf(character: string): string {
	if (character === ARABIC_DECIMAL) return '.';
	if (character === MINUS_SIGN) return '-';
	const code = character.charCodeAt(0);
	const zero = NATIVE_ZEROS.find((first) => code >= first && code <= first + 9);
	return zero === undefined ? '' : String(code - zero);
}

/**
 * A number or a date as typed, with ASCII digits, `.` for the decimal separator and `-` for the
 * minus; direction marks dropped. Thousands separators stay: only the number's reader places them.
 */
export const asciiDigits = (text: string): string => text.replace(TO_ASCII, asciiOf);

/**
 * What the page's number field lets a browser send: the characters a number may be written with,
 * in any of the digits above (the server reads the number, and says what to fix). An input's
 * pattern is a whole-value regular expression with the `v` flag: `-` is escaped in the class.
 */
export const NUMBER_PATTERN = String.raw`[\s0-9${NATIVE_DIGITS}.${ARABIC_DECIMAL}${ARABIC_THOUSANDS}eE+\-${MINUS_SIGN}${DIRECTION_MARKS}]*`;
