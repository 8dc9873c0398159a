import { NodeOperationError } from 'n8n-workflow';
import type { DeduplicationHelperFunctions, ICheckProcessedOptions, INode } from 'n8n-workflow';

import { SEND_LIMITS, SEND_ONCE } from '../../constants';
import { sendOnceStoreError } from '../../helpers/errors';
import { REAL_CLOCK } from '../clock';
import { HistoryRow } from './historyRow';
import type { StoreAccess } from './historyRow';
import type { SendOnceOptions } from './options';

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
const historyRows = new Map<string, HistoryRow>();

function historyRowFor(rowKey: string): HistoryRow {
	let row = historyRows.get(rowKey);
	if (!row) {
		row = new HistoryRow(SEND_ONCE, REAL_CLOCK);
		historyRows.set(rowKey, row);
	}
	return row;
}

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
