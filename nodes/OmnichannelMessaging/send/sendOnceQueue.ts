import type { IExecuteFunctions } from 'n8n-workflow';

import { readRequiredText } from '../helpers/requiredText';
import { settleKey } from './processState';
import type { ClaimOutcome } from './processState';
import { skippedItem } from './results';
import type { ItemResults, SkipReason } from './results';
import type { SendOnceStore } from './sendOnceStore';

/** The item's send-once key, read per item like any other field. */
export function readSendOnceKey(context: IExecuteFunctions, itemIndex: number): string {
	return readRequiredText(context, itemIndex, {
		parameter: 'options.sendOnceKey',
		field: 'Send Once per Key',
		what: 'text',
		advice: 'give each item a key, for example {{ $json.orderId }}-shipped',
	});
}

/** Waits for another execution's outcome on a key, unless this execution is cancelled first. */
async function outcomeOf(earlier: Promise<ClaimOutcome>, cancel?: AbortSignal): Promise<ClaimOutcome | undefined> {
	if (!cancel) return await earlier;
	if (cancel.aborted) return undefined;
	let onAbort: () => void = () => {};
	const aborted = new Promise<undefined>((resolve) => {
		onAbort = () => resolve(undefined);
		cancel.addEventListener('abort', onAbort, { once: true });
	});
	const outcome = await Promise.race([earlier, aborted]);
	cancel.removeEventListener('abort', onAbort);
	return outcome;
}

export interface SendOnceQueueSetup {
	store: SendOnceStore;
	scopeKey: string;
	unknown: 'skip' | 'send';
	/** The items to send, in input order (duplicates within the run already taken out). */
	queue: number[];
	keys: string[];
	results: ItemResults;
	batchSize: number;
	held: { mine: Set<string>; others: Map<string, Promise<ClaimOutcome>> };
	cancel?: AbortSignal;
}

/**
 * Hands out items to send, claiming their keys in the store a batch at a time just ahead of
 * sending, so that n8n stopping leaves at most a batch and the requests in flight claimed but
 * unsent (a later run reports those as outcomeUnknown). Keys sent before are skipped.
 */
export class SendOnceQueue {
	private ready: number[] = [];

	private position = 0;

	private claiming?: Promise<void>;

	private acceptedKeys: string[] = [];

	private readonly claimedByMe = new Set<number>();

	private readonly attempted = new Set<number>();

	constructor(private readonly setup: SendOnceQueueSetup) {}

	async take(): Promise<number | undefined> {
		for (;;) {
			const next = this.ready.shift();
			if (next !== undefined) {
				this.attempted.add(next);
				return next;
			}
			if (this.position >= this.setup.queue.length || this.setup.cancel?.aborted) return undefined;
			this.claiming ??= this.claimBatch().finally(() => (this.claiming = undefined));
			await this.claiming;
		}
	}

	/** The item's send ended: the store and any execution waiting on its key learn how. */
	async settle(itemIndex: number, outcome: ClaimOutcome): Promise<void> {
		const key = this.setup.keys[itemIndex];
		if (outcome === 'accepted') this.acceptedKeys.push(key);
		if (outcome === 'notSent' && this.claimedByMe.has(itemIndex)) {
			this.claimedByMe.delete(itemIndex);
			await this.setup.store.release([key]);
		}
		this.settleMine(key, outcome);
	}

	/** Records what was accepted, releases what was claimed and never tried, and frees every key still held. */
	async finish(): Promise<void> {
		const { store, keys } = this.setup;
		await store.recordAccepted(this.acceptedKeys.splice(0));
		const untried = [...this.claimedByMe].filter((itemIndex) => !this.attempted.has(itemIndex));
		await store.release(untried.map((itemIndex) => keys[itemIndex]));
		for (const key of this.setup.held.mine) this.settleMine(key, 'notSent');
	}

	private settleMine(key: string, outcome: ClaimOutcome) {
		if (!this.setup.held.mine.delete(key)) return;
		settleKey(this.setup.scopeKey, key, outcome);
	}

	private skip(itemIndex: number, reason: SkipReason) {
		const key = this.setup.keys[itemIndex];
		this.setup.results[itemIndex] = skippedItem(itemIndex, reason, key);
		this.settleMine(key, reason === 'alreadySent' ? 'accepted' : 'unknown');
	}

	/** An earlier outcome: skip, or (unknown, with "Send It") send without a claim of its own. */
	private afterEarlier(itemIndex: number, accepted: boolean): void {
		if (accepted) this.skip(itemIndex, 'alreadySent');
		else if (this.setup.unknown === 'skip') this.skip(itemIndex, 'outcomeUnknown');
		else this.ready.push(itemIndex);
	}

	private async claimBatch(): Promise<void> {
		const { queue, keys, held, store, batchSize, cancel } = this.setup;
		const batch = queue.slice(this.position, this.position + batchSize);
		this.position += batch.length;
		const toClaim: number[] = [];
		for (const itemIndex of batch) {
			const earlier = held.others.get(keys[itemIndex]);
			const outcome = earlier ? await outcomeOf(earlier, cancel) : 'notSent';
			if (outcome === undefined) return;
			if (outcome === 'notSent') toClaim.push(itemIndex);
			else this.afterEarlier(itemIndex, outcome === 'accepted');
		}
		const claimedBefore = await store.claim(toClaim.map((i) => keys[i]), this.acceptedKeys.splice(0));
		const accepted = await store.acceptedAmong(toClaim.filter((i) => claimedBefore.has(keys[i])).map((i) => keys[i]));
		for (const itemIndex of toClaim) {
			if (!claimedBefore.has(keys[itemIndex])) {
				this.claimedByMe.add(itemIndex);
				this.ready.push(itemIndex);
			} else this.afterEarlier(itemIndex, accepted.has(keys[itemIndex]));
		}
		this.ready.sort((a, b) => a - b);
	}
}
