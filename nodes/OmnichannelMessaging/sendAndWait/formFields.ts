import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import { listOf, megabytes, say, sayIn } from './texts';
import type { Language, Say } from './texts';

/*
 * The field types of a form, in one list: for each, its name in the editor, how the page draws it,
 * which of the editor's shared parameters it shows, and how a typed value is checked and read.
 * Adding a type is adding its entry here (and a renderer in page.ts if it draws in a new way).
 * Free Text is a form of one required textarea.
 */

/** The largest file the page accepts, per file (n8n's own limit, N8N_FORMDATA_FILE_SIZE_MAX, is larger). */
export const MAX_FILE_MB = 16;
export const MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024;

/** The most files one field takes (Multiple Files); n8n limits the whole upload on its own. */
export const MAX_FILES = 10;

/** The longest text answer the page accepts, in characters (each form field, Free Text's too). */
export const MAX_ANSWER_LENGTH = 10_000;

/** The longest Custom HTML a field may hold, in characters: it is sanitised on every request. */
export const MAX_HTML_LENGTH = 50_000;

/** How a person gives a field's value: types it, picks options, chooses files, or not at all. */
export type Answered = 'typed' | 'picked' | 'files' | 'none';

/** How the page draws a field (page.ts has one renderer for each). */
export type Drawn = 'input' | 'textarea' | 'select' | 'group' | 'file' | 'html' | 'none';

/** Which of the editor's Default Value parameters a type shows, if any. */
export type DefaultKind = 'text' | 'date' | 'option' | 'checkbox';

export interface FieldKind {
	/** The type's name in the editor's Element Type list. */
	name: string;
	answered: Answered;
	drawn: Drawn;
	/** The HTML input type of a field drawn as an input. */
	inputType?: string;
	/** The phone keyboard it asks for (`inputmode`), and what the browser lets it send (`pattern`). */
	inputMode?: string;
	pattern?: string;
	placeholder?: boolean;
	defaultValue?: DefaultKind;
	/** An optional typed field left empty is null, not `""`. */
	emptyIsNull?: boolean;
	/**
	 * A typed value (empty only when optional): what the output holds, or what the person should
	 * fix, in the page's language.
	 */
	read?: (value: string, say: Say) => Checked<unknown>;
}

/** Line ends as browsers send them (CRLF) and as a workflow writes them (LF), made one. */
export const sameLines = (text: string): string => text.replace(/\r\n?/g, '\n');

const asTyped = (value: string) => accepted(sameLines(value));
const trimmed = (value: string) => accepted(value.trim());

const readNumber = (value: string, said: Say): Checked<unknown> => {
	const number = decimalNumber(value);
	return number === undefined ? refused(said('enterNumber')) : accepted(number);
};

// An optional address left empty is the empty text.
const readEmail = (value: string, said: Say): Checked<unknown> =>
	value.trim() === '' || isEmailAddress(value.trim())
		? accepted(value.trim())
		: refused(said('enterEmail'));

const readDate = (value: string, said: Say): Checked<unknown> => {
	const date = calendarDate(value);
	return date === undefined ? refused(said('enterDate')) : accepted(date);
};

/*
 * Digits as a person types them on a phone: ASCII, Arabic-Indic (Arabic), Extended Arabic-Indic
 * (Persian, Urdu) and Devanagari (Hindi), with Arabic's decimal and thousands separators. Read as
 * ASCII on the server; the page's number field lets the browser take any of them (NUMBER_PATTERN).
 */
const NATIVE_ZEROS = [0x660, 0x6f0, 0x966];
const ARABIC_DECIMAL = '٫';
/** Groups a whole number's digits by thousands in Arabic (`١٬٢٥٠`): the number's reader places it. */
const ARABIC_THOUSANDS = '٬';
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
const asciiDigits = (text: string): string => text.replace(TO_ASCII, asciiOf);

// The separators, exponent and signs: `-` escaped, as a class with the `v` flag needs it.
const SIGNS = String.raw`.${ARABIC_DECIMAL}${ARABIC_THOUSANDS}eE+\-${MINUS_SIGN}`;

/**
 * What the page's number field lets a browser send (`pattern`, a whole-value regular expression
 * with the `v` flag): the characters a number may be written with, in any of the digits above.
 * The server reads the number, and says what to fix.
 */
export const NUMBER_PATTERN = String.raw`[\s0-9${NATIVE_DIGITS}${SIGNS}${DIRECTION_MARKS}]*`;

