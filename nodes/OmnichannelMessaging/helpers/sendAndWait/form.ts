import { MAX_HTML_LENGTH, binaryName, calendarDate, decimalNumber } from './formValues';
import { sanitizeHtml } from './sanitize';

/*
 * A Custom Form's definition, read from n8n's Form-node parameters (`formFields.values` or the
 * JSON of `jsonOutput`) and checked before the message goes out: a form that cannot be built or
 * answered stops the node with the field named, so that no one is sent a link to a broken page.
 */

/** What the person entered in one field, to show again: text, or the options they picked. */
export type Entered = string | string[];

const FIELD_TYPES = [
	'text',
	'textarea',
	'email',
	'number',
	'password',
	'date',
	'dropdown',
	'checkbox',
	'radio',
	'hiddenField',
	'html',
	'file',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The keys n8n's Form node knows (n8n-workflow's ALLOWED_FORM_FIELDS_KEYS). */
const KNOWN_KEYS = new Set([
	...['fieldLabel', 'fieldType', 'placeholder', 'defaultValue', 'fieldOptions', 'multiselect'],
	...['multipleFiles', 'acceptFileTypes', 'formatDate', 'requiredField', 'fieldValue', 'html'],
	...['elementName', 'fieldName', 'limitSelection', 'numberOfSelections', 'minSelections'],
	'maxSelections',
]);

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

/** Dropdown, checkboxes and radio buttons: the answer is picked from the field's options. */
export const isChoice = (field: FormField): boolean =>
	field.type === 'checkbox' || field.type === 'dropdown' || field.type === 'radio';

/** Every field but a hidden field and Custom HTML, whose values are the node's own. */
export const isAsked = (field: FormField): boolean =>
	field.type !== 'hiddenField' && field.type !== 'html';

/** A field's default values, trimmed: checkboxes' comma-separated, any other's one. */
export const defaultValues = (field: FormField): string[] =>
	(field.type === 'checkbox' ? field.defaultValue.split(',') : [field.defaultValue])
		.map((value) => value.trim())
		.filter(Boolean);

export type FormDefinition = { fields: FormField[] } | { problem: string };

type Raw = Record<string, unknown>;

const text = (value: unknown): string =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

function optionsOf(raw: Raw): string[] {
	const list = raw.fieldOptions as { values?: unknown } | unknown[] | undefined;
	const values = Array.isArray(list) ? list : Array.isArray(list?.values) ? list.values : [];
	return values.map((entry) => text((entry as Raw | null)?.option ?? entry).trim());
}

function wholeNumber(value: unknown, fallback: number): number {
	const number = value === undefined || value === '' ? fallback : Number(value);
	return Number.isInteger(number) ? number : NaN;
}

function selectionLimits(raw: Raw, field: FormField): string | undefined {
	const limit = raw.limitSelection ?? 'unlimited';
	const count = field.options.length;
	if (limit === 'exact') {
		const exact = wholeNumber(raw.numberOfSelections, 1);
		if (!(exact >= 1 && exact <= count))
			return `Number of Selections must be between 1 and the ${count} checkboxes`;
		field.minSelections = field.maxSelections = exact;
	} else if (limit === 'range') {
		const min = wholeNumber(raw.minSelections, 0);
		const max = wholeNumber(raw.maxSelections, 1);
		if (!(min >= 0 && max >= 1 && min <= max && min <= count))
			return `the selection range ${raw.minSelections}–${raw.maxSelections} cannot be met with ${count} checkboxes`;
		[field.minSelections, field.maxSelections] = [min, Math.min(max, count)];
	} else if (limit !== 'unlimited') {
		return `Limit Selection ${JSON.stringify(limit)} is not exact, range or unlimited`;
	}
	if (field.required) field.minSelections = Math.max(field.minSelections, 1);
	return undefined;
}

function choiceProblem(raw: Raw, field: FormField): string | undefined {
	if (field.options.length === 0) return 'it has no options';
	const blank = field.options.indexOf('');
	if (blank >= 0) return `option ${blank + 1} is empty`;
	if (new Set(field.options).size !== field.options.length) return 'two options are the same';
	const unknown = defaultValues(field).find((value) => !field.options.includes(value));
	// Defaults may come from expressions (a customer's data): named, never quoted.
	if (unknown !== undefined) return 'a default value is not one of the options';
	return field.type === 'checkbox' ? selectionLimits(raw, field) : undefined;
}

function typeProblem(raw: Raw, field: FormField): string | undefined {
	const { type, defaultValue } = field;
	if (type === 'hiddenField' && !field.key) return 'a hidden field needs a Field Name';
	if (isAsked(field) && !field.label) return 'it has no label';
	if (isChoice(field)) return choiceProblem(raw, field);
	if (type === 'number' && defaultValue.trim() && decimalNumber(defaultValue) === undefined)
		return 'the default value is not a number';
	if (type === 'date' && defaultValue.trim()) {
		const date = calendarDate(defaultValue, true);
		if (!date) return 'the default value is not a date (YYYY-MM-DD)';
		field.defaultValue = date;
	}
	const badType = field.accept.find((entry) => !/^\.[\w-]+$|^[\w-]+\/[\w.+*-]+$/.test(entry));
	if (badType) return `${JSON.stringify(badType)} is not a file type: use e.g. .pdf, .png`;
	return undefined;
}

