/*
 * What a Custom Form's values may be, on the page and on the server: the limits, numbers and
 * dates as the page's inputs give them, and the binary property a field's files are kept under.
 */

/** The largest file the page accepts, per file (n8n's own limit, N8N_FORMDATA_FILE_SIZE_MAX, is larger). */
export const MAX_FILE_MB = 16;
export const MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024;

/** The most files one field takes (Multiple Files); n8n limits the whole upload on its own. */
export const MAX_FILES = 10;

/** The longest text answer the page accepts, in characters (Free Text, and each form field). */
export const MAX_ANSWER_LENGTH = 10_000;

/** The longest Custom HTML a field may hold, in characters: it is sanitised on every request. */
export const MAX_HTML_LENGTH = 50_000;

/** A number as a person writes it in decimal (`-1.5`, `2e3`); not `0x10`, `0b11` or `Infinity`. */
export function decimalNumber(value: string): number | undefined {
	const trimmed = value.trim();
	if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(trimmed)) return undefined;
	const number = Number(trimmed);
	return Number.isFinite(number) ? number : undefined;
}

const TIME = /^T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

/**
 * A date as YYYY-MM-DD when it is one (the date picker's value); with `time`, the editor's
 * date-time too (a default value), as its day.
 */
export function calendarDate(value: string, time = false): string | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(value.trim());
	if (!match || (match[4] && !(time && TIME.test(match[4])))) return undefined;
	const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
	return date.getUTCDate() === +match[3] && date.getUTCMonth() === +match[2] - 1
		? match[0].slice(0, 10)
		: undefined;
}

/** A file field's binary property (several files: `<name>_0`, `<name>_1`…), as n8n's Form node names it. */
export const binaryName = (key: string): string => key.replace(/\W/g, '_');
