import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import {
	MAX_ANSWER_LENGTH,
	MAX_FILE_BYTES,
	MAX_FILE_MB,
	MAX_FILES,
	binaryName,
	isAsked,
	isPicked,
	kindOf,
	optionOf,
} from './formFields';
import type { FormField } from './formFields';
import type { AnswerButton, AnswerView, Entered, PageOptions } from './page';
import { FORM_END } from './page';
import { ENGLISH, listOf, megabytes, sayIn } from './texts';
import type { Say } from './texts';

/*
 * The one answer reader: the button tapped (Approval, Choice), or a form's fields (Free Text is a
 * form of one), checked on the server: the page's own checks in the browser are a convenience,
 * this is the rule. n8n parses the page's multipart POST itself (formidable): the node gets
 * `{ data, files }`, each value a string or, when the name came more than once, an array; each
 * file written to a temporary path that n8n removes after the request.
 */

/*
 * A form's files: as n8n's multipart parser hands them over, checked against their field, and
 * kept as binary properties of the item the execution resumes with.
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

/** Files as uploaded; n8n 1.x hands an empty file input over as a file without a name. */
export const filesOf = (value: unknown): UploadedFile[] =>
	(Array.isArray(value) ? value : value ? [value] : []).filter(
		(file: UploadedFile) =>
			typeof file?.filepath === 'string' && !(file.size === 0 && !file.originalFilename),
	);

function isAccepted(field: FormField, file: UploadedFile): boolean {
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

/** A file field's files: their metadata (one, several or none), or what to fix. */
export function readFiles(
	field: FormField,
	files: UploadedFile[],
	said: Say = sayIn(ENGLISH),
): Checked<unknown> {
	if (files.length === 0) return field.required ? refused(said('chooseFile')) : accepted(null);
	if (files.length > 1 && !field.multiple) return refused(said('chooseOneFile'));
	if (files.length > MAX_FILES) return refused(said('chooseUpToFiles', { count: MAX_FILES }));
	const { language } = said;
	if (files.some((file) => !isAccepted(field, file)))
		return refused(said('fileTypes', { types: listOf(language, field.accept) }));
	if (files.some((file) => file.size > MAX_FILE_BYTES))
		return refused(said('fileTooLarge', { size: megabytes(language, MAX_FILE_MB) }));
	const meta = files.map((file) => ({
		filename: file.originalFilename ?? file.newFilename ?? '',
		mimetype: file.mimetype ?? '',
		size: file.size,
	}));
	return accepted(field.multiple ? meta : meta[0]);
}

/** n8n's binary property names: the key with non-word characters as `_`, `_0`, `_1`… for several. */
export function uploadsOf(key: string, files: UploadedFile[]): Upload[] {
	const base = binaryName(key);
	return files.map((file, index) => ({
		property: files.length > 1 ? `${base}_${index}` : base,
		file,
	}));
}

/**
 * The item to resume with: n8n's output, and a form's files as binary properties, copied from
 * n8n's temporary files (which n8n removes once the request ends) as n8n's Form node does.
 */
export async function resumeItem(
	functions: IWebhookFunctions,
	uploads: Upload[],
	data: IDataObject,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: { data } };
	if (uploads.length === 0) return item;
	const binary: IBinaryKeyData = {};
	for (const { property, file } of uploads) {
		const name = file.originalFilename ?? file.newFilename ?? property;
		binary[property] = await functions.nodeHelpers.copyBinaryFile(
			file.filepath,
			name,
			file.mimetype ?? undefined,
		);
	}
	return { ...item, binary };
}

/** What the message's links and the answer page offer, read the same way when sending and answering. */
export type AnswerConfig = ButtonsConfig | FormConfig;

/**
 * A page answered with one tap: its buttons, posting their value under `name`. Without `linkLabel`
 * the message carries one link per button, its value signed in (Approval, as n8n sends it); with
 * it, one link to the page after that label.
 */
export interface ButtonsConfig {
	kind: 'buttons';
	name: string;
	buttons: AnswerButton[];
	linkLabel?: string;
	page: PageOptions;
}

export interface FormConfig {
	kind: 'form';
	fields: FormField[];
	linkLabel: string;
	page: PageOptions;
}

