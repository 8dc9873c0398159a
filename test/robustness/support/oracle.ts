/**
 * The few conversions the spec leaves to the node, restated independently so the property tests
 * can say which item a request came from: ids are positive whole numbers, strings are strings,
 * numbers and booleans become their text, dates ISO 8601.
 */
export function positiveInteger(value: unknown): number | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value > 0 ? value : undefined;
	if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
		const parsed = Number(value.trim());
		return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
	}
	return undefined;
}

export function asText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	return undefined;
}

/** The digits a phone number must keep, whatever separators or 00 prefix it came with. */
export function phoneDigits(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	return String(value)
		.replace(/[^0-9]/g, '')
		.replace(/^00/, '');
}
