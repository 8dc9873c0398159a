import type { IDataObject } from 'n8n-workflow';

import { MAX_ANSWER_LENGTH, defaultValues, fileHint, kindOf, sameLines } from './formFields';
import type { FormField } from './formFields';
import { escapeHtml, sanitizeCss } from './sanitize';
import { ENGLISH, directionOf, say } from './texts';
import type { Language } from './texts';

/*
 * The one answer page, for every response type: buttons answered with one tap (Approval, Choice),
 * or a form (Free Text is a form of one textarea). Each button posts its own name and value. The
 * contract the end-to-end tests and n8n's naming share: the form posts multipart; each field's
 * input is named and identified `field-<index>` (as on n8n's form), with a `<label for>`;
 * checkboxes and radio buttons are a `<fieldset id="field-<index>">` with a `<legend>`, each
 * option `field-<index>-<option index>`. A field's message is `<p id="field-<index>-error">`, tied
 * to its input by aria-describedby. A hidden field has no input: its value stays on the server.
 */

/**
 * One button of a page answered with one tap (Approval, Choice): its label, the value it posts
 * (an Approval link signs it in), and what the answer outputs when it is tapped.
 */
export interface AnswerButton {
	label: string;
	value: string;
	output: IDataObject;
	/** Drawn as the page's main button (Approve). */
	primary?: boolean;
}

/**
 * The answer page's language (English when none is given), the builder's words (n8n's Response
 * Form options and its Form node's ending; each unset is the language's own) and style.
 */
export interface PageOptions {
	language?: Language;
	title?: string;
	/** Shown above the buttons or the form instead of the question. */
	description?: string;
	/** The page after the answer: its title, and its message below what was recorded. */
	completionTitle?: string;
	completionMessage?: string;
	/** The message of a refused link's page (the trigger's). */
	refusalMessage?: string;
	buttonLabel: string;
	/** As given: the page sanitises it. */
	css: string;
}

/** What the person entered in one field, to show again: text, or the options they picked. */
export type Entered = string | string[];

/** A field as the page shows it again: what was entered, and what to fix. */
export interface FieldState {
	entered?: Entered;
	error?: string;
}

/**
 * What the answer page shows: the buttons (again, after an answer that is none of them), the form
 * (again, with what to fix), what was recorded, or why not. Buttons post their value under `name`.
 */
export type AnswerView =
	| { kind: 'buttons'; question?: string; name: string; buttons: AnswerButton[]; alert?: string }
	| { kind: 'form'; question?: string; fields: FormField[]; states?: FieldState[]; alert?: string }
	| { kind: 'recorded'; recorded: string; answers?: Array<[string, string]> }
	| { kind: 'refused'; reason: string };

/**
 * The last input of a form with a file field. n8n 1.x stops reading a form at an empty file input
 * or a file over its size limit: an answer without this mark is refused as cut short.
 */
export const FORM_END = 'form-end';

/**
 * No script, no frame, no request anywhere: the page is text and one form posting back to its own
 * signed address. Inline style only.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'no-store',
	'Referrer-Policy': 'no-referrer',
	'Content-Security-Policy':
		"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; " +
		"frame-ancestors 'none'",
	'X-Robots-Tag': 'noindex, nofollow',
	'X-Content-Type-Options': 'nosniff',
};

/*
 * Today's light page, and a dark one where the phone asks for it (`prefers-color-scheme`), each
 * with text at 4.5:1 or more against its background (WCAG 2.1 AA); a focus ring on whatever the
 * keyboard reaches; sides named by the text's direction (`inline-start`), so that a right-to-left
 * page mirrors. The builder's CSS comes after all of it, the dark scheme included.
 */
const STYLE =
	':root{color-scheme:light dark}' +
	'body{font-family:system-ui,sans-serif;margin:0;padding:24px 16px;background:#f5f5f7;color:#1d1d1f}' +
	'main{max-width:480px;margin:0 auto;background:#fff;border-radius:12px;padding:24px}' +
	'h1{font-size:1.3rem;margin:0 0 16px}p{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4}' +
	'button{display:block;width:100%;font-size:1.1rem;padding:14px;margin:12px 0 0;border-radius:8px;' +
	'border:1px solid #888;background:#fff;color:inherit;overflow-wrap:anywhere}' +
	'button.primary{background:#1a73e8;color:#fff;border:0}' +
	'label{font-weight:600}.field{margin:0 0 18px}fieldset{border:0;margin:0;padding:0}' +
	'legend{font-weight:600;padding:0}' +
	'input,select,textarea{box-sizing:border-box;width:100%;font:inherit;padding:10px;margin:6px 0 0;' +
	'border:1px solid #888;border-radius:6px}.option{display:flex;align-items:center;gap:8px;margin:8px 0}' +
	'.option input{width:auto;margin:0}.option label{font-weight:400}.required::after{content:" *"}' +
	'.hint{color:#555;font-size:.9rem;margin:4px 0}.error{color:#b00020;font-weight:600;margin:4px 0}' +
	'[aria-invalid="true"]{border-color:#b00020}' +
	'.alert{border-inline-start:4px solid #b00020;padding-inline-start:10px}' +
	'dl{margin:0}dt{font-weight:600;margin-top:10px}dd{margin:2px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}' +
	'pre{white-space:pre-wrap;overflow-wrap:anywhere}' +
	// Urdu is often drawn in Nastaliq (an iPhone's), whose letters reach far above and below their
	// line: at 1.4 a line's letters cross the next line's. `:where` leaves the builder's CSS the say.
	':where(html:lang(ur)),:where(html:lang(ur)) p{line-height:2.4}' +
	// A date input's calendar button is inside the input: the input itself is then not focused.
	':focus-visible,input[type="date"]:focus-within{outline:3px solid #1a73e8;outline-offset:2px}' +
	'@media (prefers-color-scheme:dark){body{background:#000;color:#f5f5f7}main{background:#1c1c1e}' +
	'button,input,select,textarea{background:#2c2c2e;color:inherit;border-color:#8e8e93}' +
	'::placeholder{color:#aeaeb2}.hint{color:#c7c7cc}.error{color:#ff8a80}' +
	'[aria-invalid="true"],.alert{border-color:#ff8a80}' +
	':focus-visible,input[type="date"]:focus-within{outline-color:#8ab4f8}}';

