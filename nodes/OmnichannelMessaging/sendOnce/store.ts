import { NodeOperationError } from 'n8n-workflow';
import type { DeduplicationHelperFunctions, ICheckProcessedOptions, INode } from 'n8n-workflow';

import { SEND_LIMITS } from '../constants';
import { sendOnceStoreError } from '../errors';
import { HistoryRow } from './historyRow';
import type { StoreAccess } from './historyRow';
import type { SendOnceOptions } from './options';

// Namespaced, so that a Remove Duplicates node sharing the workflow's store never meets these.
const CLAIMED = 'omnichannel-send-once:claimed:';
const ACCEPTED = 'omnichannel-send-once:accepted:';

/** Entries a key takes in the history at most: its claim and its acceptance. */
export const ENTRIES_PER_KEY = 2;

/**
 * n8n forgets the oldest entries, not the oldest keys: a key's claim is older than its acceptance,
 * and acceptances of keys claimed earlier come after newer claims while sends are in flight. This
 * many entries more than 2 per key keep the newest keys whole (two claim batches at the most concurrency).
 */
const TRIM_MARGIN = ENTRIES_PER_KEY * 2 * 2 * SEND_LIMITS.maxConcurrency;

/** The entries the node records for keys the service accepted (n8n's store keeps an MD5 hash of each). */
export function sendOnceHistoryEntries(keys: string[]): string[] {
	return keys.flatMap((key) => [CLAIMED + key, ACCEPTED + key]);
}

const withPrefix = (prefix: string, keys: Iterable<string>) => [...keys].map((key) => prefix + key);

const keysOf = (prefix: string, values: Iterable<string>) =>
	[...values].filter((value) => value.startsWith(prefix)).map((value) => value.slice(prefix.length));

/** The group commit of each history row this process writes, by workflow and scope: every execution writing a row goes through it. */
const historyRows = new Map<string, HistoryRow>();

function historyRowFor(rowKey: string): HistoryRow {
	let row = historyRows.get(rowKey);
	if (!row) {
		row = new HistoryRow();
		historyRows.set(rowKey, row);
	}
	return row;
}

/** Store calls made and history entries put back after another process's write lost them (tests, bench). */
export function sendOnceStoreFigures(): { calls: number; repaired: number } {
	const rows = [...historyRows.values()];
	return { calls: rows.reduce((sum, row) => sum + row.calls, 0), repaired: rows.reduce((sum, row) => sum + row.repaired, 0) };
}

/** A restart's clean slate (testing.ts): no row, no idle-time check left waiting. */
export function forgetHistoryRows(): void {
	for (const row of historyRows.values()) row.forget();
	historyRows.clear();
}

/**
 * The send-once history in n8n's processed-data store: a key is "claimed" just before its send,
 * "accepted" once the service took it, released when it was definitely not sent; a claim without
 * "accepted" is an unknown outcome. Calls go through the row's group commit (historyRow.ts).
 */
export class SendOnceStore {
	private readonly row: HistoryRow;

	private readonly access: StoreAccess;

	private readonly options: ICheckProcessedOptions;

	constructor(
		private readonly helpers: DeduplicationHelperFunctions,
		private readonly settings: SendOnceOptions,
		/** The store row these calls touch (workflow and scope). */
		rowKey: string,
		private readonly node: INode,
	) {
		this.options = { mode: 'entries', maxEntries: settings.history * ENTRIES_PER_KEY + TRIM_MARGIN };
		this.row = historyRowFor(rowKey);
		this.access = {
			signature: `${settings.scope} ${this.options.maxEntries}`,
			record: async (values) => await this.recordNow(values),
			remove: async (values) => await this.removeNow(values),
		};
	}

	/** While this execution uses the row, other executions' calls wait a moment to carry its writes too. */
	join(): void {
		this.row.join();
	}

	leave(): void {
		this.row.leave();
	}

	/**
	 * The first write of a node's history inserts its row: two n8n processes (queue-mode workers)
	 * doing that at once make one insert fail on the row's key, having recorded nothing. The row
	 * exists then, so the call is made once more.
	 */
	private async recordNow(values: string[]): Promise<Set<string>> {
		const call = async () => await this.helpers.checkProcessedAndRecord(values, this.settings.scope, this.options);
		const first = await call().catch((error: unknown) => {
			if (!/duplicate key|unique constraint/i.test(error instanceof Error ? error.message : String(error))) {
				throw sendOnceStoreError(this.node, error);
			}
			return undefined;
		});
		if (first) return new Set(first.processed.map(String));
		this.row.calls += 1;
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
	 * Which of `keys` hold `prefix`. The store can only check by recording, so what the probe adds
	 * is removed again, except entries this process wrote that another process's write had lost:
	 * the probe has just put those back.
	 */
	private async probeNow(prefix: string, keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const values = withPrefix(prefix, keys);
		const written = this.row.written(values);
		this.row.calls += 1;
		const there = await this.recordNow(values);
		const added = values.filter((value) => !there.has(value));
		const putBack = added.filter((value) => written.has(value));
		this.row.putBack(putBack);
		const probes = added.filter((value) => !written.has(value));
		if (probes.length > 0) {
			this.row.calls += 1;
			await this.removeNow(probes);
		}
		return new Set(keysOf(prefix, [...there, ...putBack]));
	}

	/**
	 * Which keys the service accepted before and, with `claimsToo`, which were claimed without an
	 * acceptance (unknown), in one go for this process. A real run looks at acceptances only: a
	 * worker that writes back a stale copy of the row may put a probe's entries back, and a stray
	 * acceptance probe only makes this run's own send look accepted, where a stray claim would make
	 * the key's first send look unknown. A real run finds unknown keys when it claims them.
	 */
	async sentBefore(keys: string[], claimsToo: boolean): Promise<{ accepted: Set<string>; unknown: Set<string> }> {
		const lookUp = async () => {
			const accepted = await this.probeNow(ACCEPTED, keys);
			const unknown = claimsToo ? await this.probeNow(CLAIMED, keys.filter((key) => !accepted.has(key))) : new Set<string>();
			return { accepted, unknown };
		};
		return await this.guarded(this.row.alone(lookUp));
	}

	/** Claims `keys`; gives back the keys claimed before (by any execution, or lost and put back). */
	async claim(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		return new Set(keysOf(CLAIMED, await this.guarded(this.row.record(this.access, withPrefix(CLAIMED, keys)))));
	}

	/** Which of these claimed keys the service accepted. */
	async acceptedAmong(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		return await this.guarded(this.row.alone(async () => await this.probeNow(ACCEPTED, keys)));
	}

	/**
	 * Records the acceptance of `keys`, with their claims again: a claim another worker's write
	 * lost is put back (and counted), and later calls check both entries once more.
	 */
	async recordAccepted(keys: string[]): Promise<void> {
		if (keys.length === 0) return;
		const there = await this.guarded(this.row.record(this.access, sendOnceHistoryEntries(keys), true));
		const lostClaims = withPrefix(CLAIMED, keys).filter((value) => !there.has(value));
		this.row.repaired += lostClaims.length;
	}

	/** The message was definitely not sent: a later run may send it. */
	async release(keys: string[]): Promise<void> {
		await this.guarded(this.row.remove(this.access, withPrefix(CLAIMED, keys)));
	}
}
