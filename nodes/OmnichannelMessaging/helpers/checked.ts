/**
 * The one shape of "this worked, here is the value / this is why not" across the package. A check
 * returns it and never rewrites what it checks; `field` names the parameter a refusal is about
 * where the caller cannot know it, and `hint` says what to do where the reason alone does not.
 */
export type Checked<T> =
	| { ok: true; value: T }
	| { ok: false; reason: string; field?: string; hint?: string };

/** A check's "why not", for the code that turns it into an error. */
export type Refused = Extract<Checked<never>, { ok: false }>;

export function accepted<T>(value: T): Checked<T> {
	return { ok: true, value };
}

export function refused<T = never>(reason: string, field?: string, hint?: string): Checked<T> {
	// Absent rather than undefined, so a refusal compares equal to one written out by hand.
	return {
		ok: false,
		reason,
		...(field === undefined ? {} : { field }),
		...(hint === undefined ? {} : { hint }),
	};
}