const attribute = (name: string, value: string | undefined): string =>
	value ? ` ${name}="${escapeHtml(value)}"` : '';

const flag = (name: string, on: boolean): string => (on ? ` ${name}` : '');

/**
 * On an element that may show the builder's words (a title, a question, a label, an option, a
 * button, the page after the answer) or the customer's: its direction is its own first letter's,
 * not the page's, so that an English question on an Arabic page reads `Q?`, not `?Q`. Never on
 * the page's own sentences: a value filled in at their start (isolated by texts.ts) would set it.
 */
const OWN = ' dir="auto"';

function paragraph(text: string | undefined, direction = ''): string {
	return text === undefined || text.trim() === '' ? '' : `<p${direction}>${escapeHtml(text)}</p>`;
}

function alertOf(text: string | undefined): string {
	return text ? `<p class="alert" role="alert">${escapeHtml(text)}</p>` : '';
}

/** A form of one submit button per answer: the tapped button posts its own name and value. */
function buttonForm(name: string, buttons: AnswerButton[]): string {
	const drawn = buttons.map(
		(button) =>
			`<button type="submit"${attribute('name', name)} value="${escapeHtml(button.value)}"` +
			`${button.primary ? ' class="primary"' : ''}${OWN}>${escapeHtml(button.label)}</button>`,
	);
	return `<form method="post">${drawn.join('')}</form>`;
}

/** One field's input, drawn as its type says, with what to show in it and its aria attributes. */
interface Drawing {
	field: FormField;
	id: string;
	values: string[];
	aria: string;
	language: Language;
}

/** Whether an option is among the values shown, line ends aside. */
const isShown = (values: string[], option: string) =>
	values.some((value) => sameLines(value) === sameLines(option));

function optionGroup({ field, id, values, aria }: Drawing): string {
	const type = field.type === 'radio' ? 'radio' : 'checkbox';
	const options = field.options.map((option, index) => {
		const optionId = `${id}-${index}`;
		return (
			`<div class="option"><input type="${type}" id="${optionId}" name="${id}"` +
			`${attribute('value', option)}${flag('checked', isShown(values, option))}` +
			`${flag('required', type === 'radio' && field.required)}>` +
			`<label for="${optionId}"${OWN}>${escapeHtml(option)}</label></div>`
		);
	});
	const legend = `<legend class="${field.required ? 'required' : ''}"${OWN}>${escapeHtml(field.label)}</legend>`;
	return `<fieldset id="${id}"${aria}>${legend}${options.join('')}</fieldset>`;
}

const common = ({ field, id, aria }: Drawing) =>
	`id="${id}" name="${id}"${flag('required', field.required)}${aria}`;

/** How each way of drawing a field (formFields.ts) becomes HTML. */
const DRAW: Record<string, (drawing: Drawing) => string> = {
	group: optionGroup,
	select: (drawing) => {
		const { field, values, language } = drawing;
		const none = field.multiple
			? ''
			: `<option value="">${escapeHtml(say(language, 'choose'))}</option>`;
		const options = field.options.map(
			(option) =>
				`<option${attribute('value', option)}${flag('selected', isShown(values, option))}${OWN}>` +
				`${escapeHtml(option)}</option>`,
		);
		return `<select ${common(drawing)}${flag('multiple', field.multiple)}>${none}${options.join('')}</select>`;
	},
	textarea: (drawing) =>
		`<textarea ${common(drawing)} rows="4" maxlength="${MAX_ANSWER_LENGTH}"` +
		`${attribute('placeholder', drawing.field.placeholder)}>${escapeHtml(drawing.values[0] ?? '')}</textarea>`,
	file: (drawing) =>
		`<input type="file" ${common(drawing)}${flag('multiple', drawing.field.multiple)}` +
		`${attribute('accept', drawing.field.accept.join(','))}>`,
	input: (drawing) => {
		const { field, values } = drawing;
		const kind = kindOf(field.type);
		// A password is never sent back to the browser, not even to show it again.
		const value = field.type === 'password' ? '' : (values[0] ?? '');
		const typing = attribute('inputmode', kind.inputMode) + attribute('pattern', kind.pattern);
		const bounded =
			field.type === 'date' || field.type === 'number' ? '' : ` maxlength="${MAX_ANSWER_LENGTH}"`;
		return (
			`<input type="${kind.inputType}" ${common(drawing)}${attribute('value', value)}` +
			`${attribute('placeholder', field.placeholder)}${typing}${bounded}>`
		);
	},
};

