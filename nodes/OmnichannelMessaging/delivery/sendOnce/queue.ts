import type { SendOutcome } from '../../helpers/outcome';
import type { ItemResults } from '../../helpers/results';
import type { Claims } from './claims';
import { skippedItem } from './skipped';
import type { SkipReason } from './skipped';
import type { SendOnceStore } from './store';

async function outcomeOf(
	earlier: Promise<SendOutcome>,
	cancel?: AbortSignal,
): Promise<SendOutcome | undefined> {
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

export type KeyDecision = 'send' | SkipReason;

export interface SendOnceQueueSetup {
	store: SendOnceStore;
	/** The keys other executions of this process are sending. */
	claims: Claims;
	scopeKey: string;
	unknown: 'skip' | 'send';
	/** Undefined where it could not be read. */
	keys: Array<string | undefined>;
	results: ItemResults;
	batchSize: number;
	cancel?: AbortSignal;
}

/**
 * Keys are held in this process (another execution with the same key waits for its outcome) and
 * claimed a batch at a time just ahead of sending, so a stop leaves at most a batch plus the requests
 * in flight claimed but unsent (a later run reports those as outcomeUnknown).
 */
export class SendOnceQueue {
	private ready: number[] = [];

	private queue: number[] = [];

	private position = 0;

	private claiming?: Promise<void>;

	private acceptedKeys: string[] = [];

	private readonly claimedByMe = new Set<string>();

	private readonly attempted = new Set<string>();

	private readonly decided = new Map<string, KeyDecision>();

	private readonly held: { mine: Set<string>; others: Map<string, Promise<SendOutcome>> };

	private finished?: Promise<void>;

	constructor(private readonly setup: SendOnceQueueSetup) {
		const distinct = [...new Set(setup.keys.filter((key): key is string => key !== undefined))];
		this.held = setup.claims.claimKeys(setup.scopeKey, distinct);
		setup.store.join();
	}

	/** A small run claims every key before preparing: the claim is its look-up too. */
	async claimAhead(keys: string[]): Promise<Map<string, KeyDecision>> {
		const decisions = await this.claim(keys);
		for (const [key, decision] of decisions) this.decided.set(key, decision);
		return decisions;
	}

	/** Keys a look-up found sent before are held no longer. */
	sentBefore(keys: Iterable<string>): void {
		for (const key of keys) this.settleMine(key, 'sent');
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

	async settle(itemIndex: number, outcome: SendOutcome): Promise<void> {
		const key = this.setup.keys[itemIndex] as string;
		if (outcome === 'sent') this.acceptedKeys.push(key);
		if (outcome === 'notSent' && this.claimedByMe.delete(key))
			await this.setup.store.release([key]);
		this.settleMine(key, outcome);
	}

	/** Records the accepted keys, releases those claimed and never tried, frees the rest; runs once. */
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

	private settleMine(key: string, outcome: SendOutcome) {
		if (!this.held.mine.delete(key)) return;
		this.setup.claims.settleKey(this.setup.scopeKey, key, outcome);
	}

	/** What a key claimed before becomes; an unknown outcome with "Send It" is sent without a claim of its own. */
	private afterEarlier(key: string, accepted: boolean): KeyDecision {
		if (accepted) {
			this.settleMine(key, 'sent');
			return 'alreadySent';
		}
		if (this.setup.unknown === 'send') return 'send';
		this.settleMine(key, 'unknown');
		return 'outcomeUnknown';
	}

	/** Waits until no other execution of this process holds one of `keys`; writes pending acceptances with the claim. */
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
			else decisions.set(key, this.afterEarlier(key, outcome === 'sent'));
		}
		const [claimedBefore] = await Promise.all([
			store.claim(toClaim),
			store.recordAccepted(this.acceptedKeys.splice(0)),
		]);
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
		const toClaim = batch
			.map((itemIndex) => keys[itemIndex] as string)
			.filter((key) => !this.decided.has(key));
		const decisions =
			toClaim.length > 0 ? await this.claim(toClaim) : new Map<string, KeyDecision>();
		for (const itemIndex of batch) {
			const key = keys[itemIndex] as string;
			const decision = this.decided.get(key) ?? decisions.get(key);
			if (decision === 'send') this.ready.push(itemIndex);
			else if (decision !== undefined) results[itemIndex] = skippedItem(itemIndex, decision, key);
		}
		this.ready.sort((a, b) => a - b);
	}
}
