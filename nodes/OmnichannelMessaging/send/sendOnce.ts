import type { IExecuteFunctions } from 'n8n-workflow';

import { sendOnceUnsupportedError } from '../errors';
import { inInputOrder } from './deliver';
import type { ItemSource } from './deliver';
import { claimKeys } from './processState';
import { skippedItem } from './results';
import type { ItemResults } from './results';
import { SendOnceQueue } from './sendOnceQueue';
import { SendOnceStore } from './sendOnceStore';
import type { PreparedSend, SendSession } from './session';

/** The in-process key of the store row (and of the claims): workflow, and node for the node scope. */
function scopeKeyOf(context: IExecuteFunctions, session: SendSession): string {
	return `${context.getWorkflow().id ?? ''}\n${session.options.sendOnce?.scope === 'node' ? context.getNode().id : '*'}`;
}

function storeOf(context: IExecuteFunctions, session: SendSession): SendOnceStore {
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	if (typeof helpers.checkProcessedAndRecord !== 'function' || typeof helpers.removeProcessed !== 'function') {
		throw sendOnceUnsupportedError(context.getNode());
	}
	return new SendOnceStore(context.helpers, session.options.sendOnce!, scopeKeyOf(context, session), context.getNode());
}

/** The checked items to send; a key seen earlier in this run is skipped as duplicateInRun. */
function firstOfEachKey(prepared: Array<PreparedSend | undefined>, results: ItemResults): number[] {
	const seen = new Set<string>();
	return prepared.flatMap((request, itemIndex) => {
		if (!request) return [];
		const key = request.sendOnceKey;
		if (key === undefined) return [itemIndex];
		if (seen.has(key)) {
			results[itemIndex] = skippedItem(itemIndex, 'duplicateInRun', key);
			return [];
		}
		seen.add(key);
		return [itemIndex];
	});
}

/** Where the items to send come from: in input order, or, with send-once keys, claimed batch by batch. */
export function itemSourceFor(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): { queue: number[]; source: ItemSource } {
	const { context, options } = session;
	const queue = firstOfEachKey(prepared, results);
	if (!options.sendOnce || queue.length === 0) return { queue, source: inInputOrder(queue) };
	const store = storeOf(context, session);
	const keys = prepared.map((request) => request?.sendOnceKey ?? '');
	// The in-process claims are per workflow and scope, as the store's rows are.
	const scopeKey = scopeKeyOf(context, session);
	const source = new SendOnceQueue({
		store,
		scopeKey,
		unknown: options.sendOnce.unknown,
		queue,
		keys,
		results,
		// Claimed ahead of sending: a stop leaves at most this many plus those in flight claimed but unsent.
		batchSize: 2 * options.concurrency,
		held: claimKeys(scopeKey, queue.map((itemIndex) => keys[itemIndex])),
		cancel: context.getExecutionCancelSignal(),
	});
	return { queue, source };
}

/**
 * Before any item is prepared (and its template read), the keys the service accepted before are
 * looked up in one go: those items are output as skipped and never reach the service, not even
 * for their template. A real run finds keys with an unknown outcome when it claims them; a dry
 * run, which claims nothing, looks for them here.
 */
export async function skipKeysSentBefore(
	session: SendSession,
	keys: Array<string | undefined>,
	results: ItemResults,
): Promise<void> {
	const store = storeOf(session.context, session);
	const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
	const { accepted, unknown } = await store.sentBefore(distinct, session.options.dryRun);
	const sendUnknown = session.options.sendOnce?.unknown === 'send';
	keys.forEach((key, itemIndex) => {
		if (key === undefined) return;
		if (accepted.has(key)) results[itemIndex] = skippedItem(itemIndex, 'alreadySent', key);
		else if (unknown.has(key) && !sendUnknown) results[itemIndex] = skippedItem(itemIndex, 'outcomeUnknown', key);
	});
}

/** A dry run also says which items would be skipped as duplicates within the run. Nothing is recorded. */
export function previewSendOnce(session: SendSession, prepared: Array<PreparedSend | undefined>, results: ItemResults): void {
	if (!session.options.sendOnce) return;
	firstOfEachKey(prepared, results);
	for (const item of results) if (item?.json.skipped) item.json.dryRun = true;
}
