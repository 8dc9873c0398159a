import type { Entered, FormField } from './form';
import { defaultValues } from './form';
import { MAX_ANSWER_LENGTH, MAX_FILE_MB, MAX_FILES } from './formValues';
import { FORM_END } from './formAnswer';
import { escapeHtml } from './sanitize';

/*
 * The Custom Form's fields as HTML, for the answer page. The contract the end-to-end tests and
 * n8n's naming share: the form is `<form method="post" enctype="multipart/form-data">`; each
 * field's input is named `field-<index>` (its index in the form's field list, as on n8n's form)
 * and has the id `field-<index>` with a `<label for>` holding the field label. Checkboxes and
 * radio buttons are a `<fieldset id="field-<index>">` whose `<legend>` holds the field label,
 * each option an input named `field-<index>` with the id `field-<index>-<option index>` and its
 * own label. A hidden field has no input (its value stays on the server); Custom HTML is a block
 * of sanitised formatting. A form with a file field ends with `<input type="hidden"
 * name="form-end" value="1">`: an answer without it is refused as cut short (see formAnswer).
 * A field's message is `<p id="field-<index>-error">`, tied to its input by aria-describedby.
 */

/** A field as the page shows it again: what was entered, and what to fix. */
export interface FieldState {
	entered?: Entered;
	error?: string;
}

const attribute = (name: string, value: string | undefined): string =>
	value ? ` ${name}="${escapeHtml(value)}"` : '';

const flag = (name: string, on: boolean): string => (on ? ` ${name}` : '');

/** The values to show: what was entered, else the field's default (checkboxes: comma-separated). */
function shownValues(field: FormField, state: FieldState | undefined): string[] {
	if (state) return Array.isArray(state.entered) ? state.entered : [state.entered ?? ''];
	return defaultValues(field);
}

/** The ids that describe a field: its hint, then its message. */
function describedBy(id: string, hint: boolean, error: boolean): string {
	const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
	return attribute('aria-describedby', ids.join(' ')) + flag('aria-invalid="true"', error);
}

function choiceGroup(field: FormField, id: string, values: string[], aria: string): string {
	const type = field.type === 'radio' ? 'radio' : 'checkbox';
	const options = field.options.map((option, index) => {
		const optionId = `${id}-${index}`;
		return (
			`<div class="option"><input type="${type}" id="${optionId}" name="${id}"` +
			`${attribute('value', option)}${flag('checked', values.includes(option))}` +
			`${flag('required', type === 'radio' && field.required)}>` +
			`<label for="${optionId}">${escapeHtml(option)}</label></div>`
		);
	});
	const legend = `<legend class="${field.required ? 'required' : ''}">${escapeHtml(field.label)}</legend>`;
	return `<fieldset id="${id}"${aria}>${legend}${options.join('')}</fieldset>`;
}

function select(field: FormField, id: string, values: string[], aria: string): string {
	const none = field.multiple ? '' : '<option value="">Choose…</option>';
	const options = field.options.map(
		(option) =>
			`<option${attribute('value', option)}${flag('selected', values.includes(option))}>` +
			`${escapeHtml(option)}</option>`,
	);
	return (
		`<select id="${id}" name="${id}"${flag('multiple', field.multiple)}` +
		`${flag('required', field.required)}${aria}>${none}${options.join('')}</select>`
	);
}

const INPUT_TYPES: Record<string, string> = {
	text: 'text',
	email: 'email',
	number: 'number',
	password: 'password',
	date: 'date',
};

/** The input of a field that has one label: text, number, date, dropdown, file… */
function input(field: FormField, id: string, values: string[], aria: string): string {
	const common = `id="${id}" name="${id}"${flag('required', field.required)}${aria}`;
	const placeholder = attribute('placeholder', field.placeholder);
	if (field.type === 'dropdown') return select(field, id, values, aria);
	if (field.type === 'textarea')
		return (
			`<textarea ${common} rows="4" maxlength="${MAX_ANSWER_LENGTH}"${placeholder}>` +
			`${escapeHtml(values[0] ?? '')}</textarea>`
		);
	if (field.type === 'file') {
		const accept = attribute('accept', field.accept.join(','));
		return `<input type="file" ${common}${flag('multiple', field.multiple)}${accept}>`;
	}
	// A password is never sent back to the browser, not even to show it again.
	const value = field.type === 'password' ? '' : (values[0] ?? '');
	const extra = field.type === 'number' ? ' step="any" inputmode="decimal"' : '';
	return (
		`<input type="${INPUT_TYPES[field.type]}" ${common}${attribute('value', value)}${placeholder}` +
		`${extra}${field.type === 'date' || field.type === 'number' ? '' : ` maxlength="${MAX_ANSWER_LENGTH}"`}>`
	);
}

function fileHint(field: FormField, shownAgain: boolean): string {
	const types = field.accept.length > 0 ? ` Types: ${field.accept.join(', ')}.` : '';
	const again = shownAgain ? ' Choose the file again: a page shown again keeps no file.' : '';
	const count = field.multiple ? ` Up to ${MAX_FILES} files.` : '';
	return `Up to ${MAX_FILE_MB} MB per file.${count}${types}${again}`;
}

function renderField(field: FormField, index: number, state: FieldState | undefined): string {
	if (field.type === 'hiddenField') return '';
	if (field.type === 'html') return `<div class="html">${field.html}</div>`;
	const id = `field-${index}`;
	const values = shownValues(field, state);
	const hint = field.type === 'file' ? fileHint(field, state !== undefined) : '';
	const error = state?.error ?? '';
	const aria = describedBy(id, hint !== '', error !== '');
	const notes =
		(hint ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : '') +
		(error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : '');
	if (field.type === 'checkbox' || field.type === 'radio')
		return `<div class="field">${choiceGroup(field, id, values, aria)}${notes}</div>`;
	const required = attribute('class', field.required ? 'required' : '');
	const label = `<label for="${id}"${required}>${escapeHtml(field.label)}</label>`;
	return `<div class="field">${label}${notes}${input(field, id, values, aria)}</div>`;
}

/** The form: its fields (shown again with `states` after a refused answer) and its button. */
export function renderForm(
	fields: FormField[],
	buttonLabel: string,
	states?: FieldState[],
): string {
	const body = fields.map((field, index) => renderField(field, index, states?.[index])).join('');
	const end = fields.some((field) => field.type === 'file')
		? `<input type="hidden" name="${FORM_END}" value="1">`
		: '';
	return (
		'<form method="post" enctype="multipart/form-data">' +
		`${body}<button type="submit" class="primary">${escapeHtml(buttonLabel)}</button>${end}</form>`
	);
}

/** Form fields' own style, added to the page's. */
export const FORM_STYLE =
	'.field{margin:0 0 18px}fieldset{border:0;margin:0;padding:0}legend{font-weight:600;padding:0}' +
	'input,select,textarea{box-sizing:border-box;width:100%;font:inherit;padding:10px;margin:6px 0 0;' +
	'border:1px solid #888;border-radius:6px}.option{display:flex;align-items:center;gap:8px;margin:8px 0}' +
	'.option input{width:auto;margin:0}.option label{font-weight:400}.required::after{content:" *"}' +
	'.hint{color:#555;font-size:.9rem;margin:4px 0}.error{color:#b00020;font-weight:600;margin:4px 0}' +
	'[aria-invalid="true"]{border-color:#b00020}.alert{border-left:4px solid #b00020;padding-left:10px}' +
	'dl{margin:0}dt{font-weight:600;margin-top:10px}dd{margin:2px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}';
