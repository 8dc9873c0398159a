import type { SEND_ONCE } from '../../constants';
import type { Clock } from '../clock';

/** The history row's timings (constants.ts, SEND_ONCE). */
export type HistoryRowTimings = {
	readonly [K in Exclude<keyof typeof SEND_ONCE, 'defaultHistory'>]: number;
};

export interface StoreAccess {
	/** Calls of the same signature (scope and history size) may carry each other's values. */
	signature: string;
	record(values: string[]): Promise<Set<string>>;
	remove(values: string[]): Promise<void>;
}

interface Deferred<T> {
	resolve(value: T): void;
	reject(reason: unknown): void;
}

interface Write extends Deferred<Set<string>> {
	kind: 'record' | 'remove';
	access: StoreAccess;
	values: string[];
	/** Checked again in later calls (acceptances). */
	verify: boolean;
}

interface Alone extends Deferred<unknown> {
	kind: 'alone';
	run(): Promise<unknown>;
}

/** A call waiting for its turn on the row. */
type RowCall = Write | Alone;

/**
 * One call at a time (n8n rewrites the row without a lock); writes repeat until a late enough call
 * finds them, since another worker's stale write-back loses entries (docs/send-once.md).
 */
export class HistoryRow {
	private readonly pending: RowCall[] = [];

	private busy = false;

	/** Executions using this row now: with more than one, a call waits a moment for the others' writes. */
	private members = 0;

	/** Values this process wrote, by when their latest write ended, until a later call finds them. */
	private readonly unverified = new Map<string, number>();

	private longestCallMs = 0;

	private lastAccess?: StoreAccess;

	private verifyWait?: AbortController;

	private idleChecks = 0;

	/** Whether a call found an entry this process wrote missing: another worker's write lost it. */
	private lostWriteSeen = false;

	constructor(
		private readonly timings: HistoryRowTimings,
		private readonly clock: Clock,
	) {}

	join(): void {
		this.members += 1;
	}

	leave(): void {
		this.members = Math.max(0, this.members - 1);
	}

	/** Records `values`, sharing a call with other writes; gives back the ones that were there already. */
	async record(access: StoreAccess, values: string[], verify = false): Promise<Set<string>> {
		return await new Promise((resolve, reject) =>
			this.enqueue({ kind: 'record', access, values, verify, resolve, reject }),
		);
	}

	async remove(access: StoreAccess, values: string[]): Promise<void> {
		if (values.length === 0) return;
		await new Promise((resolve, reject) =>
			this.enqueue({ kind: 'remove', access, values, verify: false, resolve, reject }),
		);
	}

	/** No other call of this process between a look-up's record and its remove. */
	async alone<T>(run: () => Promise<T>): Promise<T> {
		return (await new Promise((resolve, reject) =>
			this.enqueue({ kind: 'alone', run, resolve, reject }),
		)) as T;
	}

	/** Not yet confirmed, but this process knows they are recorded. */
	written(values: string[]): Set<string> {
		return new Set(values.filter((value) => this.unverified.has(value)));
	}

	/** Entries another worker's write lost, which this process has just written again. */
	putBack(values: string[]): void {
		const now = this.clock.now();
		for (const value of values) this.unverified.set(value, now);
		this.sawLost(values.length);
	}

	/** `count` entries this process wrote were found missing: quiet times check sooner from now on. */
	sawLost(count: number): void {
		if (count > 0) this.lostWriteSeen = true;
	}

	private enqueue(operation: RowCall) {
		this.pending.push(operation);
		// An empty record is the idle-time check; anything else is an execution's call.
		if (operation.kind !== 'record' || operation.values.length > 0) this.idleChecks = 0;
		this.verifyWait?.abort();
		this.verifyWait = undefined;
		if (this.busy) return;
		this.busy = true;
		const drain = () => void this.drain();
		if (this.members > 1) void this.clock.wait(this.timings.groupCommitWaitMs).then(drain);
		else queueMicrotask(drain);
	}

	private async drain() {
		try {
			while (this.pending.length > 0) await this.callOnce();
		} finally {
			this.busy = false;
			this.verifyWhenIdle();
		}
	}

