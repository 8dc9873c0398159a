import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	executionCancelledError,
	partialSendError,
	nothingSentError,
	parameterReadError,
} from '../helpers/errors/run';
import type { OperationContext } from '../helpers/values';
import { failuresBecomeItems } from '../helpers/values';
import { outputOf, errorItem } from '../helpers/errors/facts';
import type { ItemResults } from '../helpers/errors/facts';
import { sendOnceFor, readSendOnceKey } from './sendOnce';
import type { SendOnceRun } from './sendOnce';
import { deliverAll } from './deliver';
import type { DeliveryReport } from './deliver';
import { inInputOrder } from './sendOnce/store';
import type { ItemSource } from './sendOnce/store';
import { readSendOptions, SendSession } from './session';
import type { PreparedSend, PrepareSend } from './session';
import { RunRecord } from './runRecord';
import type { RunEnd } from './runRecord';
import { API_PREFIX } from '../constants';

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

/** Step 2 of a dry run: each checked item shows the exact request it would have sent. Nothing is sent. */
export function reportDryRun(
	functions: IExecuteFunctions,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): void {
	let built = 0;
	prepared.forEach((request, itemIndex) => {
		if (!request || results[itemIndex]) return;
		built += 1;
		results[itemIndex] = {
			json: {
				dryRun: true,
				request: {
					method: request.method,
					path: `${API_PREFIX}${request.path}`,
					body: request.body,
				},
				rendered: request.rendered ?? null,
			},
			pairedItem: { item: itemIndex },
		};
	});
	functions.addExecutionHints({
		message: `Dry run: ${built} message(s) checked and built. Nothing was sent.`,
		location: 'outputPane',
	});
}
