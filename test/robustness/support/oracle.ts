/**
 * The few conversions the spec leaves to the node, restated independently so the property tests
 * can say which item a request came from: ids are positive whole numbers, strings are strings,
 * numbers and booleans become their text, dates ISO 8601.
 */
export function positiveInteger(value: unknown): number | undefined {
	// A number as JavaScript writes it (1e21 and 1.5 are not digits), or a string's digits.
	if (typeof value !== 'number' && typeof value !== 'string') return undefined;
	const digits = String(value).trim();
	const parsed = /^[0-9]+$/.test(digits) ? Number(digits) : Number.NaN;
	return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
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
