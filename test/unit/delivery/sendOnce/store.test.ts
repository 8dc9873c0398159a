import type { DeduplicationHelperFunctions } from 'n8n-workflow';

import { SendOnceStore } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/store';
import { bareNode } from '../../../helpers/node';

const CLAIMED = 'omnichannel-send-once:claimed:';
const ACCEPTED = 'omnichannel-send-once:accepted:';

/** n8n's processed-data helpers over one row, as a set of entries; `fail` makes the next call throw. */
function helpers() {
	const row = new Set<string>();
	const state = { row, fail: undefined as Error | undefined, calls: 0 };
	const functions = {
		checkProcessedAndRecord: async (values: string[]) => {
			state.calls += 1;
			const failure = state.fail;
			state.fail = undefined;
			if (failure) throw failure;
			const processed = values.filter((value) => row.has(value));
			for (const value of values) row.add(value);
			return { new: values.filter((value) => !processed.includes(value)), processed };
		},
		removeProcessed: async (values: string[]) => {
			state.calls += 1;
			for (const value of values) row.delete(value);
		},
	};
	return { state, functions: functions as unknown as DeduplicationHelperFunctions };
}

const NODE = bareNode('Send', { type: 'x' });
let rows = 0;
const storeOn = (functions: DeduplicationHelperFunctions) =>
	new SendOnceStore(
		functions,
		{ scope: 'node', unknown: 'skip', history: 100 },
		`wf-${(rows += 1)}\nnode-1`,
		NODE,
	);

describe('SendOnceStore', () => {
	beforeEach(() =>
		jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }),
	);
	afterEach(() => {
		// The row's idle-time check of its acceptances would run seconds later.
		jest.clearAllTimers();
		jest.useRealTimers();
	});

	test('a claim gives back the keys claimed before; a release lets a later claim find the key new', async () => {
		const { functions, state } = helpers();
		const store = storeOn(functions);
		expect([...(await store.claim(['a', 'b']))]).toEqual([]);
		expect([...(await store.claim(['b', 'c']))]).toEqual(['b']);
		await store.release(['b']);
		expect([...(await store.claim(['b']))]).toEqual([]);
		expect([...state.row].sort()).toEqual([`${CLAIMED}a`, `${CLAIMED}b`, `${CLAIMED}c`]);
	});

	test(
		'an acceptance is recorded with its claim; a look-up finds it and leaves no entry of its ' +
			'own behind',
		async () => {
			const { functions, state } = helpers();
			const store = storeOn(functions);
			await store.claim(['a', 'b']);
			await store.recordAccepted(['a']);
			expect(state.row.has(`${ACCEPTED}a`)).toBe(true);
			const found = await store.sentBefore(['a', 'b', 'c'], true);
			expect({ accepted: [...found.accepted], unknown: [...found.unknown] }).toEqual({
				accepted: ['a'],
				unknown: ['b'],
			});
			expect([...state.row].sort()).toEqual([`${ACCEPTED}a`, `${CLAIMED}a`, `${CLAIMED}b`]);
		},
	);

	test('a first history row another worker inserted at the same moment: the call is made once more', async () => {
		const { functions, state } = helpers();
		const store = storeOn(functions);
		state.fail = new Error('duplicate key value violates unique constraint "PK_processed_data"');
		expect([...(await store.claim(['a']))]).toEqual([]);
		expect(state.calls).toBe(2);
		expect(state.row.has(`${CLAIMED}a`)).toBe(true);
	});

	test("any other store failure is the node's store error", async () => {
		const { functions, state } = helpers();
		const store = storeOn(functions);
		state.fail = new Error('connection refused');
		await expect(store.claim(['a'])).rejects.toThrow(
			'The send-once history could not be read or written',
		);
	});
});
