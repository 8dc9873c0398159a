import { positionKey } from './placeholders';
import { toServiceString } from '../values';

export type VariablesCheck =
	| { ok: true; values: Record<string, string> }
	| { ok: false; reason: string };

/** One entry of the variables object: its position and text ('' when empty), or why it is unusable. */
function variableEntry(
	key: string,
	value: unknown,
): { position: string; text: string } | { reason: string } {
	const position = positionKey(key);
	if (position === undefined) {
		return {
			reason: `"${key}" is not a variable position: use "1" for {{1}}, "2" for {{2}}, and so on`,
		};
	}
	if (value === undefined || value === null || value === '') return { position, text: '' };
	const text = toServiceString(value);
	if (text !== undefined) return { position, text };
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: 'not a usable value';
	return { reason: `variable {{${position}}} is ${kind}, not text: map a single value to it` };
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
): VariablesCheck {
	if (raw === undefined || raw === null || raw === '') return { ok: true, values: {} };
	if (typeof raw !== 'object' || Array.isArray(raw)) {
		return {
			ok: false,
			reason: 'it must be an object keyed by position, for example {"1": "Anna", "2": "1042"}',
		};
	}
	const values: Record<string, string> = {};
	for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
		const entry = variableEntry(key, value);
		if ('reason' in entry) return { ok: false, reason: entry.reason };
		if (entry.text.trim() === '' && !allowEmpty) onEmpty?.(entry.position);
		else values[entry.position] = entry.text;
	}
	return { ok: true, values };
}

/** JSON typed into the node arrives as a string; parse it or say why not. */
export function parseVariablesJson(
	raw: unknown,
): { ok: true; value: unknown } | { ok: false; reason: string } {
	if (typeof raw !== 'string') return { ok: true, value: raw };
	if (raw.trim() === '') return { ok: true, value: {} };
	try {
		return { ok: true, value: JSON.parse(raw) };
	} catch {
		return { ok: false, reason: 'it is not valid JSON, for example {"1": "Anna", "2": "1042"}' };
	}
}