function renderField(
	field: FormField,
	index: number,
	state: FieldState | undefined,
	language: Language,
): string {
	const drawn = kindOf(field.type).drawn;
	if (drawn === 'none') return '';
	if (drawn === 'html') return `<div class="html">${field.html}</div>`;
	const id = `field-${index}`;
	const values = state
		? Array.isArray(state.entered)
			? state.entered
			: [state.entered ?? '']
		: defaultValues(field);
	const hint = drawn === 'file' ? fileHint(field, state !== undefined, language) : '';
	const error = state?.error ?? '';
	const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
	const aria = attribute('aria-describedby', ids) + flag('aria-invalid="true"', error !== '');
	const notes =
		(hint ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : '') +
		(error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : '');
	const input = DRAW[drawn]({ field, id, values, aria, language });
	if (drawn === 'group') return `<div class="field">${input}${notes}</div>`;
	const required = attribute('class', field.required ? 'required' : '');
	const label = `<label for="${id}"${required}${OWN}>${escapeHtml(field.label)}</label>`;
	return `<div class="field">${label}${notes}${input}</div>`;
}

/** The form: its fields (shown again with `states` after a refused answer) and its button. */
export function renderForm(
	fields: FormField[],
	buttonLabel: string,
	states?: FieldState[],
	language: Language = ENGLISH,
): string {
	const body = fields
		.map((field, index) => renderField(field, index, states?.[index], language))
		.join('');
	const end = fields.some((field) => field.type === 'file')
		? `<input type="hidden" name="${FORM_END}" value="1">`
		: '';
	return (
		'<form method="post" enctype="multipart/form-data">' +
		`${body}<button type="submit" class="primary"${OWN}>${escapeHtml(buttonLabel)}</button>${end}</form>`
	);
}

/**
 * What was recorded, field by field. Each label and value is isolated (`<bdi>`) in its own
 * direction, lined up as the page is: a number or an English answer on an Arabic page stays on
 * the right, under its label, as written.
 */
function answerList(answers: Array<[string, string]> | undefined): string {
	if (!answers || answers.length === 0) return '';
	const rows = answers.map(
		([label, value]) =>
			`<dt><bdi>${escapeHtml(label)}</bdi></dt><dd><bdi>${escapeHtml(value)}</bdi></dd>`,
	);
	return `<dl>${rows.join('')}</dl>`;
}

/** The page's title and body for a view; the builder's words where they are set. */
function content(view: AnswerView, page: PageOptions): { title: string; body: string } {
	const language = page.language ?? ENGLISH;
	switch (view.kind) {
		case 'buttons':
			return {
				title: page.title ?? say(language, 'title'),
				body:
					paragraph(page.description ?? view.question, OWN) +
					alertOf(view.alert) +
					buttonForm(view.name, view.buttons),
			};
		case 'form': {
			const form = renderForm(view.fields, page.buttonLabel, view.states, language);
			return {
				title: page.title ?? say(language, 'title'),
				body: paragraph(page.description ?? view.question, OWN) + alertOf(view.alert) + form,
			};
		}
		case 'recorded':
			return {
				title: page.completionTitle ?? say(language, 'recordedTitle'),
				body:
					paragraph(view.recorded) +
					answerList(view.answers) +
					paragraph(page.completionMessage ?? say(language, 'closePage'), OWN),
			};
		case 'refused':
			return {
				title: say(language, 'refusedTitle'),
				body: paragraph(page.refusalMessage ?? view.reason, OWN),
			};
	}
}

/**
 * A small page for a phone: everything it shows is escaped; the builder's CSS (Response Form
 * Custom Styling) comes last, sanitised, so that it can restyle the page and do nothing else.
 */
export function renderPage(
	view: AnswerView,
	page: PageOptions = { language: ENGLISH, buttonLabel: say(ENGLISH, 'submit'), css: '' },
): string {
	const { title, body } = content(view, page);
	const language = page.language ?? ENGLISH;
	return (
		`<!DOCTYPE html><html lang="${escapeHtml(language.tag)}" dir="${directionOf(language)}">` +
		'<head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		'<meta name="robots" content="noindex, nofollow">' +
		`<title>${escapeHtml(title)}</title><style>${STYLE}${sanitizeCss(page.css)}</style>` +
		`</head><body><main><h1${OWN}>${escapeHtml(title)}</h1>${body}</main></body></html>`
	);
}
