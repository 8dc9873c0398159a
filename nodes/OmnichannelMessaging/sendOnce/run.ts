import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { sendOnceHistoryTooSmallError, sendOnceUnsupportedError } from '../errors';
import type { ItemResults } from '../output/results';
import type { SendOnceOptions } from './options';
import { SendOnceQueue } from './queue';
import type { KeyDecision } from './queue';
import { skippedItem } from './skipped';
import { SendOnceStore } from './store';

/** What a run of the send pipeline tells Send Once about itself. */
export interface SendOnceSetup {
	settings: SendOnceOptions;
	concurrency: number;
	dryRun: boolean;
	/** The execution's copy of the node (getNode() deep-copies it). */
	node: INode;
}

/** Where the workers take the items to send from, and tell how each send ended (send/deliver.ts's ItemSource). */
export interface KeyedItemSource {
	take(): Promise<number | undefined>;
	settle(itemIndex: number, outcome: 'accepted' | 'notSent' | 'unknown'): Promise<void>;
	finish(): Promise<void>;
}

/**
 * One execution's Send Once, as the send pipeline sees it: `open` the keys once they are checked,
 * `sendOrder` the checked items (each send's outcome goes back through its source), `finish`.
 */
export class SendOnceRun {
	private keys: Array<string | undefined> = [];

	private queue?: SendOnceQueue;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly setup: SendOnceSetup,
		private readonly results: ItemResults,
	) {}

	/** Claimed ahead of sending: a stop leaves at most this many plus those in flight claimed but unsent. */
	private get batchSize() {
		return 2 * this.setup.concurrency;
	}

	/** The in-process key of the store row (and of the claims): workflow, and node for the node scope. */
	private get scopeKey(): string {
		const { context, setup } = this;
		return `${context.getWorkflow().id ?? ''}\n${setup.settings.scope === 'node' ? setup.node.id : '*'}`;
	}

	private store(): SendOnceStore {
		const { context } = this;
		const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
		if (typeof helpers.checkProcessedAndRecord !== 'function' || typeof helpers.removeProcessed !== 'function') {
			throw sendOnceUnsupportedError(context.getNode());
		}
		return new SendOnceStore(context.helpers, this.setup.settings, this.scopeKey, this.setup.node);
	}

	/**
	 * Before any item is prepared (and its template read), the keys sent before are found, and those
	 * items are output as skipped without reaching the service, not even for their template. A run
	 * of at most one claim batch claims its keys right away, the claim being its look-up; a larger
	 * run looks up the acceptances of all its keys in one go and claims batch by batch later. The
	 * run's keys must fit in the history, or the oldest would be forgotten while it sends.
	 */
	async open(keys: Array<string | undefined>): Promise<void> {
		const { context, setup } = this;
		this.keys = keys;
		const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
		if (distinct.length > setup.settings.history) throw sendOnceHistoryTooSmallError(context.getNode(), distinct.length, setup.settings.history);
		if (setup.dryRun) return await this.previewKeysSentBefore(distinct);
		const store = this.store();
		const queue = new SendOnceQueue({
			store,
			scopeKey: this.scopeKey,
			unknown: setup.settings.unknown,
			keys,
			results: this.results,
			batchSize: this.batchSize,
			cancel: context.getExecutionCancelSignal(),
		});
		this.queue = queue;
		const small = distinct.length <= this.batchSize;
		const decisions: Map<string, KeyDecision> = small
			? await queue.claimAhead(distinct)
			: new Map([...(await store.sentBefore(distinct, false)).accepted].map((key) => [key, 'alreadySent' as const]));
		if (!small) queue.sentBefore(decisions.keys());
		keys.forEach((key, itemIndex) => {
			const decision = key === undefined ? undefined : decisions.get(key);
			if (decision !== undefined && decision !== 'send') this.results[itemIndex] = skippedItem(itemIndex, decision, key as string);
		});
	}

	/** The checked items to send, in input order, claimed batch by batch as the workers take them. */
	sendOrder(checked: ReadonlyArray<unknown>): { queue: number[]; source: KeyedItemSource } {
		const queue = this.firstOfEachKey(checked);
		this.queue!.start(queue);
		return { queue, source: this.queue! };
	}

	/** A dry run also says which items would be skipped as duplicates within the run. Nothing is recorded. */
	preview(checked: ReadonlyArray<unknown>): void {
		this.firstOfEachKey(checked);
		for (const item of this.results) if (item?.json.skipped) item.json.dryRun = true;
	}

	/** Keys claimed before preparing are released when the run stops before sending them. */
	async finish(): Promise<void> {
		await this.queue?.finish();
	}

	/** A dry run looks up acceptances and unknown outcomes, and records nothing. */
	private async previewKeysSentBefore(distinct: string[]) {
		const { accepted, unknown } = await this.store().sentBefore(distinct, true);
		const sendUnknown = this.setup.settings.unknown === 'send';
		this.keys.forEach((key, itemIndex) => {
			if (key === undefined) return;
			if (accepted.has(key)) this.results[itemIndex] = skippedItem(itemIndex, 'alreadySent', key);
			else if (unknown.has(key) && !sendUnknown) this.results[itemIndex] = skippedItem(itemIndex, 'outcomeUnknown', key);
		});
	}

	/** The checked items to send; a key seen earlier in this run is skipped as duplicateInRun. */
	private firstOfEachKey(checked: ReadonlyArray<unknown>): number[] {
		const seen = new Set<string>();
		return checked.flatMap((request, itemIndex) => {
			if (request === undefined) return [];
			const key = this.keys[itemIndex];
			if (key === undefined) return [itemIndex];
			if (seen.has(key)) {
				this.results[itemIndex] = skippedItem(itemIndex, 'duplicateInRun', key);
				return [];
			}
			seen.add(key);
			return [itemIndex];
		});
	}
}
