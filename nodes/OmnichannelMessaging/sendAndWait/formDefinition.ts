import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import {
	FIELD_KINDS,
	FIELD_TYPES,
	MAX_HTML_LENGTH,
	binaryName,
	calendarDate,
	decimalNumber,
	defaultValues,
	isAsked,
	isPicked,
	sameLines,
} from './formFields';
import type { FieldType, FormField } from './formFields';
import type { AnswerButton } from './page';
import { sanitizeHtml } from './sanitize';

/*
 * A Custom Form's definition, read from n8n's Form-node parameters (`formFields.values` or the
 * JSON of `jsonOutput`) and checked before the message goes out: a form that cannot be built or
 * answered stops the node with the field named, so that no one is sent a link to a broken page.
 * The webhook reads it again the same way. Building a field and checking it are apart: a check
 * only says whether the field can be used.
 */

/** The keys n8n's Form node knows (n8n-workflow's ALLOWED_FORM_FIELDS_KEYS). */
const KNOWN_KEYS = new Set([
	...['fieldLabel', 'fieldType', 'placeholder', 'defaultValue', 'fieldOptions', 'multiselect'],
	...['multipleFiles', 'acceptFileTypes', 'formatDate', 'requiredField', 'fieldValue', 'html'],
	...['elementName', 'fieldName', 'limitSelection', 'numberOfSelections', 'minSelections'],
	'maxSelections',
]);

/**
 * Keys that would change the output object's prototype, or shadow what code reading it expects,
 * instead of holding an answer.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Binary property names that are Object.prototype's own: a file kept under one would be lost. */
const RESERVED_BINARY_NAMES = new Set([
	...Object.getOwnPropertyNames(Object.prototype),
	'prototype',
]);

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

/** Whether Limit Selection can be met with `count` checkboxes. */
function checkSelections(raw: Raw, count: number): Checked<void> {
	const limit = raw.limitSelection ?? 'unlimited';
	if (limit === 'exact') {
		const exact = wholeNumber(raw.numberOfSelections, 1);
		if (!(exact >= 1 && exact <= count))
			return refused(`Number of Selections must be between 1 and the ${count} checkboxes`);
	} else if (limit === 'range') {
		const [min, max] = [wholeNumber(raw.minSelections, 0), wholeNumber(raw.maxSelections, 1)];
		if (!(min >= 0 && max >= 1 && min <= max && min <= count))
			return refused(
				`the selection range ${raw.minSelections}–${raw.maxSelections} cannot be met with ${count} checkboxes`,
			);
	} else if (limit !== 'unlimited') {
		return refused(`Limit Selection ${JSON.stringify(limit)} is not exact, range or unlimited`);
	}
	return accepted(undefined);
}

/** How many checkboxes may be ticked, from Limit Selection (checked apart); required: at least one. */
function selectionRange(raw: Raw, type: FieldType, count: number, required: boolean) {
	let [min, max] = [0, Infinity];
	if (type === 'checkbox' && raw.limitSelection === 'exact')
		min = max = wholeNumber(raw.numberOfSelections, 1);
	if (type === 'checkbox' && raw.limitSelection === 'range')
		[min, max] = [
			wholeNumber(raw.minSelections, 0),
			Math.min(wholeNumber(raw.maxSelections, 1), count),
		];
	return {
		minSelections: required && type === 'checkbox' ? Math.max(min, 1) : min,
		maxSelections: max,
	};
}

function checkOptions(raw: Raw, field: FormField): Checked<void> {
	if (field.options.length === 0) return refused('it has no options');
	const blank = field.options.indexOf('');
	if (blank >= 0) return refused(`option ${blank + 1} is empty`);
	if (new Set(field.options.map(sameLines)).size !== field.options.length)
		return refused('two options are the same');
	const options = field.options.map(sameLines);
	// Defaults may come from expressions (a customer's data): named, never quoted.
	if (defaultValues(field).some((value) => !options.includes(sameLines(value))))
		return refused('a default value is not one of the options');
	return field.type === 'checkbox'
		? checkSelections(raw, field.options.length)
		: accepted(undefined);
}