/** n8n's element types, in the order (by name) its Form node lists them. */
export const FIELD_KINDS = {
	checkbox: { name: 'Checkboxes', answered: 'picked', drawn: 'group', defaultValue: 'checkbox' },
	html: { name: 'Custom HTML', answered: 'none', drawn: 'html' },
	date: {
		name: 'Date',
		answered: 'typed',
		drawn: 'input',
		inputType: 'date',
		defaultValue: 'date',
		emptyIsNull: true,
		read: readDate,
	},
	dropdown: { name: 'Dropdown', answered: 'picked', drawn: 'select', defaultValue: 'option' },
	email: {
		name: 'Email',
		answered: 'typed',
		drawn: 'input',
		inputType: 'email',
		placeholder: true,
		defaultValue: 'text',
		read: readEmail,
	},
	file: { name: 'File', answered: 'files', drawn: 'file' },
	hiddenField: { name: 'Hidden Field', answered: 'none', drawn: 'none' },
	number: {
		name: 'Number',
		answered: 'typed',
		drawn: 'input',
		// Not `number`: a browser's number input drops what it cannot read (`٣٫٥` as much as `abc`),
		// so that neither reaches the server nor shows again when refused.
		inputType: 'text',
		inputMode: 'decimal',
		pattern: NUMBER_PATTERN,
		placeholder: true,
		defaultValue: 'text',
		emptyIsNull: true,
		read: readNumber,
	},
	password: {
		name: 'Password',
		answered: 'typed',
		drawn: 'input',
		inputType: 'password',
		placeholder: true,
		read: asTyped,
	},
	radio: { name: 'Radio Buttons', answered: 'picked', drawn: 'group', defaultValue: 'option' },
	text: {
		name: 'Text Input',
		answered: 'typed',
		drawn: 'input',
		inputType: 'text',
		placeholder: true,
		defaultValue: 'text',
		read: trimmed,
	},
	textarea: {
		name: 'Textarea',
		answered: 'typed',
		drawn: 'textarea',
		placeholder: true,
		defaultValue: 'text',
		read: asTyped,
	},
} satisfies Record<string, FieldKind>;

export type FieldType = keyof typeof FIELD_KINDS;

export const FIELD_TYPES = Object.keys(FIELD_KINDS) as FieldType[];

export const kindOf = (type: FieldType): FieldKind => FIELD_KINDS[type];

/** The types whose entry passes `test`, for the editor's display options. */
export const typesWhere = (test: (kind: FieldKind) => boolean): FieldType[] =>
	FIELD_TYPES.filter((type) => test(kindOf(type)));

/** One field as the page shows it and the answer is checked against it. */
export interface FormField {
	type: FieldType;
	/** What the page shows above the input (the label; a hidden field's name). */
	label: string;
	/** The answer's key in the output; none for Custom HTML without an Element Name. */
	key?: string;
	required: boolean;
	placeholder: string;
	/** Checkboxes: the values given, comma-separated; else the one value. */
	defaultValue: string;
	/** Dropdown, checkboxes, radio buttons. */
	options: string[];
	/** Checkboxes, a multiple-choice dropdown, several files. */
	multiple: boolean;
	/** How many options may be picked (checkboxes). */
	minSelections: number;
	maxSelections: number;
	/** Accepted file types: extensions (`.pdf`) or media types (`image/*`), lower case. */
	accept: string[];
	/** Custom HTML, sanitised; a hidden field's value. */
	html: string;
	value: string;
}

/** Free Text's form: one required text area labelled `label`, its answer under `text` (n8n's output). */
export const freeTextField = (label: string): FormField => ({
	type: 'textarea',
	label,
	key: 'text',
	required: true,
	placeholder: '',
	defaultValue: '',
	options: [],
	multiple: false,
	minSelections: 0,
	maxSelections: Infinity,
	accept: [],
	html: '',
	value: '',
});

/** Every field but a hidden field and Custom HTML, whose values are the node's own. */
export const isAsked = (field: FormField): boolean => kindOf(field.type).answered !== 'none';

/** Dropdown, checkboxes and radio buttons: the answer is picked from the field's options. */
export const isPicked = (field: FormField): boolean => kindOf(field.type).answered === 'picked';

/** A field's default values, trimmed: checkboxes' comma-separated, any other's one. */
export const defaultValues = (field: FormField): string[] =>
	(field.type === 'checkbox' ? field.defaultValue.split(',') : [field.defaultValue])
		.map((value) => value.trim())
		.filter(Boolean);

