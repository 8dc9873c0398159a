import type { DeduplicationHelperFunctions, ICheckProcessedOptions, IDeduplicationOutput, INode } from 'n8n-workflow';

import { sendOnceStoreError } from '../errors';

import type { SendOnceOptions } from './options';
import { inStoreOrder } from './processState';

// Namespaced, so that a Remove Duplicates node sharing the workflow's store never meets these.
const CLAIMED = 'omnichannel-send-once:claimed:';
const ACCEPTED = 'omnichannel-send-once:accepted:';

const strip = (prefix: string, values: Array<string | number>) =>
	values.map(String).filter((value) => value.startsWith(prefix)).map((value) => value.slice(prefix.length));

/**
 * The send-once history in n8n's processed-data store (the Remove Duplicates node's store: the
 * processed_data table, shared by every queue-mode worker). The store records at check time and
 * has no lock, so a key is "claimed" just before its send, "accepted" once the service took it,
 * and released again when it was definitely not sent. A claim without "accepted" is an unknown outcome.
 */
export class SendOnceStore {
	/** Calls made to the store, for the closing figures of a run. */
	calls = 0;

	private readonly options: ICheckProcessedOptions;

	constructor(
		private readonly helpers: DeduplicationHelperFunctions,
		private readonly settings: SendOnceOptions,
		/** The store row these calls touch (workflow and scope), so that this process writes it one call at a time. */
		private readonly rowKey: string,
		private readonly node: INode,
	) {
		// Every key takes two entries: its claim and its acceptance.
		this.options = { mode: 'entries', maxEntries: settings.history * 2 };
	}

	private async record(values: string[]) {
		return await inStoreOrder(this.rowKey, async () => await this.recordNow(values));
	}

	private async remove(values: string[]) {
		await inStoreOrder(this.rowKey, async () => await this.removeNow(values));
	}

	/**
	 * The first write of a node's history inserts its row: two n8n processes (queue-mode workers)
	 * doing that at once make one insert fail on the row's key, having recorded nothing. The row
	 * exists then, so the call is made once more.
	 */
	private async recordNow(values: string[]): Promise<IDeduplicationOutput> {
		this.calls += 1;
		try {
			return await this.helpers.checkProcessedAndRecord(values, this.settings.scope, this.options);
		} catch (error) {
			if (!/duplicate key|unique constraint/i.test(error instanceof Error ? error.message : String(error))) {
				throw sendOnceStoreError(this.node, error);
			}
		}
		this.calls += 1;
		try {
			return await this.helpers.checkProcessedAndRecord(values, this.settings.scope, this.options);
		} catch (error) {
			throw sendOnceStoreError(this.node, error);
		}
	}

	private async removeNow(values: string[]) {
		if (values.length === 0) return;
		this.calls += 1;
		try {
			await this.helpers.removeProcessed(values, this.settings.scope, this.options);
		} catch (error) {
			throw sendOnceStoreError(this.node, error);
		}
	}

	/** Which of `keys` hold `prefix` in the store. The store can only check by recording, so what the probe adds is removed again. */
	private async probeNow(prefix: string, keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const result = await this.recordNow(keys.map((key) => prefix + key));
		await this.removeNow(result.new.map(String));
		return new Set(strip(prefix, result.processed));
	}

	/**
	 * Which keys the service accepted before and, with `claimsToo`, which were claimed without an
	 * acceptance (unknown), in one go for this process: no claim of another execution can fall in
	 * between. A real run looks at acceptances only: a worker that writes back a stale copy of the
	 * row may put a probe's entries back, and a stray acceptance misleads nobody, where a stray
	 * claim would make the key's first send look unknown. Its unknown keys show when it claims them.
	 */
	async sentBefore(keys: string[], claimsToo: boolean): Promise<{ accepted: Set<string>; unknown: Set<string> }> {
		return await inStoreOrder(this.rowKey, async () => {
			const accepted = await this.probeNow(ACCEPTED, keys);
			const unknown = claimsToo ? await this.probeNow(CLAIMED, keys.filter((key) => !accepted.has(key))) : new Set<string>();
			return { accepted, unknown };
		});
	}

	/** Claims `keys` and records the acceptance of `accepted` in one call; returns the keys claimed before. */
	async claim(keys: string[], accepted: string[]): Promise<Set<string>> {
		if (keys.length === 0 && accepted.length === 0) return new Set();
		const result = await this.record([...keys.map((key) => CLAIMED + key), ...accepted.map((key) => ACCEPTED + key)]);
		return new Set(strip(CLAIMED, result.processed));
	}

	/** Which of these claimed keys the service accepted. */
	async acceptedAmong(keys: string[]): Promise<Set<string>> {
		return await inStoreOrder(this.rowKey, async () => await this.probeNow(ACCEPTED, keys));
	}

	async recordAccepted(keys: string[]): Promise<void> {
		if (keys.length > 0) await this.record(keys.map((key) => ACCEPTED + key));
	}

	/** The message was definitely not sent: a later run may send it. */
	async release(keys: string[]): Promise<void> {
		await this.remove(keys.map((key) => CLAIMED + key));
	}
}
