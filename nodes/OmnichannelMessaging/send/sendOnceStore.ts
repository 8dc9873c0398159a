import type { DeduplicationHelperFunctions, ICheckProcessedOptions } from 'n8n-workflow';

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
	) {
		// Every key takes two entries: its claim and its acceptance.
		this.options = { mode: 'entries', maxEntries: settings.history * 2 };
	}

	private async record(values: string[]) {
		this.calls += 1;
		return await inStoreOrder(this.rowKey, async () => await this.helpers.checkProcessedAndRecord(values, this.settings.scope, this.options));
	}

	private async remove(values: string[]) {
		if (values.length === 0) return;
		this.calls += 1;
		await inStoreOrder(this.rowKey, async () => await this.helpers.removeProcessed(values, this.settings.scope, this.options));
	}

	/** Claims `keys` and records the acceptance of `accepted` in one call; returns the keys claimed before. */
	async claim(keys: string[], accepted: string[]): Promise<Set<string>> {
		if (keys.length === 0 && accepted.length === 0) return new Set();
		const result = await this.record([...keys.map((key) => CLAIMED + key), ...accepted.map((key) => ACCEPTED + key)]);
		return new Set(strip(CLAIMED, result.processed));
	}

	/** Which of these claimed keys the service accepted. The probe records, so what it added is removed again. */
	async acceptedAmong(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const result = await this.record(keys.map((key) => ACCEPTED + key));
		await this.remove(result.new.map(String));
		return new Set(strip(ACCEPTED, result.processed));
	}

	/** For a dry run: which keys are claimed already, leaving the store as it was. */
	async claimedAmong(keys: string[]): Promise<Set<string>> {
		if (keys.length === 0) return new Set();
		const result = await this.record(keys.map((key) => CLAIMED + key));
		await this.remove(result.new.map(String));
		return new Set(strip(CLAIMED, result.processed));
	}

	async recordAccepted(keys: string[]): Promise<void> {
		if (keys.length > 0) await this.record(keys.map((key) => ACCEPTED + key));
	}

	/** The message was definitely not sent: a later run may send it. */
	async release(keys: string[]): Promise<void> {
		await this.remove(keys.map((key) => CLAIMED + key));
	}
}
