import { SEND_ONCE, TEMPLATE_CACHE } from './constants';

type Numbers<T> = { readonly [K in keyof T]: number };

/** The timings the node runs with: the frozen values of constants.ts unless a test set others (the pacer's are given to it when made). */
export interface Tuning {
	readonly templateCache: Numbers<typeof TEMPLATE_CACHE>;
	readonly sendOnce: Numbers<typeof SEND_ONCE>;
}

export type TuningChanges = { [Part in keyof Tuning]?: Partial<Tuning[Part]> };

const DEFAULTS: Tuning = Object.freeze({ templateCache: TEMPLATE_CACHE, sendOnce: SEND_ONCE });

let current: Tuning = DEFAULTS;

/** Read at each use, so that a test's change (testing.ts) reaches code already loaded. */
export function tuning(): Tuning {
	return current;
}

export function setTuningForTests(changes: TuningChanges): void {
	current = Object.freeze({
		templateCache: Object.freeze({ ...current.templateCache, ...changes.templateCache }),
		sendOnce: Object.freeze({ ...current.sendOnce, ...changes.sendOnce }),
	});
}

export function resetTuning(): void {
	current = DEFAULTS;
}