	private async callOnce() {
		const head = this.pending[0];
		if (head.kind === 'alone') {
			this.pending.shift();
			await head.run().then(head.resolve, head.reject);
			return;
		}
		const batch = this.takeBatch(head);
		const started = this.clock.now();
		try {
			if (head.kind === 'record') await this.recordBatch(head.access, batch, started);
			else await this.removeBatch(head.access, batch);
		} catch (error) {
			for (const write of batch) write.reject(error);
		}
	}

	/** Writes of the head's kind and signature that may share its call without reordering a value's writes. */
	private takeBatch(head: Write): Write[] {
		const batch: Write[] = [];
		const touched = new Set<string>();
		let index = 0;
		while (index < this.pending.length) {
			const operation = this.pending[index];
			if (operation.kind === 'alone') break;
			const overlaps = operation.values.some((value) => touched.has(value));
			for (const value of operation.values) touched.add(value);
			if (operation.kind !== head.kind) {
				index += 1;
				continue;
			}
			if (overlaps || operation.access.signature !== head.access.signature) break;
			batch.push(operation);
			this.pending.splice(index, 1);
		}
		return batch;
	}

	private async recordBatch(access: StoreAccess, batch: Write[], started: number) {
		const values = new Set(batch.flatMap((write) => write.values));
		const known = this.written([...values]);
		const rechecked = [...this.unverified.keys()].filter((value) => !values.has(value));
		this.lastAccess = access;
		const there = await access.record([...values, ...rechecked]);
		const ended = this.clock.now();
		this.longestCallMs = Math.max(this.longestCallMs, ended - started);
		this.checkAgain([...known, ...rechecked], there, started, ended);
		for (const write of batch) {
			write.resolve(new Set(write.values.filter((value) => there.has(value) || known.has(value))));
			if (write.verify) for (const value of write.values) this.unverified.set(value, ended);
		}
	}

	private async removeBatch(access: StoreAccess, batch: Write[]) {
		const values = [...new Set(batch.flatMap((write) => write.values))];
		await access.remove(values);
		for (const value of values) this.unverified.delete(value);
		for (const write of batch) write.resolve(new Set());
	}

	private checkAgain(values: string[], there: Set<string>, started: number, ended: number) {
		const settledAfter = this.settleMs();
		for (const value of values) {
			if (!there.has(value)) {
				this.lostWriteSeen = true;
				this.unverified.set(value, ended);
			} else if (started >= (this.unverified.get(value) ?? 0) + settledAfter)
				this.unverified.delete(value);
		}
	}

	private settleMs(): number {
		return Math.max(
			this.timings.settleAfterMs,
			this.timings.settleCallMultiple * this.longestCallMs,
		);
	}

	/**
	 * The one work that outlives its execution, on evidence: without a late enough check, entries
	 * another worker's write lost stay lost (a queue-mode redelivery in CI once sent 100 messages
	 * twice; docs/send-once.md, "Queue mode"). Any write aborts the wait.
	 */
	private verifyWhenIdle() {
		const access = this.lastAccess;
		if (this.unverified.size === 0 || !access || this.verifyWait) return;
		const wait = new AbortController();
		this.verifyWait = wait;
		const verify = () => {
			if (wait.signal.aborted) return;
			this.verifyWait = undefined;
			this.idleChecks += 1;
			// Nobody waits for this call: a failure leaves the values unverified for the next one.
			if (this.unverified.size > 0) this.record(access, []).catch(() => {});
		};
		this.clock.wait(this.idleCheckDelayMs(), wait.signal).then(verify, () => {});
	}

	private idleCheckDelayMs(): number {
		let newest = 0;
		for (const writtenAt of this.unverified.values()) newest = Math.max(newest, writtenAt);
		const untilAllSettle = Math.max(
			this.timings.verifyAfterMs,
			newest + this.settleMs() + 1 - this.clock.now(),
		);
		if (!this.lostWriteSeen) return untilAllSettle;
		return Math.min(untilAllSettle, this.timings.verifyAfterMs * 2 ** this.idleChecks);
	}
}
