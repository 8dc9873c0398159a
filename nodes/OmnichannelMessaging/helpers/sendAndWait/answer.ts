import type { IDataObject } from 'n8n-workflow';

import type { AnswerConfig, Choice } from './config';
import { choicesOf } from './config';
import type { FormField } from './form';
import { readFormAnswer } from './formAnswer';
import type { Upload } from './formAnswer';
import type { AnswerView } from './page';
import { isAsked } from './form';
import { MAX_ANSWER_LENGTH } from './formValues';

/** What the webhook was asked: the method, the link's query (signed by n8n) and the form's body. */
export interface AnswerRequest {
	method: string;
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
	/** Custom Form's files, to keep as the item's binary properties. */
	uploads?: Upload[];
}

/** The choices a link offers: the one signed into it, or every choice. */
function offeredChoices(config: AnswerConfig, query: IDataObject): Choice[] {
	const choices = choicesOf(config);
	const signed = choices.filter((choice) => choice.approved === query.approved);
	return signed.length > 0 ? signed : choices;
}

function recordApproval(request: AnswerRequest, config: AnswerConfig, now: Date): AnswerOutcome {
	// A choice signed into the link wins over the form's: only the link's is vouched for by n8n.
	const given = request.query.approved ?? request.body.approved;
	const choice = offeredChoices(config, request.query).find(({ approved }) => approved === given);
	if (!choice)
		return {
			status: 400,
			view: { kind: 'refused', reason: 'No choice was made. Open the link again.' },
		};
	return {
		status: 200,
		view: { kind: 'recorded', recorded: `Recorded: ${choice.label}` },
		data: { approved: choice.approved === 'true', respondedAt: now.toISOString() },
	};
}

function recordText(request: AnswerRequest, now: Date): AnswerOutcome {
	const raw = request.body.text;
	const text = typeof raw === 'string' ? raw.replace(/\r\n?/g, '\n') : '';
	if (text.trim() === '')
		return {
			status: 400,
			view: { kind: 'refused', reason: 'The answer was empty. Open the link again.' },
		};
	if (text.length > MAX_ANSWER_LENGTH) {
		const reason = `The answer is longer than ${MAX_ANSWER_LENGTH} characters. Open the link again.`;
		return { status: 400, view: { kind: 'refused', reason } };
	}
	return {
		status: 200,
		view: { kind: 'recorded', recorded: 'Recorded your answer:', text },
		data: { text, respondedAt: now.toISOString() },
	};
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

const NOT_FROM_FORM = 'Nothing was recorded: answer with the form on this page.';
const REFUSED_FORM = 'Nothing was recorded: fix what is marked below, then send the form again.';
const CUT_SHORT =
	'Nothing was recorded: the form arrived incomplete. A file field left empty, or a file too ' +
	'large for this n8n, stops it reading the rest: choose a file in each file field, then send again.';

/**
 * A Custom Form answer: recorded when every field passes its check (n8n's output, respondedAt
 * last so that no field can set it), else the form again with what was entered and what to fix.
 */
function recordForm(
	request: AnswerRequest,
	config: AnswerConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	// Files are read from the paths in the body: only n8n's multipart parser may name them (any
	// other body could name a server file), as n8n's Form node asserts.
	if (!request.multipart) {
		const view = { kind: 'customForm' as const, question, fields: config.fields };
		return { status: 400, view: { ...view, alert: NOT_FROM_FORM } };
	}
	const answer = readFormAnswer(config.fields, request.body);
	if (!answer.ok) {
		const states = answer.errors.map((error, index) => ({ error, entered: answer.entered[index] }));
		const alert = answer.incomplete ? CUT_SHORT : REFUSED_FORM;
		const view = { kind: 'customForm' as const, question, fields: config.fields, states, alert };
		return { status: 400, view };
	}
	const answers = config.fields
		.filter((field) => field.key !== undefined && isAsked(field))
		.map((field): [string, string] => [field.label, shown(field, answer.json[field.key!])]);
	return {
		status: 200,
		view: { kind: 'recorded', recorded: 'Recorded your answer:', answers },
		data: { ...answer.json, respondedAt: now.toISOString() },
		uploads: answer.uploads,
	};
}

/** The page a GET shows: the choices, the text box or the form. */
function pageView(request: AnswerRequest, config: AnswerConfig, question?: string): AnswerView {
	if (config.responseType === 'freeText') return { kind: 'freeText', question };
	if (config.responseType === 'customForm')
		return { kind: 'customForm', question, fields: config.fields };
	return { kind: 'approval', question, choices: offeredChoices(config, request.query) };
}

/**
 * Only a POST from the page records an answer (n8n's output: `{ approved, respondedAt }`,
 * `{ text, respondedAt }` or the form's `{ <label>: value, …, respondedAt }`); any other
 * request, a link preview's GET included, gets the page.
 */
export function readAnswer(
	request: AnswerRequest,
	config: AnswerConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	if (request.method !== 'POST') return { status: 200, view: pageView(request, config, question) };
	if (config.responseType === 'customForm') return recordForm(request, config, now, question);
	return config.responseType === 'freeText'
		? recordText(request, now)
		: recordApproval(request, config, now);
}
