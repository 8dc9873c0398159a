import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { executionCancelledError, partialSendError } from '../helpers/errors';
import type { OperationContext } from '../helpers/operationContext';
import { failuresBecomeItems } from '../helpers/toolCall';
import { outputOf } from '../helpers/results';
import type { ItemResults } from '../helpers/results';
import { sendOnceFor } from './sendOnce';
import type { SendOnceRun } from './sendOnce';
import { checkEveryItem, checkSendOnceKeys } from './check';
import { deliverAll } from './deliver';
import type { DeliveryReport } from './deliver';
import { inInputOrder } from './itemSource';
import type { ItemSource } from './itemSource';
import { reportDryRun } from './dryRun';
import { readSendOptions } from './options';
import { SendSession } from './session';
import type { PreparedSend, PrepareSend } from './session';

/** Step 3: a broadcast that stopped at a failure, or was cancelled, says which items went out. */
function throwIfStopped(
	{ functions, context }: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
	report: DeliveryReport,
): void {
	if (report.firstFailure && !failuresBecomeItems(functions, context.node)) {
		const done = new Set([...report.sent, ...report.failed]);
		// Items skipped for their send-once key have their result already.
		const notStarted = prepared.flatMap((request, itemIndex) =>
			request && !done.has(itemIndex) && !results[itemIndex] ? [itemIndex] : [],
		);
		throw partialSendError(functions.getNode(), report.firstFailure.error, {
			sent: report.sent,
			failed: report.failed,
			notStarted,
		});
	}
	if (functions.getExecutionCancelSignal()?.aborted)
		throw executionCancelledError(functions.getNode(), report.sent);
}

/** Where the workers take the checked items from: Send Once's order, or input order. */
function sendOrder(prepared: Array<PreparedSend | undefined>, sendOnce: SendOnceRun | undefined) {
	if (sendOnce) return sendOnce.sendOrder(prepared);
	const queue = prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	return { queue, source: inInputOrder(queue) as ItemSource };
}

/**
 * The one send pipeline of the three send operations: check the send-once keys, open Send Once
 * (items sent before get their result, not even their template read), check every other item,
 * then (unless this is a dry run) deliver the checked ones, then summarize. Results keep input
 * order, each paired to its item.
 */
export async function runSendPipeline(
	this: IExecuteFunctions,
	prepare: PrepareSend,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	const session = new SendSession(context, readSendOptions(context));
	const { options } = session;
	const results: ItemResults = new Array(this.getInputData().length);
	const sendOnce = sendOnceFor(
		this,
		{
			settings: options.sendOnce,
			concurrency: options.concurrency,
			dryRun: options.dryRun,
			node: context.node,
		},
		results,
	);
	try {
		if (sendOnce) await sendOnce.open(checkSendOnceKeys(context, results));
		const prepared = await checkEveryItem(this, prepare, session, results);
		if (options.dryRun) {
			sendOnce?.preview(prepared);
			reportDryRun(this, prepared, results);
			return outputOf(results);
		}
		const { queue, source } = sendOrder(prepared, sendOnce);
		if (queue.length === 0) return outputOf(results);
		const report = await deliverAll(session, prepared, results, source);
		throwIfStopped(session, prepared, results, report);
		return outputOf(results);
	} finally {
		await sendOnce?.finish();
	}
}
