import { NodeOperationError } from 'n8n-workflow';
import type { DeduplicationHelperFunctions, ICheckProcessedOptions, INode } from 'n8n-workflow';

import { SEND_LIMITS, SEND_ONCE } from '../../constants';
import { sendOnceStoreError } from '../../helpers/errors/run';
import { REAL_CLOCK, sharedPerKey } from '../clock';
import { CheckedItems } from '../sendQueue';
import { HistoryRow } from './historyRow';
import type { StoreAccess } from './historyRow';
import { skippedItem } from './options';
import type { SendOnceOptions, Claims, SkipReason } from './options';
import type { SendOutcome, ItemResults } from '../../helpers/errors/facts';

// Namespaced, so that a Remove Duplicates node sharing the workflow's store never meets these.
const CLAIMED = 'omnichannel-send-once:claimed:';
const ACCEPTED = 'omnichannel-send-once:accepted:';

export const ENTRIES_PER_KEY = 2;

/**
 * n8n trims the oldest entries, not keys, and acceptances land after newer claims while sends are
 * in flight: this margin (two claim batches at the most concurrency) keeps the newest keys whole.
 */
const TRIM_MARGIN = ENTRIES_PER_KEY * 2 * 2 * SEND_LIMITS.maxConcurrency;

/** n8n's store keeps an MD5 hash of each entry. */
export function sendOnceHistoryEntries(keys: string[]): string[] {
	return keys.flatMap((key) => [CLAIMED + key, ACCEPTED + key]);
}

const withPrefix = (prefix: string, keys: Iterable<string>) => [...keys].map((key) => prefix + key);

const keysOf = (prefix: string, values: Iterable<string>) =>
	[...values]
		.filter((value) => value.startsWith(prefix))
		.map((value) => value.slice(prefix.length));

/** One group commit per history row (workflow and scope) for every execution of this process. */
const historyRowFor = sharedPerKey(REAL_CLOCK, (clock) => new HistoryRow(SEND_ONCE, clock));

/** A claim without an acceptance is an unknown outcome (docs/send-once.md). */
export class SendOnceStore {
	private readonly row: HistoryRow;

	private readonly access: StoreAccess;

	private readonly options: ICheckProcessedOptions;

	constructor(
		private readonly helpers: DeduplicationHelperFunctions,
		private readonly settings: SendOnceOptions,
		rowKey: string,
		private readonly node: INode,
	) {
		this.options = {
			mode: 'entries',
			maxEntries: settings.history * ENTRIES_PER_KEY + TRIM_MARGIN,
		};
		this.row = historyRowFor(rowKey);
		this.access = {
			signature: `${settings.scope} ${this.options.maxEntries}`,
			record: async (values) => await this.recordNow(values),
			remove: async (values) => await this.removeNow(values),
		};
	}

	/** Other executions' calls wait a moment to carry this one's writes too. */
	join(): void {
		this.row.join();
	}

	leave(): void {
		this.row.leave();
	}

	/**
	 * Two workers inserting a node's first history row at once make one insert fail on the key with
	 * nothing recorded; the row exists then, so the call is made once more.
	 */
	private async recordNow(values: string[]): Promise<Set<string>> {
		const call = async () =>
			await this.helpers.checkProcessedAndRecord(values, this.settings.scope, this.options);
		const first = await call().catch((error: unknown) => {
			if (
				!/duplicate key|unique constraint/i.test(
					error instanceof Error ? error.message : String(error),
				)
			) {
				throw sendOnceStoreError(this.node, error);
			}
			return undefined;
		});
		if (first) return new Set(first.processed.map(String));
		return new Set((await call()).processed.map(String));
	}

	private async removeNow(values: string[]) {
		await this.helpers.removeProcessed(values, this.settings.scope, this.options);
	}

	private async guarded<T>(call: Promise<T>): Promise<T> {
		try {
			return await call;
		} catch (error) {
			throw error instanceof NodeOperationError ? error : sendOnceStoreError(this.node, error);
		}
	}

	/**
	 * The store can only check by recording, so the probe's additions are removed again, except
	 * entries this process wrote that another process's write had lost: the probe just put those back.
	 */
	private async probeNow(prefix: string, keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const values = withPrefix(prefix, keys);
		const written = this.row.written(values);
		const there = await this.recordNow(values);
		const added = values.filter((value) => !there.has(value));
		const putBack = added.filter((value) => written.has(value));
		this.row.putBack(putBack);
		const probes = added.filter((value) => !written.has(value));
		if (probes.length > 0) await this.removeNow(probes);
		return new Set(keysOf(prefix, [...there, ...putBack]));
	}

	/**
	 * A real run probes acceptances only: a worker writing back a stale row may restore probe entries,
	 * and a stray acceptance only hides this run's own send, where a stray claim would make a first
	 * send look unknown. Claiming finds the unknown keys.
	 */
	async sentBefore(
		keys: string[],
		claimsToo: boolean,
	): Promise<{ accepted: Set<string>; unknown: Set<string> }> {
		const lookUp = async () => {
			const accepted = await this.probeNow(ACCEPTED, keys);
			const unknown = claimsToo
				? await this.probeNow(
						CLAIMED,
						keys.filter((key) => !accepted.has(key)),
					)
				: new Set<string>();
			return { accepted, unknown };
		};
		return await this.guarded(this.row.alone(lookUp));
	}

	/** Gives back the keys claimed before (by any execution, or lost and put back). */
	async claim(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		return new Set(
			keysOf(CLAIMED, await this.guarded(this.row.record(this.access, withPrefix(CLAIMED, keys)))),
		);
	}

	async acceptedAmong(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		return await this.guarded(this.row.alone(async () => await this.probeNow(ACCEPTED, keys)));
	}

	/** Writes the claims again too: one another worker's write lost is put back. */
	async recordAccepted(keys: string[]): Promise<void> {
		if (keys.length === 0) return;
		const there = await this.guarded(
			this.row.record(this.access, sendOnceHistoryEntries(keys), true),
		);
		const lostClaims = withPrefix(CLAIMED, keys).filter((value) => !there.has(value));
		this.row.sawLost(lostClaims.length);
	}

	/** The message was definitely not sent: a later run may send it. */
	async release(keys: string[]): Promise<void> {
		await this.guarded(this.row.remove(this.access, withPrefix(CLAIMED, keys)));
	}
}

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

	private queue = new CheckedItems();

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

	start(checked: CheckedItems): void {
		this.queue = checked;
	}

	async take(): Promise<number | undefined> {
		for (;;) {
			const next = this.ready.shift();
			if (next !== undefined) {
				this.attempted.add(this.setup.keys[next] as string);
				return next;
			}
			if (this.setup.cancel?.aborted) return undefined;
			if (this.position >= this.queue.items.length) {
				if (this.queue.closed) return undefined;
				await this.queue.more();
				continue;
			}
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
		const batch = this.queue.items.slice(this.position, this.position + batchSize);
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
