import type { Choice, PageOptions } from './config';
import type { FormField } from './form';
import { MAX_ANSWER_LENGTH } from './formValues';
import type { FieldState } from './formPage';
import { FORM_STYLE, renderForm } from './formPage';
import { escapeHtml, sanitizeCss } from './sanitize';

/**
 * What the answer page shows: the choices, the text box, the custom form (again, with what to
 * fix), what was recorded, or why not.
 */
export type AnswerView =
	| { kind: 'approval'; question?: string; choices: Choice[] }
	| { kind: 'freeText'; question?: string }
	| {
			kind: 'customForm';
			question?: string;
			fields: FormField[];
			/** After a refused answer: what was entered and what to fix, and why nothing was recorded. */
			states?: FieldState[];
			alert?: string;
	  }
	| { kind: 'recorded'; recorded: string; text?: string; answers?: Array<[string, string]> }
	| { kind: 'refused'; reason: string };

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

const STYLE =
	'body{font-family:system-ui,sans-serif;margin:0;padding:24px 16px;background:#f5f5f7;color:#1d1d1f}' +
	'main{max-width:480px;margin:0 auto;background:#fff;border-radius:12px;padding:24px}' +
	'h1{font-size:1.3rem;margin:0 0 16px}p{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4}' +
	'button{display:block;width:100%;font-size:1.1rem;padding:14px;margin:12px 0 0;border-radius:8px;' +
	'border:1px solid #888;background:#fff}button.primary{background:#1a73e8;color:#fff;border:0}' +
	'textarea{box-sizing:border-box;width:100%;font:inherit;padding:8px}label{font-weight:600}';

function paragraph(text: string | undefined): string {
	return text === undefined || text.trim() === '' ? '' : `<p>${escapeHtml(text)}</p>`;
}

function approvalForm(choices: Choice[]): string {
	const buttons = choices.map(
		(choice) =>
			`<button type="submit" name="approved" value="${choice.approved}"` +
			`${choice.approved === 'true' ? ' class="primary"' : ''}>${escapeHtml(choice.label)}</button>`,
	);
	return `<form method="post">${buttons.join('')}</form>`;
}

const freeTextForm = (buttonLabel: string) =>
	'<form method="post"><label for="answer">Your answer</label>' +
	`<textarea id="answer" name="text" rows="6" maxlength="${MAX_ANSWER_LENGTH}" required></textarea>` +
	`<button type="submit" class="primary">${escapeHtml(buttonLabel)}</button></form>`;

function customForm(view: Extract<AnswerView, { kind: 'customForm' }>, page: PageOptions): string {
	const alert = view.alert ? `<p class="alert" role="alert">${escapeHtml(view.alert)}</p>` : '';
	return alert + renderForm(view.fields, page.buttonLabel ?? 'Submit', view.states);
}

/** What was recorded, field by field. */
function answerList(answers: Array<[string, string]> | undefined): string {
	if (!answers || answers.length === 0) return '';
	const rows = answers.map(
		([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`,
	);
	return `<dl>${rows.join('')}</dl>`;
}

/** The page's title and body for a view; the form's title and description where they are set. */
function content(view: AnswerView, page: PageOptions): { title: string; body: string } {
	const title = page.title ?? 'Your answer';
	switch (view.kind) {
		case 'approval':
			return { title: 'Your answer', body: paragraph(view.question) + approvalForm(view.choices) };
		case 'freeText':
			return {
				title,
				body:
					paragraph(page.description ?? view.question) + freeTextForm(page.buttonLabel ?? 'Send'),
			};
		case 'customForm':
			return { title, body: paragraph(page.description ?? view.question) + customForm(view, page) };
		case 'recorded':
			return {
				title: 'Answer recorded',
				body:
					paragraph(view.recorded) +
					paragraph(view.text) +
					answerList(view.answers) +
					paragraph('You can close this page.'),
			};
		case 'refused':
			return { title: 'Nothing recorded', body: paragraph(view.reason) };
	}
}

/**
 * A small page for a phone: everything it shows is escaped; the builder's CSS (Response Form
 * Custom Styling) comes last, sanitised, so that it can restyle the page and do nothing else.
 */
export function renderPage(view: AnswerView, page: PageOptions = { css: '' }): string {
	const { title, body } = content(view, page);
	return (
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		'<meta name="robots" content="noindex, nofollow">' +
		`<title>${escapeHtml(title)}</title><style>${STYLE}${FORM_STYLE}${sanitizeCss(page.css)}</style>` +
		`</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
	);
}