/** The option of `options` that `value` is, line ends aside (a browser sends CRLF). */
export const optionOf = (options: string[], value: string): string | undefined =>
	options.find((option) => sameLines(option) === sameLines(value));

const isDigit = (text: string, index: number) => text[index] >= '0' && text[index] <= '9';

/** The index after the digits from `index`. */
function digitsEnd(text: string, index: number): number {
	let end = index;
	while (isDigit(text, end)) end++;
	return end;
}

/** The index after a whole part from `index`: digits, or 1 to 3 of them then groups of `٬ddd`. */
function wholeEnd(text: string, index: number): number {
	let end = digitsEnd(text, index);
	if (text[end] !== ARABIC_THOUSANDS || end === index || end - index > 3) return end;
	while (text[end] === ARABIC_THOUSANDS && digitsEnd(text, end + 1) === end + 4) end += 4;
	return text[end] === ARABIC_THOUSANDS || isDigit(text, end) ? -1 : end;
}

/**
 * Whether `text` is a decimal number as a person writes it: `[+-]digits[.digits][e[+-]digits]`,
 * with digits on at least one side of the point, the whole part grouped by thousands or not.
 * Read once from left to right.
 */
function isDecimal(text: string): boolean {
	let index = text[0] === '+' || text[0] === '-' ? 1 : 0;
	const whole = wholeEnd(text, index);
	if (whole < 0) return false;
	let fraction = whole;
	if (text[whole] === '.') fraction = digitsEnd(text, whole + 1);
	if (whole === index && fraction <= whole + 1) return false;
	index = fraction;
	if (text[index] === 'e' || text[index] === 'E') {
		const sign = text[index + 1] === '+' || text[index + 1] === '-' ? 1 : 0;
		const exponent = digitsEnd(text, index + 1 + sign);
		if (exponent === index + 1 + sign) return false;
		index = exponent;
	}
	return index === text.length;
}

/**
 * A number as a person writes it in decimal (`-1.5`, `2e3`, `٣٫٥`, `۱۲`, `१२`, `١٬٢٥٠`); not
 * `0x10`, `0b11` or `Infinity`.
 */
export function decimalNumber(value: string): number | undefined {
	const typed = asciiDigits(value).trim();
	if (!isDecimal(typed)) return undefined;
	const number = Number(typed.replaceAll(ARABIC_THOUSANDS, ''));
	return Number.isFinite(number) ? number : undefined;
}

/** `local@domain.tld`: one `@`, no white space, a `.` in the domain with text on both sides. */
export function isEmailAddress(text: string): boolean {
	const at = text.indexOf('@');
	if (at < 1 || text.includes('@', at + 1) || /\s/.test(text)) return false;
	const domain = text.slice(at + 1);
	const dot = domain.indexOf('.', 1);
	return dot >= 1 && dot < domain.length - 1;
}

const TIME = /^T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

/**
 * A date as YYYY-MM-DD when it is one (the date picker's value, in any digits above); with `time`, the editor's
 * date-time too (a default value), as its day. The year is set on its own: `Date.UTC` reads the
 * years 0 to 99 as 1900 to 1999, whose leap years differ.
 */
export function calendarDate(value: string, time = false): string | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(asciiDigits(value).trim());
	if (!match || (match[4] && !(time && TIME.test(match[4])))) return undefined;
	const [year, month, day] = [+match[1], +match[2] - 1, +match[3]];
	const date = new Date(0);
	date.setUTCFullYear(year, month, day);
	return date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day
		? match[0].slice(0, 10)
		: undefined;
}

/** A file field's binary property (several files: `<name>_0`, `<name>_1`…), as n8n's Form node names it. */
export const binaryName = (key: string): string => key.replace(/\W/g, '_');

/**
 * What the page says under a file field, in `language`: the size, how many, the types, and to
 * choose again.
 */
export function fileHint(field: FormField, shownAgain: boolean, language: Language): string {
	const said = sayIn(language);
	return [
		said('hintSize', { size: megabytes(language, MAX_FILE_MB) }),
		field.multiple ? said('hintCount', { count: MAX_FILES }) : '',
		field.accept.length > 0 ? said('hintTypes', { types: listOf(language, field.accept) }) : '',
		shownAgain ? say(language, 'hintAgain') : '',
	]
		.filter(Boolean)
		.join(' ');
}
