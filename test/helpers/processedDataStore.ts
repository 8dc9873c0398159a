/**
 * An in-memory n8n processed-data store (IDataDeduplicator) that behaves like n8n's database one
 * (packages/cli deduplication-helper, "entries" mode): one row per workflow and context, values
 * md5-hashed, maxEntries dropping the oldest, and every call reads the whole row, awaits (as a
 * database round trip does), searches it and writes it back, with no lock. Installed through
 * n8n-core's DataDeduplicationService, as n8n installs its own.
 */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

const hash = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

export class InMemoryProcessedDataStore implements IDataDeduplicator {
	/** Rows as the database holds them: serialized JSON. */
	readonly rows = new Map<string, string>();

	calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };

	/** Time spent inside the store's calls, in ms. */
	busyMs = 0;

	/**
	 * Makes the next checkProcessedAndRecord fail as Postgres does when another process inserted
	 * the row first (queue-mode workers writing a node's first history at once); nothing is recorded.
	 */
	insertRaceOnce = false;

	/**
	 * Another process's lost update: the row as it was after call `copiedAfter` (1 = the first call
	 * from now) is written back after call `writtenAfter`, as a queue-mode worker that read the row
	 * and wrote it back later, without a lock, would.
	 */
	staleWriteBack?: { copiedAfter: number; writtenAfter: number };

	private callsSinceArmed = 0;

	private staleCopy?: string;

	/** Arms `staleWriteBack` for the calls from now on. */
	writeBackStaleCopy(copiedAfter: number, writtenAfter: number) {
		this.staleWriteBack = { copiedAfter, writtenAfter };
		this.callsSinceArmed = 0;
	}

	private callEnded(key: string) {
		if (!this.staleWriteBack) return;
		this.callsSinceArmed += 1;
		if (this.callsSinceArmed === this.staleWriteBack.copiedAfter)
			this.staleCopy = this.rows.get(key);
		if (this.callsSinceArmed === this.staleWriteBack.writtenAfter && this.staleCopy !== undefined) {
			this.rows.set(key, this.staleCopy);
			this.staleWriteBack = undefined;
		}
	}

	private rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node?.id}` : ''}`;
	}

	private async read(key: string): Promise<string[]> {
		const text = this.rows.get(key);
		await new Promise((resolve) => setImmediate(resolve));
		return text ? (JSON.parse(text) as { data: string[] }).data : [];
	}

	private write(key: string, data: string[]) {
		this.rows.set(key, JSON.stringify({ mode: 'entries', data }));
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const started = performance.now();
		this.calls.checkProcessedAndRecord += 1;
		if (this.insertRaceOnce) {
			this.insertRaceOnce = false;
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		}
		const key = this.rowKey(scope, contextData);
		const data = await this.read(key);
		const seen = new Set(data);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		items.forEach((item) => {
			const hashed = hash(item);
			if (seen.has(hashed)) output.processed.push(item);
			else {
				output.new.push(item);
				data.push(hashed);
			}
		});
		if (options.maxEntries) data.splice(0, data.length - options.maxEntries);
		this.write(key, data);
		this.callEnded(key);
		this.busyMs += performance.now() - started;
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const started = performance.now();
		this.calls.removeProcessed += 1;
		const key = this.rowKey(scope, contextData);
		const data = await this.read(key);
		for (const item of items) {
			const index = data.indexOf(hash(item));
			if (index !== -1) data.splice(index, 1);
		}
		this.write(key, data);
		this.callEnded(key);
		this.busyMs += performance.now() - started;
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.rows.delete(this.rowKey(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return (await this.read(this.rowKey(scope, contextData))).length;
	}

	/** Fills a row with `count` unrelated entries, as a long history would. */
	seed(workflowId: string, nodeId: string | undefined, count: number) {
		this.prefill(
			workflowId,
			nodeId,
			Array.from({ length: count }, (_, i) => `history-${i}`),
		);
	}

	/** Writes `values` into a row as n8n records them (hashed, oldest first), in one write instead of a call each. */
	prefill(workflowId: string, nodeId: string | undefined, values: string[]) {
		this.write(`${workflowId}|${nodeId ? `n:${nodeId}` : ''}`, values.map(hash));
	}

	/** Whether the row of `workflowId` (and `nodeId`, for the node scope) holds `value`, as n8n's database would say. */
	holds(workflowId: string, nodeId: string | undefined, value: string): boolean {
		const text = this.rows.get(`${workflowId}|${nodeId ? `n:${nodeId}` : ''}`);
		return (
			text !== undefined && (JSON.parse(text) as { data: string[] }).data.includes(hash(value))
		);
	}

	reset() {
		this.staleWriteBack = undefined;
		this.staleCopy = undefined;
		this.rows.clear();
		this.calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };
		this.busyMs = 0;
	}
}

let installed: InMemoryProcessedDataStore | undefined;

/** The store n8n-core's helpers use in this test file (installed once: n8n allows one). */
export async function useProcessedDataStore(): Promise<InMemoryProcessedDataStore> {
	if (!installed) {
		installed = new InMemoryProcessedDataStore();
		await DataDeduplicationService.init(installed);
	}
	return installed;
}
