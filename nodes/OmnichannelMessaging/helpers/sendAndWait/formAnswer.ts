import type { IDataObject } from 'n8n-workflow';

import type { Entered, FormField } from './form';
import { isAsked, isChoice } from './form';
import {
	MAX_ANSWER_LENGTH,
	MAX_FILE_BYTES,
	MAX_FILE_MB,
	MAX_FILES,
	binaryName,
	calendarDate,
	decimalNumber,
} from './formValues';

/*
 * A Custom Form answer, checked against the form on the server: the page's own checks in the
 * browser are a convenience, this is the rule. n8n parses the page's multipart POST itself
 * (formidable): the node gets `{ data, files }`, each value a string or, when the name came more
 * than once, an array; each file written to a temporary path that n8n removes after the request.
 */

/** A file as n8n's multipart parser hands it over. */
export interface UploadedFile {
	filepath: string;
	originalFilename?: string | null;
	newFilename?: string;
	mimetype?: string | null;
	size: number;
}

/** A file to keep as a binary property of the output item. */
export interface Upload {
	property: string;
	file: UploadedFile;
}

export type FormAnswer =
	| { ok: true; json: IDataObject; uploads: Upload[] }
	| { ok: false; errors: string[]; entered: Entered[]; incomplete?: boolean };

/**
 * The last input of a form with a file field. n8n 1.x stops reading a form at an empty file input
 * or a file over its size limit and hands the node what came before: without this mark the
 * answer is known to be cut short, and nothing is recorded.
 */
export const FORM_END = 'form-end';

const strings = (value: unknown): string[] =>
	(Array.isArray(value) ? value : value === undefined || value === null ? [] : [value])
		.filter((entry) => typeof entry === 'string' || typeof entry === 'number')
		.map(String);

/** Files as uploaded; n8n 1.x hands an empty file input over as a file without a name. */
const filesOf = (value: unknown): UploadedFile[] =>
	(Array.isArray(value) ? value : value ? [value] : []).filter(
		(file: UploadedFile) =>
			typeof file?.filepath === 'string' && !(file.size === 0 && !file.originalFilename),
	);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function accepted(field: FormField, file: UploadedFile): boolean {
	if (field.accept.length === 0) return true;
	const name = (file.originalFilename ?? '').toLowerCase();
	const type = (file.mimetype ?? '').toLowerCase();
	return field.accept.some((entry) =>
		entry.startsWith('.')
			? name.endsWith(entry)
			: entry.endsWith('/*')
				? type.startsWith(entry.slice(0, -1))
				: type === entry,
	);
}

function fileProblem(field: FormField, files: UploadedFile[]): string | undefined {
	if (files.length === 0) return field.required ? 'Choose a file.' : undefined;
	if (files.length > 1 && !field.multiple) return 'Choose one file only.';
	if (files.length > MAX_FILES) return `Choose up to ${MAX_FILES} files.`;
	if (files.some((file) => !accepted(field, file)))
		return `Choose a file of these types: ${field.accept.join(', ')}.`;
	if (files.some((file) => file.size > MAX_FILE_BYTES))
		return `Each file can be up to ${MAX_FILE_MB} MB.`;
	return undefined;
}

function choiceProblem(field: FormField, picked: string[]): string | undefined {
	if (picked.some((value) => !field.options.includes(value)))
		return 'Choose from the options offered.';
	if (new Set(picked).size !== picked.length) return 'Choose each option once.';
	if (picked.length === 0 && field.minSelections === 0)
		return field.required ? 'Choose an option.' : undefined;
	if (!field.multiple && picked.length > 1) return 'Choose one option.';
	const { minSelections: min, maxSelections: max } = field;
	if (min === max && picked.length !== min) return `Choose exactly ${min}.`;
	if (picked.length < min || picked.length > max)
		return max === Infinity ? `Choose at least ${min}.` : `Choose between ${min} and ${max}.`;
	return undefined;
}

