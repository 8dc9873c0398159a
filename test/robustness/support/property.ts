import fc from 'fast-check';

import { FUZZ_SEED } from './config';

/** Long runs of one character (the 100 KB inputs) shown as a count, and the whole capped. */
export function shorten(text: string, max = 3000): string {
	const squeezed = text.replace(
		/([\s\S])\1{40,}/g,
		(run, char: string) => `${char.repeat(8)}…(${run.length}×)`,
	);
	return squeezed.length > max ? `${squeezed.slice(0, max)}…` : squeezed;
}

/**
 * fc.assert with the suite's seed, and a failure report that stays readable when the
 * counterexample holds 100 KB strings. Re-run one failure with FUZZ_SEED and the printed path.
 */
export async function checkProperty<T extends [unknown, ...unknown[]]>(
	property: fc.IAsyncPropertyWithHooks<T> | fc.IPropertyWithHooks<T>,
	numRuns: number,
): Promise<void> {
	const path = process.env.FUZZ_PATH;
	const details = await fc.check(property as fc.IAsyncPropertyWithHooks<T>, {
		seed: FUZZ_SEED,
		numRuns,
		...(path ? { path, endOnFailure: true } : {}),
	});
	if (!details.failed) return;
	const cause =
		details.errorInstance instanceof Error
			? details.errorInstance.message
			: String(details.errorInstance);
	throw new Error(
		[
			`Property failed after ${details.numRuns} run(s); reproduce with FUZZ_SEED=${details.seed} ` +
				`FUZZ_PATH="${details.counterexamplePath}"`,
			`Counterexample: ${shorten(fc.stringify(details.counterexample))}`,
			`Cause: ${shorten(cause)}`,
		].join('\n'),
	);
}
