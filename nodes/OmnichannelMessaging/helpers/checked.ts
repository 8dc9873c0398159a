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
