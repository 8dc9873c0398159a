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
import { CheckedItems, inInputOrder } from './sendQueue';
import { EventLoopTurns, REAL_CLOCK } from './clock';
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

/** One execution's run: what n8n gives it, its session, its results, Send Once and its record. */
interface SendRun {
	functions: IExecuteFunctions;
	prepare: PrepareSend;
	session: SendSession;
	results: ItemResults;
	sendOnce?: SendOnceRun;
	record: RunRecord;
	/** A bad item becomes an error item (continue-on-fail, a tool call) rather than stopping the run. */
	failuresBecomeItems: boolean;
}

/**
 * Steps 1b and 2 of a run that sends. Where a bad item becomes an error item, each item is checked
 * just before it is sent, so the first message leaves at once, as n8n's HTTP Request node sends.
 * Where one bad item stops the run, every item is checked before the first is sent, so that
 * nothing is sent for a run that stops (docs/sending-at-scale.md). Then, if it stopped, which
 * items went out.
 */
async function checkAndDeliver(run: SendRun): Promise<void> {
	const { session, results, sendOnce, record } = run;
	const checked = new CheckedItems();
	const prepared: Array<PreparedSend | undefined> = new Array(results.length);
	const source = sendOnce ? sendOnce.sendOrder(checked) : inInputOrder(checked);
	const checking = checkItems(run, prepared, checked).finally(() => checked.close());
	// Awaited below; until then its failure must not count as unhandled.
	checking.catch(() => {});
	// Sends start with the first item that passes (or, stopping at a bad one, once all have).
	if (!run.failuresBecomeItems) await checking;
	while (checked.items.length === 0 && !checked.closed) await checked.more();
	try {
		if (checked.items.length === 0) return;
		record.report = await deliverAll(session, prepared, results, source);
	} finally {
		await checking;
	}
	throwIfStopped(session, prepared, results, record.report);
}

/**
 * The one send pipeline of the send operations: check the send-once keys, open Send Once (items
 * sent before get their result, not even their template read), check the other items and (unless
 * this is a dry run) deliver them, then summarize: above the output and in n8n's log
 * (runRecord.ts). Results keep input order, each paired to its item. Every loop over the items
 * gives n8n's event loop its turns (clock.ts), so n8n keeps answering while thousands are checked.
 */
export async function runSendPipeline(
	this: IExecuteFunctions,
	prepare: PrepareSend,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	const session = new SendSession(context, readSendOptions(context));
	const results: ItemResults = new Array(this.getInputData().length);
	const record = new RunRecord(this, session);
	record.started(results.length);
	const sendOnce = sendOnceFor(this, { ...sendOnceSetup(session), node: context.node }, results);
	const run: SendRun = {
		functions: this,
		prepare,
		session,
		results,
		sendOnce,
		record,
		failuresBecomeItems: failuresBecomeItems(this, context.node),
	};
	let end: RunEnd = 'stopped';
	try {
		if (sendOnce) await sendOnce.open(await checkSendOnceKeys(run));
		if (session.options.dryRun) {
			const prepared: Array<PreparedSend | undefined> = new Array(results.length);
			await checkItems(run, prepared, new CheckedItems());
			sendOnce?.preview();
			reportDryRun(this, prepared, results);
			end = 'dryRun';
			return outputOf(results);
		}
		await checkAndDeliver(run);
		end = 'completed';
		return outputOf(results);
	} finally {
		await sendOnce?.finish();
		record.ended(results, end);
	}
}

/** A bad item: its error item, or (where one bad item stops the run) the run's error, nothing sent. */
function recordItemError(run: SendRun, caught: unknown, itemIndex: number): void {
	const node = run.functions.getNode();
	const error = parameterReadError(node, caught, itemIndex);
	if (!run.failuresBecomeItems) throw nothingSentError(node, error);
	run.results[itemIndex] = errorItem(error, itemIndex);
	run.record.checkFailed();
}

/** Step 1a, with Send Once per Key: every item's key (undefined where it is bad input, the item's error recorded). */
async function checkSendOnceKeys(run: SendRun): Promise<Array<string | undefined>> {
	const turns = new EventLoopTurns(REAL_CLOCK);
	const keys: Array<string | undefined> = new Array(run.results.length);
	for (let itemIndex = 0; itemIndex < keys.length; itemIndex++) {
		try {
			keys[itemIndex] = readSendOnceKey(run.session.context, itemIndex);
		} catch (caught) {
			recordItemError(run, caught, itemIndex);
		}
		await turns.after();
	}
	return keys;
}

/**
 * Step 1b: each item without a result yet is checked in input order and, if it is to be sent,
 * added to `checked`; bad input stops nothing but itself and nothing is sent for it, unless one
 * bad item stops the run. Nothing is written here.
 */
async function checkItems(
	run: SendRun,
	prepared: Array<PreparedSend | undefined>,
	checked: CheckedItems,
): Promise<void> {
	const { functions, prepare, session, results, sendOnce } = run;
	const turns = new EventLoopTurns(REAL_CLOCK);
	const cancelSignal = functions.getExecutionCancelSignal();
	for (let itemIndex = 0; itemIndex < prepared.length; itemIndex++) {
		if (cancelSignal?.aborted) return;
		if (results[itemIndex]) continue;
		try {
			prepared[itemIndex] = await prepare.call(functions, itemIndex, session);
			if (sendOnce?.admit(itemIndex) ?? true) checked.push(itemIndex);
		} catch (caught) {
			recordItemError(run, caught, itemIndex);
		}
		await turns.after();
	}
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
