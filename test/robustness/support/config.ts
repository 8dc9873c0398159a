/**
 * Fixed seed and bounded runs by default, so `npm test` is fast and repeatable. The long fuzz
 * (scripts/fuzz-long.sh) raises FUZZ_RUNS and may pick another FUZZ_SEED; a failure prints the
 * seed and path that reproduce it.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 424242);

/** Runs of one property: `base` in the normal suite, FUZZ_RUNS in the long fuzz. */
export function fuzzRuns(base: number): number {
	const fromEnv = Number(process.env.FUZZ_RUNS);
	return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : base;
}

export const LONG_FUZZ = Number(process.env.FUZZ_RUNS) > 0;