/** One raw field as a form field, or what is wrong with it. */
function buildField(raw: Raw, fromJson: boolean): FormField | string {
	const unknownKey = fromJson ? Object.keys(raw).find((key) => !KNOWN_KEYS.has(key)) : undefined;
	if (unknownKey) return `${JSON.stringify(unknownKey)} is not a form field key`;
	const type = (raw.fieldType ?? 'text') as FieldType;
	if (!FIELD_TYPES.includes(type))
		return `${JSON.stringify(raw.fieldType)} is not a field type (${FIELD_TYPES.join(', ')})`;
	if (type === 'html' && text(raw.html).length > MAX_HTML_LENGTH)
		return `its HTML is longer than ${MAX_HTML_LENGTH} characters`;
	const label = text(type === 'hiddenField' ? raw.fieldName : raw.fieldLabel).trim();
	const key = type === 'html' ? text(raw.elementName).trim() || undefined : label || undefined;
	const multiple =
		type === 'checkbox' ||
		(type === 'dropdown' && raw.multiselect === true) ||
		// The editor's Multiple Files is on by default; n8n's JSON fields take several files only when asked.
		(type === 'file' && (fromJson ? raw.multipleFiles === true : raw.multipleFiles !== false));
	const field: FormField = {
		type,
		label,
		key,
		required: raw.requiredField === true && type !== 'html' && type !== 'hiddenField',
		placeholder: text(raw.placeholder),
		defaultValue: text(raw.defaultValue),
		options: optionsOf(raw),
		multiple,
		minSelections: 0,
		maxSelections: Infinity,
		accept: text(raw.acceptFileTypes)
			.split(',')
			.map((entry) => entry.trim().toLowerCase())
			.filter(Boolean),
		html: type === 'html' ? sanitizeHtml(text(raw.html)) : '',
		value: text(raw.fieldValue),
	};
	return typeProblem(raw, field) ?? field;
}

const named = (index: number, raw: unknown) => {
	const label = text((raw as Raw | null)?.fieldLabel ?? (raw as Raw | null)?.fieldName).trim();
	return `field ${index + 1}${label ? ` (${JSON.stringify(label)})` : ''}`;
};

/**
 * Keys that would change the output object's prototype, or shadow what code reading it expects,
 * instead of holding an answer.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether two file fields' binary properties could be the same: each field's files need their own. */
function sameBinary(one: FormField, other: FormField): boolean {
	const [a, b] = [binaryName(one.key!), binaryName(other.key!)];
	const numbered = (field: FormField, base: string, name: string) =>
		field.multiple && new RegExp(`^${base}_\\d+$`).test(name);
	return a === b || numbered(one, a, b) || numbered(other, b, a);
}

/** What is wrong with a field's key among the fields before it. */
function keyProblem(field: FormField, fields: FormField[]): string | undefined {
	if (field.key === undefined) return undefined;
	if (field.key === 'respondedAt')
		return 'respondedAt is the time of the answer; use another label';
	if (RESERVED_KEYS.has(field.key)) return `${field.key} cannot name an answer; use another label`;
	const index = fields.findIndex((other) => other.key === field.key);
	if (index >= 0) return `field ${index + 1} has the same label; each answer needs its own`;
	const clash =
		field.type === 'file'
			? fields.findIndex((other) => other.type === 'file' && sameBinary(field, other))
			: -1;
	if (clash < 0) return undefined;
	const name = binaryName(field.key);
	return `its files' binary property (${name}) could be field ${clash + 1}'s; change one label`;
}

/** The fields, checked as a whole: every answer needs its own key, and respondedAt is n8n's. */
function buildFields(list: unknown[], fromJson: boolean): FormDefinition {
	if (list.length === 0) return { problem: 'the form has no fields: add at least one' };
	const fields: FormField[] = [];
	for (const [index, raw] of list.entries()) {
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
			return { problem: `${named(index, raw)} is not an object` };
		const field = buildField(raw as Raw, fromJson);
		if (typeof field === 'string') return { problem: `${named(index, raw)}: ${field}` };
		const problem = keyProblem(field, fields);
		if (problem) return { problem: `${named(index, raw)}: ${problem}` };
		fields.push(field);
	}
	return { fields };
}

/**
 * The form from n8n's parameters: `defineForm` `json` reads `jsonOutput` (a JSON array, or the
 * array an expression gave), anything else `formFields.values`.
 */
export function readForm(
	defineForm: unknown,
	jsonOutput: unknown,
	values: unknown,
): FormDefinition {
	if (defineForm !== 'json') return buildFields(Array.isArray(values) ? values : [], false);
	let parsed = jsonOutput;
	if (typeof jsonOutput === 'string') {
		try {
			parsed = JSON.parse(jsonOutput);
		} catch (error) {
			// The parser's message can quote the JSON (a phone number in it): only its position is given.
			const position = /position (\d+)/.exec((error as Error).message)?.[1];
			return { problem: `the JSON is not valid${position ? ` at position ${position}` : ''}` };
		}
	}
	if (!Array.isArray(parsed)) return { problem: 'the JSON must be an array of fields' };
	return buildFields(parsed, true);
}