/** Whether a field built from `raw` can be shown and answered. */
function checkField(raw: Raw, field: FormField): Checked<void> {
	const { type, defaultValue } = field;
	if (type === 'hiddenField' && !field.key) return refused('a hidden field needs a Field Name');
	if (isAsked(field) && !field.label) return refused('it has no label');
	if (isPicked(field)) return checkOptions(raw, field);
	if (type === 'number' && defaultValue.trim() && decimalNumber(defaultValue) === undefined)
		return refused('the default value is not a number');
	if (type === 'date' && defaultValue.trim() && !calendarDate(defaultValue))
		return refused('the default value is not a date (YYYY-MM-DD)');
	const badType = field.accept.find((entry) => !/^\.[\w-]+$|^[\w-]+\/[\w.+*-]+$/.test(entry));
	if (badType) return refused(`${JSON.stringify(badType)} is not a file type: use e.g. .pdf, .png`);
	return accepted(undefined);
}

/** The raw field's type, when its keys and type are n8n's. */
function checkRaw(raw: Raw, fromJson: boolean): Checked<FieldType> {
	const unknownKey = fromJson ? Object.keys(raw).find((key) => !KNOWN_KEYS.has(key)) : undefined;
	if (unknownKey) return refused(`${JSON.stringify(unknownKey)} is not a form field key`);
	const type = (raw.fieldType ?? 'text') as FieldType;
	if (typeof type !== 'string' || !Object.hasOwn(FIELD_KINDS, type))
		return refused(
			`${JSON.stringify(raw.fieldType)} is not a field type (${FIELD_TYPES.join(', ')})`,
		);
	if (type === 'html' && text(raw.html).length > MAX_HTML_LENGTH)
		return refused(`its HTML is longer than ${MAX_HTML_LENGTH} characters`);
	return accepted(type);
}

/** A field from its raw parameters, as given: a date-time default as its day. */
function fieldOf(raw: Raw, type: FieldType, fromJson: boolean): FormField {
	const label = text(type === 'hiddenField' ? raw.fieldName : raw.fieldLabel).trim();
	const required = raw.requiredField === true && type !== 'html' && type !== 'hiddenField';
	const options = optionsOf(raw);
	const defaultValue = text(raw.defaultValue);
	return {
		type,
		label,
		key: type === 'html' ? text(raw.elementName).trim() || undefined : label || undefined,
		required,
		placeholder: text(raw.placeholder),
		defaultValue: (type === 'date' && calendarDate(defaultValue, true)) || defaultValue,
		options,
		multiple:
			type === 'checkbox' ||
			(type === 'dropdown' && raw.multiselect === true) ||
			// The editor's Multiple Files is on by default; n8n's JSON fields take several files only when asked.
			(type === 'file' && (fromJson ? raw.multipleFiles === true : raw.multipleFiles !== false)),
		...selectionRange(raw, type, options.length, required),
		accept: text(raw.acceptFileTypes)
			.split(',')
			.map((entry) => entry.trim().toLowerCase())
			.filter(Boolean),
		html: type === 'html' ? sanitizeHtml(text(raw.html)) : '',
		value: text(raw.fieldValue),
	};
}

/** One raw field as a form field, when it can be one. */
function buildField(raw: Raw, fromJson: boolean): Checked<FormField> {
	const type = checkRaw(raw, fromJson);
	if (!type.ok) return type;
	const field = fieldOf(raw, type.value, fromJson);
	const checked = checkField(raw, field);
	return checked.ok ? accepted(field) : checked;
}

const named = (index: number, raw: unknown) => {
	const label = text((raw as Raw | null)?.fieldLabel ?? (raw as Raw | null)?.fieldName).trim();
	return `field ${index + 1}${label ? ` (${JSON.stringify(label)})` : ''}`;
};

/** Whether two file fields' binary properties could be the same: each field's files need their own. */
function sameBinary(one: FormField, other: FormField): boolean {
	const [a, b] = [binaryName(one.key!), binaryName(other.key!)];
	const numbered = (field: FormField, base: string, name: string) =>
		field.multiple && name.startsWith(`${base}_`) && /^\d+$/.test(name.slice(base.length + 1));
	return a === b || numbered(one, a, b) || numbered(other, b, a);
}

