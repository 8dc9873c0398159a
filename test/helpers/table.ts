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

/** One test a row: `check` accepts the row's input, as the row's value. */
export function testEachAccepted<I, O>(
	title: string,
	check: (input: I) => { ok: true; value: O } | { ok: false },
	rows: ReadonlyArray<readonly [I, O]>,
): void {
	test.each(rows.map(([input, value]) => [input, value] as [I, O]))(title, (input, value) => {
		expect(check(input)).toEqual({ ok: true, value });
	});
}

/** One test: `check` refuses each of `inputs`. */
export function testRefusesAll<I>(
	title: string,
	check: (input: I) => { ok: boolean },
	inputs: readonly I[],
): void {
	test(title, () => {
		for (const input of inputs) expect(check(input).ok).toBe(false);
	});
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
