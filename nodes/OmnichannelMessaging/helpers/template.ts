import type { WhatsAppTemplate } from '../constants';
import { accepted, refused } from './checked';
import type { Checked } from './checked';
import { excerpt, toServiceString } from './values';

export type { WhatsAppTemplate } from '../constants';

export const HEADER_MEDIA_TYPES = ['image', 'audio', 'video', 'document'] as const;
export type HeaderMediaType = (typeof HEADER_MEDIA_TYPES)[number];

export function isHeaderMediaType(value: unknown): value is HeaderMediaType {
	return typeof value === 'string' && (HEADER_MEDIA_TYPES as readonly string[]).includes(value);
}

/** The header's type in lower case ("IMAGE" and "image" both occur), or undefined without one. */
export function templateHeaderType(template: WhatsAppTemplate): string | undefined {
	return template.header &&
		typeof template.header === 'object' &&
		typeof template.header.type === 'string'
		? template.header.type.toLowerCase()
		: undefined;
}

/**
 * The checks WhatsApp would otherwise make after the service queued the message, where the
 * failure never reaches the user (test/fixtures/spec/field-notes.md, Send WhatsApp template
 * message: error 132000). Accepts or refuses with the first problem, naming its field.
 */
export function checkAgainstTemplate(
	template: WhatsAppTemplate,
	values: Record<string, string>,
	mediaUrl: string | undefined,
	mediaType: HeaderMediaType | 'auto',
): Checked<true> {
	const name = `"${typeof template.name === 'string' ? template.name : String(template.id)}"`;
	const variables = checkVariables(name, template, values);
	return variables.ok ? checkHeader(name, template, mediaUrl, mediaType) : variables;
}

/** Positions as the template writes them: {{1}}, {{2}}. */
function placeholders(positions: string[]): string {
	return positions.map((position) => `{{${position}}}`).join(', ');
}

function checkVariables(
	name: string,
	template: WhatsAppTemplate,
	values: Record<string, string>,
): Checked<true> {
	const positions = getVariablePositions(template);
	const missing = positions.filter(
		(position) => !Object.prototype.hasOwnProperty.call(values, position),
	);
	if (missing.length > 0) {
		return refused(`template ${name} needs a value for ${placeholders(missing)}`, 'Variables');
	}
	const extra = Object.keys(values).filter((key) => !positions.includes(key));
	if (extra.length > 0) {
		return refused(
			`template ${name} has no variable ${placeholders(extra)} (it has ${placeholders(positions) || 'none'})`,
			'Variables',
		);
	}
	return accepted(true);
}

function checkHeader(
	name: string,
	template: WhatsAppTemplate,
	mediaUrl: string | undefined,
	mediaType: HeaderMediaType | 'auto',
): Checked<true> {
	const headerType = templateHeaderType(template);
	if (isHeaderMediaType(headerType) && !mediaUrl) {
		return refused(
			`template ${name} has a ${headerType} header: give the URL of the ${headerType} to show`,
			'Header Media URL',
		);
	}
	if (mediaUrl && !isHeaderMediaType(headerType)) {
		return refused(
			`template ${name} has ${headerType ? `a ${headerType}` : 'no'} header, so it takes no ` +
				`header media: leave the field empty`,
			'Header Media URL',
		);
	}
	if (mediaUrl && mediaType !== 'auto' && mediaType !== headerType) {
		return refused(
			`template ${name} has a ${headerType} header, not ${mediaType}: choose ${headerType} or ` +
				`Same as Template`,
			'Header Media Type',
		);
	}
	return accepted(true);
}

/**
 * A body variable is "{{" + a position + "}}". Spaces inside the braces and leading zeros are
 * tolerated ("{{ 1 }}" and "{{01}}" are position "1"), since template editors produce both.
 * Anything else in braces ("{{a}}", "{{", "}}") is plain text: WhatsApp would show it as typed.
 */
const PLACEHOLDER = /\{\{\s*(\d{1,4})\s*\}\}/g;

