/**
 * Resolves once `condition` holds, checked each turn of the event loop. It fails after 20 s, well
 * inside jest's 30 s, so that a condition that never holds says so by name on a slow machine too.
 */
export async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
	const giveUpAt = Date.now() + 20_000;
	while (!condition()) {
		if (Date.now() > giveUpAt) throw new Error(`${what} never held`);
		await new Promise((resolve) => setImmediate(resolve));
	}
}
