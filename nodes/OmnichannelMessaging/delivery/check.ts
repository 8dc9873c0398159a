import type { IExecuteFunctions } from 'n8n-workflow';

import { nothingSentError, parameterReadError } from '../helpers/errors';
import type { OperationContext } from '../helpers/operationContext';
import { failuresBecomeItems } from '../helpers/toolCall';
import { errorItem } from '../helpers/results';
import type { ItemResults } from '../helpers/results';
import { readSendOnceKey } from './sendOnce';
import type { PreparedSend, PrepareSend, SendSession } from './session';

function recordItemError(
	functions: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
	results: ItemResults,
): void {
	const error = parameterReadError(functions.getNode(), caught, itemIndex);
	if (!failuresBecomeItems(functions)) throw nothingSentError(functions.getNode(), error);
	results[itemIndex] = errorItem(error, itemIndex);
}

/** Step 1a, with Send Once per Key: every item's key (undefined where it is bad input, the item's error recorded). */
export function checkSendOnceKeys(
	context: OperationContext,
	results: ItemResults,
): Array<string | undefined> {
	const functions = context.functions;
	return functions.getInputData().map((_, itemIndex) => {
		try {
			return readSendOnceKey(context, itemIndex);
		} catch (caught) {
			recordItemError(functions, caught, itemIndex, results);
			return undefined;
		}
	});
}

/**
 * Step 1b: every item without a result yet is checked before the first is sent, so bad input
 * stops nothing but itself and nothing is sent for it. Without continue-on-fail, one bad item
 * stops the run. Nothing is written here.
 */
export async function checkEveryItem(
	functions: IExecuteFunctions,
	prepare: PrepareSend,
	session: SendSession,
	results: ItemResults,
): Promise<Array<PreparedSend | undefined>> {
	const itemCount = functions.getInputData().length;
	const prepared: Array<PreparedSend | undefined> = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		if (results[itemIndex]) continue;
		try {
			prepared[itemIndex] = await prepare.call(functions, itemIndex, session);
		} catch (caught) {
			recordItemError(functions, caught, itemIndex, results);
		}
	}
	return prepared;
}
