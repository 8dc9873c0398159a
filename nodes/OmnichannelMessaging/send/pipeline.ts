import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { failuresBecomeItems } from '../helpers/toolCall';

import { executionCancelledError, partialSendError } from '../errors';
import { itemSourceFor, previewSendOnce } from '../sendOnce/run';
import { checkEveryItem } from './check';
import { deliverAll } from './deliver';
import type { DeliveryReport } from './deliver';
import { reportDryRun } from './dryRun';
import { readSendOptions } from './options';
import { outputOf } from '../output/results';
import type { ItemResults } from '../output/results';
import { SendSession } from './session';
import type { PreparedSend, PrepareSend } from './session';

/** Step 3: a broadcast that stopped at a failure, or was cancelled, says which items went out. */
function throwIfStopped(
	context: IExecuteFunctions,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
	report: DeliveryReport,
): void {
	if (report.firstFailure && !failuresBecomeItems(context)) {
		const done = new Set([...report.sent, ...report.failed]);
		// Items skipped for their send-once key have their result already.
		const notStarted = prepared.flatMap((request, itemIndex) =>
			request && !done.has(itemIndex) && !results[itemIndex] ? [itemIndex] : [],
		);
		throw partialSendError(context.getNode(), report.firstFailure.error, { sent: report.sent, failed: report.failed, notStarted });
	}
	if (context.getExecutionCancelSignal()?.aborted) throw executionCancelledError(context.getNode(), report.sent);
}

/**
 * The one send pipeline of the three send operations: check every item, then (unless this is a
 * dry run) deliver the checked ones, then summarize. Results keep input order, each paired to its item.
 */
export async function runSendPipeline(this: IExecuteFunctions, prepare: PrepareSend): Promise<INodeExecutionData[][]> {
	const session = new SendSession(this, readSendOptions(this));
	const results: ItemResults = new Array(this.getInputData().length);
	try {
		const prepared = await checkEveryItem(this, prepare, session, results);
		if (session.options.dryRun) {
			previewSendOnce(session, prepared, results);
			reportDryRun(this, prepared, results);
			return outputOf(results);
		}
		const { queue, source } = itemSourceFor(session, prepared, results);
		if (queue.length === 0) return outputOf(results);
		const report = await deliverAll(session, prepared, results, source);
		throwIfStopped(this, prepared, results, report);
		return outputOf(results);
	} finally {
		// Keys claimed before preparing are released when the run stops before sending them.
		await session.sendOnce?.finish();
	}
}

/** The operation that sends what `prepare` builds from each item. */
export function sendOperation(prepare: PrepareSend) {
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runSendPipeline.call(this, prepare);
	};
}
