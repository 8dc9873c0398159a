import type { IDataObject } from 'n8n-workflow';

/**
 * Expressions hand over numbers, dates, Luxon DateTimes and objects; undefined where no honest
 * string exists, so the caller names the field instead of sending "[object Object]".
 */
export function toServiceString(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (isDateTimeLike(value)) return value.toISO() ?? undefined;
	return undefined;
}

function isDateTimeLike(value: unknown): value is { toISO(): string | null } {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISO?: unknown }).toISO === 'function' &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true
	);
}

/** A whole number of 1 or more: "12" and 12 pass, "12a" and 1.5 do not. */
export function toPositiveInteger(value: unknown): number | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value > 0 ? value : undefined;
	if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
		const parsed = Number(value.trim());
		return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
	}
	return undefined;
}

export function excerpt(text: string, max: number): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** A plain value where a workflow saved one before the field became a locator. */
export function locatorValue(raw: unknown): unknown {
	return typeof raw === 'object' && raw !== null && 'value' in raw
		? (raw as { value: unknown }).value
		: raw;
}

/** An n8n item must be an object: null or text entries are left out. */
export function objectsOf(list: unknown): IDataObject[] {
	return (Array.isArray(list) ? (list as unknown[]) : []).filter(
		(entry): entry is IDataObject =>
			typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
}

/**
 * The one shape of "this worked, here is the value / this is why not" across the package. A check
 * returns it and never rewrites what it checks; `field` names the parameter a refusal is about
 * where the caller cannot know it.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string; field?: string };

export function accepted<T>(value: T): Checked<T> {
	return { ok: true, value };
}

export function refused<T = never>(reason: string, field?: string): Checked<T> {
	return field === undefined ? { ok: false, reason } : { ok: false, reason, field };
}
