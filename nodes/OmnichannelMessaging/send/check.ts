import type { IExecuteFunctions } from 'n8n-workflow';

import { nothingSentError, parameterReadError } from '../errors';
import { failuresBecomeItems } from '../helpers/toolCall';
import { errorItem } from '../output/results';
import { readSendOnceKey } from '../sendOnce/queue';
import { openSendOnce } from '../sendOnce/run';
import type { ItemResults } from '../output/results';
import type { PreparedSend, PrepareSend, SendSession } from './session';

function recordItemError(context: IExecuteFunctions, caught: unknown, itemIndex: number, results: ItemResults): void {
	const error = parameterReadError(context.getNode(), caught, itemIndex);
	if (!failuresBecomeItems(context)) throw nothingSentError(context.getNode(), error);
	results[itemIndex] = errorItem(error, itemIndex);
}

/** With Send Once per Key: every item's key, and the items whose key was sent before skipped at once. */
async function readKeysAndSkipSent(context: IExecuteFunctions, session: SendSession, results: ItemResults) {
	const keys: Array<string | undefined> = context.getInputData().map((_, itemIndex) => {
		try {
			return readSendOnceKey(context, itemIndex);
		} catch (caught) {
			recordItemError(context, caught, itemIndex, results);
			return undefined;
		}
	});
	await openSendOnce(session, keys, results);
	return keys;
}

/**
 * Step 1: every item is checked before the first is sent, so bad input stops nothing but itself
 * and nothing is sent for it. Without continue-on-fail, one bad item stops the run.
 */
export async function checkEveryItem(
	context: IExecuteFunctions,
	prepare: PrepareSend,
	session: SendSession,
	results: ItemResults,
): Promise<Array<PreparedSend | undefined>> {
	const itemCount = context.getInputData().length;
	const keys = session.options.sendOnce ? await readKeysAndSkipSent(context, session, results) : [];
	const prepared: Array<PreparedSend | undefined> = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		if (results[itemIndex]) continue;
		try {
			const request = await prepare.call(context, itemIndex, session);
			request.sendOnceKey = keys[itemIndex];
			prepared[itemIndex] = request;
		} catch (caught) {
			recordItemError(context, caught, itemIndex, results);
		}
	}
	return prepared;
}