/** Whether a field's key, and its files' binary property, are its own among the fields before it. */
function checkKey(field: FormField, fields: FormField[]): Checked<void> {
	if (field.key === undefined) return accepted(undefined);
	if (field.key === 'respondedAt')
		return refused('respondedAt is the time of the answer; use another label');
	if (RESERVED_KEYS.has(field.key))
		return refused(`${field.key} cannot name an answer; use another label`);
	const index = fields.findIndex((other) => other.key === field.key);
	if (index >= 0)
		return refused(`field ${index + 1} has the same label; each answer needs its own`);
	if (field.type !== 'file') return accepted(undefined);
	const name = binaryName(field.key);
	if (RESERVED_BINARY_NAMES.has(name))
		return refused(`its files' binary property (${name}) cannot be named so; change the label`);
	const clash = fields.findIndex((other) => other.type === 'file' && sameBinary(field, other));
	if (clash < 0) return accepted(undefined);
	return refused(
		`its files' binary property (${name}) could be field ${clash + 1}'s; change one label`,
	);
}

/** The fields, checked as a whole: every answer needs its own key, and respondedAt is n8n's. */
function buildFields(list: unknown[], fromJson: boolean): Checked<FormField[]> {
	if (list.length === 0) return refused('the form has no fields: add at least one');
	const fields: FormField[] = [];
	for (const [index, raw] of list.entries()) {
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
			return refused(`${named(index, raw)} is not an object`);
		const field = buildField(raw as Raw, fromJson);
		if (!field.ok) return refused(`${named(index, raw)}: ${field.reason}`);
		const key = checkKey(field.value, fields);
		if (!key.ok) return refused(`${named(index, raw)}: ${key.reason}`);
		fields.push(field.value);
	}
	return accepted(fields);
}

/**
 * The form from n8n's parameters: `defineForm` `json` reads `jsonOutput` (a JSON array, or the
 * array an expression gave), anything else `formFields.values`.
 */
export function readForm(
	defineForm: unknown,
	jsonOutput: unknown,
	values: unknown,
): Checked<FormField[]> {
	if (defineForm !== 'json') return buildFields(Array.isArray(values) ? values : [], false);
	let parsed = jsonOutput;
	if (typeof jsonOutput === 'string') {
		try {
			parsed = JSON.parse(jsonOutput);
		} catch (error) {
			// The parser's message can quote the JSON (a phone number in it): only its position is given.
			const position = /position (\d+)/.exec((error as Error).message)?.[1];
			return refused(`the JSON is not valid${position ? ` at position ${position}` : ''}`);
		}
	}
	if (!Array.isArray(parsed)) return refused('the JSON must be an array of fields');
	return buildFields(parsed, true);
}

/*
 * Choice's options: read from n8n's parameters as the form's fields are, and checked before the
 * message goes out the same way.
 */

/** The most options a Choice offers: each is a full-width button on a phone's screen. */
export const MAX_CHOICES = 10;
const CHOICES = 'Choices';

const labelText = (entry: unknown): string => {
	const value = (entry as { label?: unknown } | null)?.label;
	return (typeof value === 'string' || typeof value === 'number' ? String(value) : '').trim();
};

/**
 * Choice's buttons, one per option in order, each posting its index; or what is wrong with the
 * options. Labels may come from expressions (a customer's data): an option is named by its
 * position, never quoted. `shown` is the labels in the page's language, one a line: a button
 * shows its line where it is not empty, and its answer is the option's label all the same.
 */
export function choiceButtons(given: unknown, shown: unknown = ''): Checked<AnswerButton[]> {
	const labels = (Array.isArray(given) ? given : []).map(labelText);
	if (labels.length === 0) return refused('add at least one choice', CHOICES);
	if (labels.length > MAX_CHOICES)
		return refused(`${labels.length} choices are too many: keep ${MAX_CHOICES} at most`, CHOICES);
	const empty = labels.indexOf('');
	if (empty >= 0) return refused(`choice ${empty + 1} has no label`, CHOICES);
	const twice = labels.findIndex((text, index) => labels.indexOf(text) !== index);
	if (twice >= 0) {
		const first = labels.indexOf(labels[twice]) + 1;
		return refused(`choices ${first} and ${twice + 1} have the same label`, CHOICES);
	}
	const lines = typeof shown === 'string' ? shown.split(/\r?\n/).map((line) => line.trim()) : [];
	return accepted(
		labels.map((text, index) => ({
			label: lines[index] || text,
			value: String(index),
			output: { choice: text },
		})),
	);
}
