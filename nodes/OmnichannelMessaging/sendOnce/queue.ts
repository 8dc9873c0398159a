import type { ItemResults } from '../output/results';
import { claimKeys, settleKey } from './claims';
import type { ClaimOutcome } from './claims';
import { skippedItem } from './skipped';
import type { SkipReason } from './skipped';
import type { SendOnceStore } from './store';

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

/** What a claim found for a key: send it, or skip it and say why. */
export type KeyDecision = 'send' | SkipReason;

export interface SendOnceQueueSetup {
	store: SendOnceStore;
	scopeKey: string;
	unknown: 'skip' | 'send';
	/** Every item's key (undefined where it could not be read). */
	keys: Array<string | undefined>;
	results: ItemResults;
	batchSize: number;
	cancel?: AbortSignal;
}

/**
 * One execution's send-once keys. It holds them in this process (another execution with the same
 * key waits for its outcome), claims them in the store a batch at a time just ahead of sending,
 * so that n8n stopping leaves at most a batch and the requests in flight claimed but unsent (a
 * later run reports those as outcomeUnknown), and records what the service accepted.
 */
export class SendOnceQueue {
	private ready: number[] = [];

	private queue: number[] = [];

	private position = 0;

	private claiming?: Promise<void>;

	private acceptedKeys: string[] = [];

	private readonly claimedByMe = new Set<string>();

	private readonly attempted = new Set<string>();

	/** Keys claimed before preparing (a small run), and what the claim found. */
	private readonly decided = new Map<string, KeyDecision>();

	private readonly held: { mine: Set<string>; others: Map<string, Promise<ClaimOutcome>> };

	private finished?: Promise<void>;

	constructor(private readonly setup: SendOnceQueueSetup) {
		const distinct = [...new Set(setup.keys.filter((key): key is string => key !== undefined))];
		this.held = claimKeys(setup.scopeKey, distinct);
		setup.store.join();
	}

	/** A small run claims every key before preparing: the claim is its look-up too. */
	async claimAhead(keys: string[]): Promise<Map<string, KeyDecision>> {
		const decisions = await this.claim(keys);
		for (const [key, decision] of decisions) this.decided.set(key, decision);
		return decisions;
	}

	/** Keys found sent before by a look-up: this execution holds them no longer. */
	sentBefore(keys: Iterable<string>): void {
		for (const key of keys) this.settleMine(key, 'accepted');
	}

	start(queue: number[]): void {
		this.queue = queue;
	}

	async take(): Promise<number | undefined> {
		for (;;) {
			const next = this.ready.shift();
			if (next !== undefined) {
				this.attempted.add(this.setup.keys[next] as string);
				return next;
			}
			if (this.position >= this.queue.length || this.setup.cancel?.aborted) return undefined;
			this.claiming ??= this.claimBatch().finally(() => (this.claiming = undefined));
			await this.claiming;
		}
	}

	/** The item's send ended: the store and any execution waiting on its key learn how. */
	async settle(itemIndex: number, outcome: ClaimOutcome): Promise<void> {
		const key = this.setup.keys[itemIndex] as string;
		if (outcome === 'accepted') this.acceptedKeys.push(key);
		if (outcome === 'notSent' && this.claimedByMe.delete(key)) await this.setup.store.release([key]);
		this.settleMine(key, outcome);
	}

	/** Records what was accepted, releases what was claimed and never tried, and frees every key still held. Once. */
	async finish(): Promise<void> {
		this.finished ??= this.finishOnce();
		await this.finished;
	}

	private async finishOnce() {
		const { store } = this.setup;
		try {
			await store.recordAccepted(this.acceptedKeys.splice(0));
			await store.release([...this.claimedByMe].filter((key) => !this.attempted.has(key)));
		} finally {
			for (const key of this.held.mine) this.settleMine(key, 'notSent');
			store.leave();
		}
	}

	private settleMine(key: string, outcome: ClaimOutcome) {
		if (!this.held.mine.delete(key)) return;
		settleKey(this.setup.scopeKey, key, outcome);
	}

	/** An earlier outcome: skip, or (unknown, with "Send It") send without a claim of its own. */
	private afterEarlier(key: string, accepted: boolean): KeyDecision {
		if (accepted) {
			this.settleMine(key, 'accepted');
			return 'alreadySent';
		}
		if (this.setup.unknown === 'send') return 'send';
		this.settleMine(key, 'unknown');
		return 'outcomeUnknown';
	}

	/** Claims `keys` in the store (with the acceptances not yet written), after any other execution of this process holding one has ended. */
	private async claim(keys: string[]): Promise<Map<string, KeyDecision>> {
		const { store, cancel } = this.setup;
		const held = this.held;
		const decisions = new Map<string, KeyDecision>();
		const toClaim: string[] = [];
		for (const key of keys) {
			const earlier = held.others.get(key);
			const outcome = earlier ? await outcomeOf(earlier, cancel) : 'notSent';
			if (outcome === undefined) return decisions;
			if (outcome === 'notSent') toClaim.push(key);
			else decisions.set(key, this.afterEarlier(key, outcome === 'accepted'));
		}
		const [claimedBefore] = await Promise.all([store.claim(toClaim), store.recordAccepted(this.acceptedKeys.splice(0))]);
		const accepted = await store.acceptedAmong(toClaim.filter((key) => claimedBefore.has(key)));
		for (const key of toClaim) {
			if (claimedBefore.has(key)) decisions.set(key, this.afterEarlier(key, accepted.has(key)));
			else {
				this.claimedByMe.add(key);
				decisions.set(key, 'send');
			}
		}
		return decisions;
	}

	private async claimBatch(): Promise<void> {
		const { keys, results, batchSize } = this.setup;
		const batch = this.queue.slice(this.position, this.position + batchSize);
		this.position += batch.length;
		const toClaim = batch.map((itemIndex) => keys[itemIndex] as string).filter((key) => !this.decided.has(key));
		const decisions = toClaim.length > 0 ? await this.claim(toClaim) : new Map<string, KeyDecision>();
		for (const itemIndex of batch) {
			const key = keys[itemIndex] as string;
			const decision = this.decided.get(key) ?? decisions.get(key);
			if (decision === 'send') this.ready.push(itemIndex);
			else if (decision !== undefined) results[itemIndex] = skippedItem(itemIndex, decision, key);
		}
		this.ready.sort((a, b) => a - b);
	}
}
