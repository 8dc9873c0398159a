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
import { RunRecord } from './runRecord';
import type { RunEnd } from './runRecord';
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

/** What Send Once needs of the execution's options. */
function sendOnceSetup({ options }: SendSession) {
	return { settings: options.sendOnce, concurrency: options.concurrency, dryRun: options.dryRun };
}

/** Where the workers take the checked items from: Send Once's order, or input order. */
function sendOrder(prepared: Array<PreparedSend | undefined>, sendOnce: SendOnceRun | undefined) {
	if (sendOnce) return sendOnce.sendOrder(prepared);
	const queue = prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	return { queue, source: inInputOrder(queue) as ItemSource };
}

/** Steps 2 and 3 of a run that sends: deliver the checked items, then say which went out if it stopped. */
async function deliverChecked(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
	run: { sendOnce?: SendOnceRun; record: RunRecord },
): Promise<void> {
	const { queue, source } = sendOrder(prepared, run.sendOnce);
	if (queue.length === 0) return;
	run.record.report = await deliverAll(session, prepared, results, source);
	throwIfStopped(session, prepared, results, run.record.report);
}

/**
 * The one send pipeline of the send operations: check the send-once keys, open Send Once (items
 * sent before get their result, not even their template read), check every other item, then
 * (unless this is a dry run) deliver the checked ones, then summarize: above the output and in
 * n8n's log (runRecord.ts). Results keep input order, each paired to its item.
 */
export async function runSendPipeline(
	this: IExecuteFunctions,
	prepare: PrepareSend,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	const session = new SendSession(context, readSendOptions(context));
	const { options } = session;
	const results: ItemResults = new Array(this.getInputData().length);
	const record = new RunRecord(this, session);
	record.started(results.length);
	const sendOnce = sendOnceFor(this, { ...sendOnceSetup(session), node: context.node }, results);
	let end: RunEnd = 'stopped';
	try {
		if (sendOnce) await sendOnce.open(checkSendOnceKeys(context, results));
		const prepared = await checkEveryItem(this, prepare, session, results);
		record.checked(results);
		if (options.dryRun) {
			sendOnce?.preview(prepared);
			reportDryRun(this, prepared, results);
			end = 'dryRun';
			return outputOf(results);
		}
		await deliverChecked(session, prepared, results, { sendOnce, record });
		end = 'completed';
		return outputOf(results);
	} finally {
		await sendOnce?.finish();
		record.ended(results, end);
	}
}
