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
	return new SendOnceStore(context.helpers, session.options.sendOnce!, scopeKeyOf(context, session));
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

/** A dry run says which items would be skipped, and leaves the store as it was. */
export async function previewSendOnce(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): Promise<void> {
	if (!session.options.sendOnce) return;
	const queue = firstOfEachKey(prepared, results);
	const store = storeOf(session.context, session);
	const keys = queue.map((itemIndex) => prepared[itemIndex]?.sendOnceKey ?? '');
	const claimed = await store.claimedAmong(keys);
	const accepted = await store.acceptedAmong([...claimed]);
	for (const itemIndex of queue) {
		const key = prepared[itemIndex]?.sendOnceKey ?? '';
		if (!claimed.has(key)) continue;
		const reason = accepted.has(key) ? 'alreadySent' : 'outcomeUnknown';
		if (reason === 'outcomeUnknown' && session.options.sendOnce.unknown === 'send') continue;
		results[itemIndex] = skippedItem(itemIndex, reason, key);
	}
	for (const item of results) if (item?.json.skipped) item.json.dryRun = true;
}