/** What the webhook was asked: the method, the link's signed query and the form's body. */
export interface AnswerRequest {
	method: string;
	/**
	 * The query as n8n signed it (Send and Wait's waiting URL); empty on the trigger, whose query
	 * no one signs, so that there only the form answers.
	 */
	query: IDataObject;
	body: IDataObject;
	/**
	 * Whether n8n parsed the body as multipart/form-data (its request's `contentType`): only then
	 * are a form's `files` n8n's own temporary uploads rather than paths the sender typed.
	 */
	multipart?: boolean;
}

/** The page to answer with, its status, and the item to resume with when an answer is recorded. */
export interface AnswerOutcome {
	status: number;
	view: AnswerView;
	data?: IDataObject;
	/** A form's files, to keep as the item's binary properties. */
	uploads?: Upload[];
}

/** A form's answer: its output and files, or a message per field and what was entered. */
export type FormAnswer =
	| { ok: true; json: IDataObject; uploads: Upload[] }
	| { ok: false; errors: string[]; entered: Entered[]; incomplete?: boolean };

/** The buttons a link offers: the one whose value is signed into it (an Approval link), or every one. */
function offeredButtons({ name, buttons }: ButtonsConfig, query: IDataObject): AnswerButton[] {
	const signed = buttons.filter((button) => button.value === query[name]);
	return signed.length > 0 ? signed : buttons;
}

/**
 * The button tapped, found by the value it posts among the buttons the node offers: a value signed
 * into the link wins over the form's, as only the link's is vouched for by n8n. Any other value (a
 * page from an older version of the node, a crafted request) gets the buttons again, and the
 * execution waits on.
 */
function recordTap(
	request: AnswerRequest,
	config: ButtonsConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	const given = request.query[config.name] ?? request.body[config.name];
	const buttons = offeredButtons(config, request.query);
	const button = buttons.find(({ value }) => value === given);
	const said = sayIn(config.page.language ?? ENGLISH);
	if (!button) {
		const view = { kind: 'buttons' as const, question, name: config.name, buttons };
		return { status: 400, view: { ...view, alert: said('notAButton') } };
	}
	return {
		status: 200,
		view: { kind: 'recorded', recorded: said('recordedChoice', { label: button.label }) },
		data: { ...button.output, respondedAt: now.toISOString() },
	};
}

const strings = (value: unknown): string[] =>
	(Array.isArray(value) ? value : value === undefined || value === null ? [] : [value])
		.filter((entry) => typeof entry === 'string' || typeof entry === 'number')
		.map(String);

/** The options picked, as the form defines them, or what to fix. */
function readPicked(field: FormField, given: string[], said: Say): Checked<unknown> {
	const found = given.map((value) => optionOf(field.options, value));
	if (found.some((option) => option === undefined)) return refused(said('chooseOffered'));
	const picked = found as string[];
	if (new Set(picked).size !== picked.length) return refused(said('chooseOnce'));
	const { minSelections: min, maxSelections: max } = field;
	const output = field.type === 'checkbox' || field.multiple ? picked : (picked[0] ?? null);
	if (picked.length === 0 && min === 0)
		return field.required ? refused(said('chooseOption')) : accepted(output);
	if (!field.multiple && picked.length > 1) return refused(said('chooseOne'));
	if (min === max && picked.length !== min) return refused(said('chooseExactly', { count: min }));
	if (picked.length < min || picked.length > max)
		return refused(
			max === Infinity
				? said('chooseAtLeast', { count: min })
				: min === 0
					? said('chooseAtMost', { count: max })
					: said('chooseBetween', { min, count: max }),
		);
	return accepted(output);
}

/** A typed value: its type's output, `""` or null when left empty, or what to fix. */
function readTyped(field: FormField, given: string[], said: Say): Checked<unknown> {
	if (given.length > 1) return refused(said('enterOne'));
	const value = given[0] ?? '';
	const kind = kindOf(field.type);
	if (value.trim() === '') {
		if (field.required) return refused(said('fillIn'));
		if (kind.emptyIsNull) return accepted(null);
	}
	if (value.length > MAX_ANSWER_LENGTH)
		return refused(said('shorten', { count: MAX_ANSWER_LENGTH }));
	return kind.read ? kind.read(value, said) : accepted(value);
}

