import type { IExecuteFunctions } from 'n8n-workflow';

import { sendOnceHistoryTooSmallError, sendOnceUnsupportedError } from '../errors';
import { inInputOrder } from '../send/deliver';
import type { ItemSource } from '../send/deliver';
import { skippedItem } from '../output/results';
import type { ItemResults } from '../output/results';
import type { PreparedSend, SendSession } from '../send/session';
import { SendOnceQueue } from './queue';
import { SendOnceStore } from './store';

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

/** Claimed ahead of sending: a stop leaves at most this many plus those in flight claimed but unsent. */
const batchSizeOf = (session: SendSession) => 2 * session.options.concurrency;

/** A dry run looks up acceptances and unknown outcomes, and records nothing. */
async function previewKeysSentBefore(session: SendSession, keys: Array<string | undefined>, distinct: string[], results: ItemResults) {
	const { accepted, unknown } = await storeOf(session.context, session).sentBefore(distinct, true);
	const sendUnknown = session.options.sendOnce?.unknown === 'send';
	keys.forEach((key, itemIndex) => {
		if (key === undefined) return;
		if (accepted.has(key)) results[itemIndex] = skippedItem(itemIndex, 'alreadySent', key);
		else if (unknown.has(key) && !sendUnknown) results[itemIndex] = skippedItem(itemIndex, 'outcomeUnknown', key);
	});
}

/**
 * Before any item is prepared (and its template read), the keys sent before are found, and those
 * items are output as skipped without reaching the service, not even for their template. A run
 * of at most one claim batch claims its keys right away, the claim being its look-up; a larger
 * run looks up the acceptances of all its keys in one go and claims batch by batch later. The
 * run's keys must fit in the history, or the oldest would be forgotten while it sends.
 */
export async function openSendOnce(session: SendSession, keys: Array<string | undefined>, results: ItemResults): Promise<void> {
	const { context, options } = session;
	const settings = options.sendOnce!;
	const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
	if (distinct.length > settings.history) throw sendOnceHistoryTooSmallError(context.getNode(), distinct.length, settings.history);
	if (options.dryRun) return await previewKeysSentBefore(session, keys, distinct, results);
	const store = storeOf(context, session);
	const queue = new SendOnceQueue({
		store,
		scopeKey: scopeKeyOf(context, session),
		unknown: settings.unknown,
		keys,
		results,
		batchSize: batchSizeOf(session),
		cancel: context.getExecutionCancelSignal(),
	});
	session.sendOnce = queue;
	const small = distinct.length <= batchSizeOf(session);
	const decisions = small
		? await queue.claimAhead(distinct)
		: new Map([...(await store.sentBefore(distinct, false)).accepted].map((key) => [key, 'alreadySent' as const]));
	if (!small) queue.sentBefore(decisions.keys());
	keys.forEach((key, itemIndex) => {
		const decision = key === undefined ? undefined : decisions.get(key);
		if (decision !== undefined && decision !== 'send') results[itemIndex] = skippedItem(itemIndex, decision, key as string);
	});
}

/** Where the items to send come from: in input order, or, with send-once keys, claimed batch by batch. */
export function itemSourceFor(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): { queue: number[]; source: ItemSource } {
	const queue = firstOfEachKey(prepared, results);
	if (!session.sendOnce) return { queue, source: inInputOrder(queue) };
	session.sendOnce.start(queue);
	return { queue, source: session.sendOnce };
}

/** A dry run also says which items would be skipped as duplicates within the run. Nothing is recorded. */
export function previewSendOnce(session: SendSession, prepared: Array<PreparedSend | undefined>, results: ItemResults): void {
	if (!session.options.sendOnce) return;
	firstOfEachKey(prepared, results);
	for (const item of results) if (item?.json.skipped) item.json.dryRun = true;
}
