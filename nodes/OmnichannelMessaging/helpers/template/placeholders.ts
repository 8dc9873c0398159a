import { templateHeaderType } from './types';
import type { WhatsAppTemplate } from './types';
import { excerpt } from '../values';

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
