import { runNode } from '../../helpers/engine';
import type { RunOptions, RunResult } from '../../helpers/engine';

/** runNode, failed with a clear message instead of hanging the suite. */
export async function runBounded(options: RunOptions, limitMs = 15_000): Promise<RunResult> {
	let timer: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new Error(`the node did not end within ${limitMs} ms`)),
			limitMs,
		);
	});
	try {
		return await Promise.race([runNode(options), hang]);
	} finally {
		clearTimeout(timer);
	}
}

/** Unhandled rejections and uncaught exceptions seen while a test file runs. */
export function watchUncaught() {
	const seen: unknown[] = [];
	const onRejection = (reason: unknown) => seen.push(reason);
	const onException = (error: unknown) => seen.push(error);
	beforeAll(() => {
		process.on('unhandledRejection', onRejection);
		process.on('uncaughtException', onException);
	});
	afterAll(() => {
		process.off('unhandledRejection', onRejection);
		process.off('uncaughtException', onException);
	});
	return seen;
}