/** "1", "01", " 1 ", 1 and "{{1}}" are all position "1"; anything else is not a position. */
export function positionKey(raw: unknown): string | undefined {
	if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
	const text = String(raw)
		.trim()
		.replace(/^\{\{\s*(\d+)\s*\}\}$/, '$1');
	if (!/^\d{1,4}$/.test(text)) return undefined;
	const position = Number(text);
	return position > 0 ? String(position) : undefined;
}

export function findPlaceholders(body: unknown): string[] {
	if (typeof body !== 'string') return [];
	const keys = new Set<string>();
	for (const match of body.matchAll(PLACEHOLDER)) {
		const key = positionKey(match[1]);
		if (key) keys.add(key);
	}
	return sortPositions([...keys]);
}

/**
 * The positions a template needs values for. The service's `attributes` list is the authority;
 * a template that has none listed falls back to the placeholders in its body.
 */
export function getVariablePositions(template: WhatsAppTemplate): string[] {
	const listed = Array.isArray(template.attributes)
		? template.attributes
				.map((entry) =>
					entry && typeof entry === 'object' && entry.attribute !== undefined
						? positionKey(entry.attribute)
						: undefined,
				)
				.filter((key): key is string => key !== undefined)
		: [];
	if (listed.length > 0) return sortPositions([...new Set(listed)]);
	return findPlaceholders(template.body);
}

function sortPositions(keys: string[]): string[] {
	return keys.sort((a, b) => Number(a) - Number(b));
}

/**
 * The words around a placeholder, with the placeholder itself as "___": "your order ___ has
 * shipped". The editor cuts field labels short, so the words next to the gap come first.
 */
export function describePosition(body: unknown, position: string): string {
	if (typeof body !== 'string') return '';
	for (const match of body.matchAll(PLACEHOLDER)) {
		if (positionKey(match[1]) !== position) continue;
		const at = match.index ?? 0;
		const end = at + match[0].length;
		// Up to three words on each side, cut at word boundaries.
		const before = /(?:\S+\s+){0,3}$/.exec(body.slice(0, at))?.[0] ?? '';
		const after = /^(?:\s*\S+){0,3}/.exec(body.slice(end))?.[0] ?? '';
		const prefix = before.length < at ? '…' : '';
		const suffix = end + after.length < body.length ? '…' : '';
		return excerpt(`${prefix}${before}___${after}${suffix}`, 60);
	}
	return '';
}

/** Fills body placeholders; a position with no value stays as "{{n}}" so the gap is visible. */
export function fillPlaceholders(text: unknown, values: Record<string, string>): string {
	if (typeof text !== 'string') return '';
	return text.replace(PLACEHOLDER, (whole, digits: string) => {
		const key = positionKey(digits);
		return key !== undefined && Object.prototype.hasOwnProperty.call(values, key)
			? values[key]
			: whole;
	});
}

/**
 * A body placeholder with the spaces and tabs on either side of it, and the colon before it, with
 * any white space, when there is one: "on this page: {{3}}".
 */
const SPACED_PLACEHOLDER = /([ \t]*:\s*|[ \t]*)\{\{\s*(\d{1,4})\s*\}\}([ \t]*)/g;

/**
 * What stands in for the link after a colon that led to it: "on this page: {{3}} See you" reads
 * "on this page. See you".
 */
function leadInEnd(next: string, previous: string): string {
	const continues = /^[\p{Ll}.,;:!?)\]]/u.test(next);
	const stop = continues || /[.!?]/.test(previous) ? '' : '.';
	return next === '' || /^[\s.,;:!?)\]]/.test(next) ? stop : `${stop} `;
}

/**
 * The body as the person read it, without the placeholder at `left` (the answer link): the page
 * the link opens repeats the question, and the link on it would only lead back to the page. The
 * placeholder is taken out before the values go in, so a value's own text is never touched; where
 * it stood between words one space stays, and the blank lines it leaves are closed up. A colon
 * that led to the link would lead to nothing: it ends the sentence instead, in any language.
 */