/** One field's output value, or what to fix; a hidden field's and Custom HTML's are the node's. */
function readField(
	field: FormField,
	given: string[],
	files: UploadedFile[],
	said: Say,
): Checked<unknown> {
	const answered = kindOf(field.type).answered;
	if (answered === 'files') return readFiles(field, files, said);
	if (answered === 'picked') return readPicked(field, given, said);
	if (answered === 'typed') return readTyped(field, given, said);
	return accepted(field.type === 'hiddenField' ? field.value : field.html);
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The answer's output (`{ <key>: value }`, without `respondedAt`) and its files, or a message per
 * field (by index, empty where the field is fine) and what was entered, to show the form again.
 * Inputs are named `field-<index>` as on n8n's form. Only n8n's multipart `{ data, files }` is read.
 */
export function readFormAnswer(
	fields: FormField[],
	body: IDataObject,
	said: Say = sayIn(ENGLISH),
): FormAnswer {
	const data = isObject(body.data) ? body.data : {};
	const files = isObject(body.files) ? body.files : {};
	const json: IDataObject = {};
	const [uploads, errors, entered]: [Upload[], string[], Entered[]] = [[], [], []];
	for (const [index, field] of fields.entries()) {
		const picked = isPicked(field);
		// A dropdown's first entry, "Choose…", posts an empty value: nothing picked.
		const given = strings(data[`field-${index}`]).filter((value) => !picked || value !== '');
		const fieldFiles = field.type === 'file' ? filesOf(files[`field-${index}`]) : [];
		const value = readField(field, given, fieldFiles, said);
		errors.push(value.ok ? '' : value.reason);
		// Shown again: only options offered, and no more text than an answer may hold.
		entered.push(
			picked
				? given.flatMap((text) => optionOf(field.options, text) ?? [])
				: (given[0] ?? '').slice(0, MAX_ANSWER_LENGTH),
		);
		if (field.key === undefined || !value.ok) continue;
		json[field.key] = value.value as IDataObject[string];
		uploads.push(...uploadsOf(field.key, fieldFiles));
	}
	const incomplete = fields.some((field) => field.type === 'file') && data[FORM_END] === undefined;
	if (incomplete || errors.some(Boolean)) return { ok: false, errors, entered, incomplete };
	return { ok: true, json, uploads };
}

/** How the page shows a recorded value: a password hidden, files by name. */
function shown(field: FormField, value: unknown): string {
	if (value === null || value === undefined || value === '') return '—';
	if (field.type === 'password') return '••••••';
	const list = Array.isArray(value) ? value : [value];
	return list
		.map((entry) =>
			typeof entry === 'object' ? String((entry as IDataObject).filename) : String(entry),
		)
		.join(', ');
}

/**
 * A form's answer: recorded when every field passes its check (n8n's output, respondedAt last so
 * that no field can set it), else the form again with what was entered and what to fix. Files are
 * read from the paths in the body: only n8n's multipart parser may name them (any other body could
 * name a server file), as n8n's Form node asserts. A Free Text page that was open while the node
 * was upgraded posts `text` without multipart: it gets the form again, and the execution waits on.
 */
function recordForm(
	request: AnswerRequest,
	{ fields, page }: FormConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	const view = { kind: 'form' as const, question, fields };
	const said = sayIn(page.language ?? ENGLISH);
	if (!request.multipart) return { status: 400, view: { ...view, alert: said('notFromForm') } };
	const answer = readFormAnswer(fields, request.body, said);
	if (!answer.ok) {
		const states = answer.errors.map((error, index) => ({ error, entered: answer.entered[index] }));
		const alert = said(answer.incomplete ? 'cutShort' : 'fixMarked');
		return { status: 400, view: { ...view, states, alert } };
	}
	const answers = fields
		.filter((field) => field.key !== undefined && isAsked(field))
		.map((field): [string, string] => [field.label, shown(field, answer.json[field.key!])]);
	return {
		status: 200,
		view: { kind: 'recorded', recorded: said('recordedForm'), answers },
		data: { ...answer.json, respondedAt: now.toISOString() },
		uploads: answer.uploads,
	};
}

/**
 * Only a POST from the page records an answer (the button's output and respondedAt: n8n's
 * `{ approved, respondedAt }` for Approval; or the form's `{ <key>: value, …, respondedAt }`, Free
 * Text's `{ text, respondedAt }`); any other request, a link preview's GET included, gets the page.
 */
export function readAnswer(
	request: AnswerRequest,
	config: AnswerConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	if (config.kind === 'buttons') {
		if (request.method === 'POST') return recordTap(request, config, now, question);
		const buttons = offeredButtons(config, request.query);
		return { status: 200, view: { kind: 'buttons', question, name: config.name, buttons } };
	}
	if (request.method === 'POST') return recordForm(request, config, now, question);
	return { status: 200, view: { kind: 'form', question, fields: config.fields } };
}
