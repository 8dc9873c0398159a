import { HistoryRow } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/historyRow';
import type { StoreAccess } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/historyRow';
import { VirtualClock } from '../../../helpers/virtualClock';

const TIMINGS = {
	groupCommitWaitMs: 10,
	settleAfterMs: 1_000,
	settleCallMultiple: 5,
	verifyAfterMs: 100,
};

/** n8n's store row as one worker sees it: each call takes `callMs` and is logged with its start time and values. */
function storeRow(clock: VirtualClock, callMs = 0) {
	const row = new Set<string>();
	const calls: Array<{ at: number; kind: 'record' | 'remove'; values: string[] }> = [];
	const access: StoreAccess = {
		signature: 'node 20000',
		record: async (values) => {
			calls.push({ at: clock.now(), kind: 'record', values });
			if (callMs > 0) await clock.wait(callMs);
			const there = new Set(values.filter((value) => row.has(value)));
			for (const value of values) row.add(value);
			return there;
		},
		remove: async (values) => {
			calls.push({ at: clock.now(), kind: 'remove', values });
			for (const value of values) row.delete(value);
		},
	};
	return { row, calls, access };
}

describe('HistoryRow', () => {
	let clock: VirtualClock;
	let history: HistoryRow;
	beforeEach(() => {
		clock = new VirtualClock();
		history = new HistoryRow(TIMINGS, clock);
	});

	test('gives back the values recorded before, and removes', async () => {
		const { access, row } = storeRow(clock);
		expect([...(await history.record(access, ['a', 'b']))]).toEqual([]);
		expect([...(await history.record(access, ['b', 'c']))]).toEqual(['b']);
		await history.remove(access, ['a']);
		expect([...row]).toEqual(['b', 'c']);
	});

	test('one call at a time: writes that wait for a call in flight share the next one', async () => {
		const { access, calls } = storeRow(clock, 50);
		const first = history.record(access, ['a']);
		await clock.advance(1);
		const waiting = [
			history.record(access, ['b']),
			history.record(access, ['c']),
			history.record(access, ['b']),
		];
		await clock.advance(200);
		await Promise.all([first, ...waiting]);
		// 'b' again may not share the call that writes 'b' before it: a value's writes keep their order.
		expect(calls.map((call) => call.values)).toEqual([['a'], ['b', 'c'], ['b']]);
	});

	test("with more than one execution on the row, a call waits groupCommitWaitMs for the others' writes", async () => {
		const { access, calls } = storeRow(clock);
		history.join();
		history.join();
		const writes = [history.record(access, ['a']), history.record(access, ['b'])];
		await clock.advance(9);
		expect(calls).toEqual([]);
		await clock.advance(1);
		await Promise.all(writes);
		expect(calls.map((call) => call.values)).toEqual([['a', 'b']]);
	});

	test('with no lost write seen, a quiet row makes one check of its own once its entries settle', async () => {
		const { access, calls } = storeRow(clock);
		const start = clock.now();
		await history.record(access, ['a'], true);
		await clock.advance(1_000);
		expect(calls).toHaveLength(1);
		await clock.advance(1);
		expect(calls.map((call) => [call.at - start, call.values])).toEqual([
			[0, ['a']],
			[1_001, ['a']],
		]);
		await clock.advance(60_000);
		expect(calls).toHaveLength(2);
		expect(clock.pending).toBe(0);
	});

	test(
		'an entry another worker lost is written again; then the quiet row checks sooner, ' +
			'doubling, until all settle',
		async () => {
			const { access, calls, row } = storeRow(clock);
			await history.record(access, ['a'], true);
			row.delete('a');
			await clock.advance(10);
			// The next call carries 'a' again and finds it missing: it is put back.
			await history.record(access, ['b']);
			expect(row.has('a')).toBe(true);
			const quietFrom = clock.now();
			await clock.advance(5_000);
			expect(calls.slice(2).map((call) => call.at - quietFrom)).toEqual([100, 300, 700, 1_001]);
			expect(clock.pending).toBe(0);
		},
	);

	test('a call settles later after a slow one: settleCallMultiple times the longest call', async () => {
		const { access, calls } = storeRow(clock, 400);
		const write = history.record(access, ['a'], true);
		await clock.advance(400);
		await write;
		const wroteAt = clock.now();
		await clock.advance(10_000);
		// The check waits for 5 × 400 ms after the write, not settleAfterMs (1 s); it takes 400 ms itself.
		expect(calls.map((call) => call.at - wroteAt)).toEqual([-400, 2_001]);
	});

	test('a write while the row waits to check starts the wait anew', async () => {
		const { access, calls } = storeRow(clock);
		const start = clock.now();
		await history.record(access, ['a'], true);
		await clock.advance(900);
		await history.record(access, ['b']);
		await clock.advance(2_000);
		expect(calls.map((call) => call.at - start)).toEqual([0, 900, 1_001]);
	});

	test("alone: no other call of this process runs between a look-up's calls", async () => {
		const { access, calls } = storeRow(clock, 5);
		const lookUp = history.alone(async () => {
			await access.record(['probe']);
			await clock.wait(20);
			await access.remove(['probe']);
			return 'done';
		});
		await clock.advance(1);
		const write = history.record(access, ['a']);
		await clock.advance(100);
		expect(await lookUp).toBe('done');
		await write;
		expect(calls.map((call) => `${call.kind} ${call.values.join()}`)).toEqual([
			'record probe',
			'remove probe',
			'record a',
		]);
	});
});
