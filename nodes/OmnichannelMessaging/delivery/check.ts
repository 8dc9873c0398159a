import type { IExecuteFunctions } from 'n8n-workflow';

import { nothingSentError, parameterReadError } from '../helpers/errors';
import type { OperationContext } from '../helpers/operationContext';
import { failuresBecomeItems } from '../helpers/toolCall';
import { errorItem } from '../helpers/results';
import type { ItemResults } from '../helpers/results';
import { readSendOnceKey } from './sendOnce';
import type { PreparedSend, PrepareSend, SendSession } from './session';

function recordItemError(
	context: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
	results: ItemResults,
): void {
	const error = parameterReadError(context.getNode(), caught, itemIndex);
	if (!failuresBecomeItems(context)) throw nothingSentError(context.getNode(), error);
	results[itemIndex] = errorItem(error, itemIndex);
}

/** Step 1a, with Send Once per Key: every item's key (undefined where it is bad input, the item's error recorded). */
export function checkSendOnceKeys(
	operation: OperationContext,
	results: ItemResults,
): Array<string | undefined> {
	const context = operation.functions;
	return context.getInputData().map((_, itemIndex) => {
		try {
			return readSendOnceKey(operation, itemIndex);
		} catch (caught) {
			recordItemError(context, caught, itemIndex, results);
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
	context: IExecuteFunctions,
	prepare: PrepareSend,
	session: SendSession,
	results: ItemResults,
): Promise<Array<PreparedSend | undefined>> {
	const itemCount = context.getInputData().length;
	const prepared: Array<PreparedSend | undefined> = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		if (results[itemIndex]) continue;
		try {
			prepared[itemIndex] = await prepare.call(context, itemIndex, session);
		} catch (caught) {
			recordItemError(context, caught, itemIndex, results);
		}
	}
	return prepared;
}
