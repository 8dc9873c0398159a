import {
	DEFAULT_APPROVE_LABEL,
	DEFAULT_DISAPPROVE_LABEL,
	DEFAULT_RESPOND_LABEL,
} from './descriptions';
import type { FormField } from './form';
import { readForm } from './form';

export type ResponseType = 'approval' | 'freeText' | 'customForm';

/** The answer page's own words and style (n8n's Response Form options); unset ones are undefined. */
export interface PageOptions {
	title?: string;
	/** Shown above the form instead of the message. */
	description?: string;
	buttonLabel?: string;
	/** As given: the page sanitises it. */
	css: string;
}

/** What the message's links and the answer page offer, read the same way when sending and answering. */
export interface AnswerConfig {
	responseType: ResponseType;
	/** `single`: Approve only; `double`: Approve and Disapprove. */
	approvalType: 'single' | 'double';
	approveLabel: string;
	disapproveLabel: string;
	/** The link's label in a Free Text or Custom Form message. */
	respondLabel: string;
	page: PageOptions;
	/** Custom Form's fields, checked; none for the other response types. */
	fields: FormField[];
}

/** Reads a node parameter by name (execute: for item 0; webhook: n8n's own). */
export type ReadParameter = (name: string, fallback: string | unknown[]) => unknown;

/** A label as given, or the fallback when it is empty or no text. */
function label(value: unknown, fallback: string): string {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

const optional = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

function readPageOptions(read: ReadParameter): PageOptions {
	const css = read('options.responseFormCustomCss', '');
	return {
		title: optional(read('options.responseFormTitle', '')),
		description: optional(read('options.responseFormDescription', '')),
		buttonLabel: optional(read('options.responseFormButtonLabel', '')),
		css: typeof css === 'string' ? css : '',
	};
}

/** Custom Form's fields, or what is wrong with them (n8n's validateCustomFormFields, and more). */
function readFields(read: ReadParameter): FormField[] | { problem: string; field: string } {
	const defineForm = read('defineForm', 'fields');
	const form = readForm(defineForm, read('jsonOutput', ''), read('formFields.values', []));
	if ('fields' in form) return form.fields;
	return { problem: form.problem, field: defineForm === 'json' ? 'Form Fields' : 'Form Elements' };
}

/**
 * The answer's configuration, or why it cannot be used, with the setting to change: a response
 * type this node does not know is refused, not guessed, and so is a form that cannot be built.
 */
export function readAnswerConfig(
	read: ReadParameter,
): AnswerConfig | { problem: string; field: string } {
	const responseType = read('responseType', 'approval');
	if (responseType !== 'approval' && responseType !== 'freeText' && responseType !== 'customForm')
		return {
			problem: `${JSON.stringify(responseType)} is not Approval, Free Text or Custom Form`,
			field: 'Response Type',
		};
	const fields = responseType === 'customForm' ? readFields(read) : [];
	if (!Array.isArray(fields)) return fields;
	const approvalType = read('approvalOptions.values.approvalType', 'single');
	return {
		responseType,
		approvalType: approvalType === 'double' ? 'double' : 'single',
		approveLabel: label(read('approvalOptions.values.approveLabel', ''), DEFAULT_APPROVE_LABEL),
		disapproveLabel: label(
			read('approvalOptions.values.disapproveLabel', ''),
			DEFAULT_DISAPPROVE_LABEL,
		),
		respondLabel: label(read('options.messageButtonLabel', ''), DEFAULT_RESPOND_LABEL),
		// An approval page is n8n's plain one: the form options are not shown for it.
		page: responseType === 'approval' ? { css: '' } : readPageOptions(read),
		fields,
	};
}

/** One choice of an approval: its label and the value its link or button carries. */
export interface Choice {
	label: string;
	approved: 'true' | 'false';
}

/** The approval's choices, Approve first. */
export function choicesOf(config: AnswerConfig): Choice[] {
	const approve: Choice = { label: config.approveLabel, approved: 'true' };
	if (config.approvalType === 'single') return [approve];
	return [approve, { label: config.disapproveLabel, approved: 'false' }];
}
