import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { ItemResults } from '../../helpers/errors/facts';
import { sendOnceHistoryTooSmallError, sendOnceUnsupportedError } from '../../helpers/errors/run';
import { SendOnceQueue, SendOnceStore } from './store';
import type { KeyDecision } from './store';
import type { CheckedItems, ItemSource } from '../sendQueue';
import { PROCESS_CLAIMS, skippedItem } from './options';
import type { SendOnceOptions } from './options';

// Send Once per Key (docs/send-once.md). From outside this folder only this file is imported, and
// store.ts for the item sources (the Send Once queue is one, the input order the other).
export { SEND_ONCE_OPTIONS, readSendOnceKey, readSendOnceOptions } from './options';
export type { SendOnceOptions } from './options';

/** The execution's Send Once run; undefined when Send Once per Key is off. */
export function sendOnceFor(
	functions: IExecuteFunctions,
	setup: Omit<SendOnceSetup, 'settings'> & { settings?: SendOnceSetup['settings'] },
	results: ItemResults,
): SendOnceRun | undefined {
	const { settings } = setup;
	return settings ? new SendOnceRun(functions, { ...setup, settings }, results) : undefined;
}

export interface SendOnceSetup {
	settings: SendOnceOptions;
	concurrency: number;
	dryRun: boolean;
	/** The execution's copy of the node (getNode() deep-copies it). */
	node: INode;
}

/** `open` the keys once checked, `sendOrder` the checked items, `finish`. */
export class SendOnceRun {
	private keys: Array<string | undefined> = [];

	private readonly seen = new Set<string>();

	private queue?: SendOnceQueue;

	constructor(
		private readonly functions: IExecuteFunctions,
		private readonly setup: SendOnceSetup,
		private readonly results: ItemResults,
	) {}

	/** Claimed ahead of sending: a stop leaves at most this many plus those in flight claimed but unsent. */
	private get batchSize() {
		return 2 * this.setup.concurrency;
	}

	/** The history's scope: the workflow, and the node for the node scope. */
	private get scopeKey(): string {
		const { functions, setup } = this;
		return `${functions.getWorkflow().id ?? ''}\n${setup.settings.scope === 'node' ? setup.node.id : '*'}`;
	}

	private store(): SendOnceStore {
		const { functions } = this;
		const helpers = functions.helpers as Partial<IExecuteFunctions['helpers']>;
		if (
			typeof helpers.checkProcessedAndRecord !== 'function' ||
			typeof helpers.removeProcessed !== 'function'
		) {
			throw sendOnceUnsupportedError(functions.getNode());
		}
		return new SendOnceStore(
			functions.helpers,
			this.setup.settings,
			this.scopeKey,
			this.setup.node,
		);
	}

	/**
	 * Before preparing, so a skipped item's template is never read. A run of one claim batch claims
	 * at once (the claim is its look-up); a larger one looks up acceptances first.
	 */
	async open(keys: Array<string | undefined>): Promise<void> {
		const { functions, setup } = this;
		this.keys = keys;
		const distinct = [...new Set(keys.filter((key): key is string => key !== undefined))];
		if (distinct.length > setup.settings.history)
			throw sendOnceHistoryTooSmallError(
				functions.getNode(),
				distinct.length,
				setup.settings.history,
			);
		if (setup.dryRun) return await this.previewKeysSentBefore(distinct);
		const store = this.store();
		const queue = new SendOnceQueue({
			store,
			claims: PROCESS_CLAIMS,
			scopeKey: this.scopeKey,
			unknown: setup.settings.unknown,
			keys,
			results: this.results,
			batchSize: this.batchSize,
			cancel: functions.getExecutionCancelSignal(),
		});
		this.queue = queue;
		const small = distinct.length <= this.batchSize;
		const decisions: Map<string, KeyDecision> = small
			? await queue.claimAhead(distinct)
			: new Map(
					[...(await store.sentBefore(distinct, false)).accepted].map((key) => [
						key,
						'alreadySent' as const,
					]),
				);
		if (!small) queue.sentBefore(decisions.keys());
		keys.forEach((key, itemIndex) => {
			const decision = key === undefined ? undefined : decisions.get(key);
			if (decision !== undefined && decision !== 'send')
				this.results[itemIndex] = skippedItem(itemIndex, decision, key as string);
		});
	}

	/** The checked items in input order, claimed batch by batch as the workers take them. */
	sendOrder(checked: CheckedItems): ItemSource {
		this.queue!.start(checked);
		return this.queue!;
	}

	/**
	 * Whether checked item `itemIndex` is sent: only the first checked item of each key is; a later
	 * one is a duplicate in this run. Asked in input order, as each item passes its check.
	 */
	admit(itemIndex: number): boolean {
		const key = this.keys[itemIndex];
		if (key === undefined) return true;
		if (this.seen.has(key)) {
			this.results[itemIndex] = skippedItem(itemIndex, 'duplicateInRun', key);
			return false;
		}
		this.seen.add(key);
		return true;
	}

	/** A dry run records nothing. */
	preview(): void {
		for (const item of this.results) if (item?.json.skipped) item.json.dryRun = true;
	}

	/** Releases keys claimed before preparing when the run stopped before sending them. */
	async finish(): Promise<void> {
		await this.queue?.finish();
	}

	private async previewKeysSentBefore(distinct: string[]) {
		const { accepted, unknown } = await this.store().sentBefore(distinct, true);
		const sendUnknown = this.setup.settings.unknown === 'send';
		this.keys.forEach((key, itemIndex) => {
			if (key === undefined) return;
			if (accepted.has(key)) this.results[itemIndex] = skippedItem(itemIndex, 'alreadySent', key);
			else if (unknown.has(key) && !sendUnknown)
				this.results[itemIndex] = skippedItem(itemIndex, 'outcomeUnknown', key);
		});
	}
}
