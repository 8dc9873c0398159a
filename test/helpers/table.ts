/*
 * Table-driven tests: one test a row, so that a table of inputs and what becomes of them is the
 * whole test, and the check that runs the rows is written once.
 */

/** One test a row: `fn` turns the row's input into its expected value (`toBe`). */
export function testEachReturns<I, O>(
	title: string,
	fn: (input: I) => O,
	rows: ReadonlyArray<readonly [I, O]>,
): void {
	test.each(rows.map(([input, expected]) => [input, expected] as [I, O]))(
		title,
		(input, expected) => {
			expect(fn(input)).toBe(expected);
		},
	);
}

/** One test a row: `check` refuses the row's input, for a reason holding the row's text. */
export function testEachRefused<I>(
	title: string,
	check: (input: I) => { ok: true } | { ok: false; reason: string },
	rows: ReadonlyArray<readonly [I, string]>,
): void {
	test.each(rows.map(([input, reason]) => [input, reason] as [I, string]))(
		title,
		(input, reason) => {
			const result = check(input);
			expect(result.ok).toBe(false);
			expect(result.ok ? '' : result.reason).toContain(reason);
		},
	);
}
