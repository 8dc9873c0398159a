import type { IExecuteFunctions } from 'n8n-workflow';

import { nothingSentError, parameterReadError } from '../errors';
import { errorItem } from './results';
import { readSendOnceKey } from './sendOnceQueue';
import type { ItemResults } from './results';
import type { PreparedSend, PrepareSend, SendSession } from './session';

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
	const prepared: Array<PreparedSend | undefined> = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const request = await prepare.call(context, itemIndex, session);
			if (session.options.sendOnce) request.sendOnceKey = readSendOnceKey(context, itemIndex);
			prepared[itemIndex] = request;
		} catch (caught) {
			const error = parameterReadError(context.getNode(), caught, itemIndex);
			if (!context.continueOnFail()) throw nothingSentError(context.getNode(), error);
			results[itemIndex] = errorItem(error, itemIndex);
		}
	}
	return prepared;
}