export function bodyWithout(
	template: WhatsAppTemplate,
	values: Record<string, string>,
	left: string,
): string {
	if (typeof template.body !== 'string') return '';
	const body = template.body.replace(
		SPACED_PLACEHOLDER,
		(whole, before: string, digits: string, after: string, at: number, text: string) => {
			if (positionKey(digits) !== left) return whole;
			if (before.includes(':'))
				return leadInEnd(text.charAt(at + whole.length), text.charAt(at - 1));
			return before && after ? ' ' : '';
		},
	);
	return fillPlaceholders(body, values)
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

export interface RenderedMessage {
	header: { type: string; text?: string; url?: string } | null;
	body: string;
	footer: string | null;
	buttons: Array<{ type?: string; title?: string; value?: string }>;
}

/** The message as the customer sees it, for logs and CRM timelines. */
export function renderTemplate(
	template: WhatsAppTemplate,
	values: Record<string, string>,
	headerMediaUrl?: string,
): RenderedMessage {
	const headerType = templateHeaderType(template);
	const headerValue = template.header?.value;
	let renderedHeader: RenderedMessage['header'] = null;
	if (headerType) {
		renderedHeader =
			headerType === 'text'
				? { type: 'text', text: typeof headerValue === 'string' ? headerValue : '' }
				: {
						type: headerType,
						url: headerMediaUrl ?? (typeof headerValue === 'string' ? headerValue : undefined),
					};
	}
	return {
		header: renderedHeader,
		body: fillPlaceholders(template.body, values),
		footer: typeof template.footer === 'string' && template.footer !== '' ? template.footer : null,
		buttons: Array.isArray(template.buttons)
			? template.buttons.map((button) => ({
					type: button?.type,
					title: button?.title,
					value: button?.value,
				}))
			: [],
	};
}

/** One entry of the variables object: its position and text ('' when empty), or why it is unusable. */
function variableEntry(key: string, value: unknown): Checked<{ position: string; text: string }> {
	const position = positionKey(key);
	if (position === undefined) {
		return refused(
			`"${key}" is not a variable position: use "1" for {{1}}, "2" for {{2}}, and so on`,
		);
	}
	if (value === undefined || value === null || value === '')
		return accepted({ position, text: '' });
	const text = toServiceString(value);
	if (text !== undefined) return accepted({ position, text });
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: 'not a usable value';
	return refused(`variable {{${position}}} is ${kind}, not text: map a single value to it`);
}

/**
 * Turns what the user mapped (or passed as JSON) into the service's `attributes`: position keys
 * "1", "2", … and string values. Numbers, booleans and dates become text (dates as ISO 8601).
 * An empty value counts as missing unless empty values are allowed; `onEmpty` hears of each one.
 */
export function normalizeVariables(
	raw: unknown,
	allowEmpty: boolean,
	onEmpty?: (position: string) => void,
): Checked<Record<string, string>> {
	if (raw === undefined || raw === null || raw === '') return accepted({});
	if (typeof raw !== 'object' || Array.isArray(raw)) {
		return refused(
			'it must be an object keyed by position, for example {"1": "Anna", "2": "1042"}',
		);
	}
	const values: Record<string, string> = {};
	for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
		const entry = variableEntry(key, value);
		if (!entry.ok) return entry;
		const { position, text } = entry.value;
		if (text.trim() === '' && !allowEmpty) onEmpty?.(position);
		else values[position] = text;
	}
	return accepted(values);
}

/** JSON typed into the node arrives as a string; parse it or say why not. */
export function parseVariablesJson(raw: unknown): Checked<unknown> {
	if (typeof raw !== 'string') return accepted(raw);
	if (raw.trim() === '') return accepted({});
	try {
		return accepted(JSON.parse(raw));
	} catch {
		return refused('it is not valid JSON, for example {"1": "Anna", "2": "1042"}');
	}
}