function textProblem(field: FormField, value: string): string | undefined {
	if (value.trim() === '') return field.required ? 'Fill in this field.' : undefined;
	if (value.length > MAX_ANSWER_LENGTH)
		return `Shorten this to ${MAX_ANSWER_LENGTH} characters or fewer.`;
	if (field.type === 'number' && decimalNumber(value) === undefined) return 'Enter a number.';
	if (field.type === 'email' && !EMAIL.test(value.trim()))
		return 'Enter an email address, e.g. name@example.com.';
	if (field.type === 'date' && !calendarDate(value)) return 'Enter a date as YYYY-MM-DD.';
	return undefined;
}

/** The output value of a field that passed its checks, in n8n's Form node's types. */
function outputValue(field: FormField, given: string[], files: UploadedFile[]): unknown {
	const value = given[0] ?? '';
	switch (field.type) {
		case 'checkbox':
			return given;
		case 'dropdown':
			return field.multiple ? given : (given[0] ?? null);
		case 'radio':
			return given[0] ?? null;
		case 'number':
			return value.trim() === '' ? null : (decimalNumber(value) ?? null);
		case 'date':
			return value.trim() === '' ? null : calendarDate(value);
		case 'text':
		case 'email':
			return value.trim();
		case 'hiddenField':
			return field.value;
		case 'html':
			return field.html;
		case 'file': {
			const meta = files.map((file) => ({
				filename: file.originalFilename ?? file.newFilename ?? '',
				mimetype: file.mimetype ?? '',
				size: file.size,
			}));
			return meta.length === 0 ? null : field.multiple ? meta : meta[0];
		}
		default:
			return value.replace(/\r\n?/g, '\n');
	}
}

/** n8n's binary property names: the key with non-word characters as `_`, `_0`, `_1`… for several. */
function uploadsOf(key: string, files: UploadedFile[]): Upload[] {
	const base = binaryName(key);
	return files.map((file, index) => ({
		property: files.length > 1 ? `${base}_${index}` : base,
		file,
	}));
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body n8n's multipart parser gives the node: `{ data, files }`; anything else is empty. */
function partsOf(body: IDataObject): { data: IDataObject; files: IDataObject } {
	return {
		data: isObject(body.data) ? body.data : {},
		files: isObject(body.files) ? body.files : {},
	};
}

/**
 * The answer's output (`{ <key>: value }`, without `respondedAt`) and its files, or a message per
 * field (by index, empty where the field is fine) and what was entered, to show the form again.
 * Inputs are named `field-<index>` as on n8n's form; a hidden field's and Custom HTML's values
 * are the node's own, never the page's.
 */
export function readFormAnswer(fields: FormField[], body: IDataObject): FormAnswer {
	const { data, files } = partsOf(body);
	const json: IDataObject = {};
	const uploads: Upload[] = [];
	const errors: string[] = [];
	const entered: Entered[] = [];
	for (const [index, field] of fields.entries()) {
		const choice = isChoice(field);
		// A dropdown's first entry, "Choose…", posts an empty value: no choice.
		const given = strings(data[`field-${index}`]).filter((value) => !choice || value !== '');
		const fieldFiles = field.type === 'file' ? filesOf(files[`field-${index}`]) : [];
		let problem: string | undefined;
		if (field.type === 'file') problem = fileProblem(field, fieldFiles);
		else if (choice) problem = choiceProblem(field, given);
		else if (isAsked(field)) {
			problem = given.length > 1 ? 'Enter one value.' : textProblem(field, given[0] ?? '');
		}
		errors.push(problem ?? '');
		// Shown again: only options offered, and no more text than an answer may hold.
		entered.push(
			choice
				? given.filter((value) => field.options.includes(value))
				: (given[0] ?? '').slice(0, MAX_ANSWER_LENGTH),
		);
		if (field.key === undefined) continue;
		json[field.key] = outputValue(field, given, fieldFiles) as IDataObject[string];
		uploads.push(...uploadsOf(field.key, fieldFiles));
	}
	const incomplete = fields.some((field) => field.type === 'file') && data[FORM_END] === undefined;
	if (incomplete || errors.some(Boolean)) return { ok: false, errors, entered, incomplete };
	return { ok: true, json, uploads };
}
