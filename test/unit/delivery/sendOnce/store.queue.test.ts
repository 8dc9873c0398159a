import type { INodeExecutionData } from 'n8n-workflow';

import { Claims } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/options';
import { SendOnceQueue } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/store';
import { CheckedItems } from '../../../../nodes/OmnichannelMessaging/delivery/sendQueue';
import type {
	SendOnceQueueSetup,
	SendOnceStore,
} from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/store';

/** Items all checked before the first send, as a run that stops at a bad item checks them. */
function allChecked(items: number[]): CheckedItems {
	const checked = new CheckedItems();
	for (const itemIndex of items) checked.push(itemIndex);
	checked.close();
	return checked;
}

/** The history as SendOnceQueue uses it: keys claimed and keys accepted, and a log of the writes. */
function history(claimed: string[] = [], accepted: string[] = []) {
	const state = {
		claimed: new Set(claimed),
		accepted: new Set(accepted),
		log: [] as string[],
		members: 0,
	};
	const store = {
		join: () => (state.members += 1),
		leave: () => (state.members -= 1),
		claim: async (keys: string[]) => {
			if (keys.length > 0) state.log.push(`claim ${keys.join()}`);
			const before = new Set(keys.filter((key) => state.claimed.has(key)));
			for (const key of keys) state.claimed.add(key);
			return before;
		},
		acceptedAmong: async (keys: string[]) => new Set(keys.filter((key) => state.accepted.has(key))),
		recordAccepted: async (keys: string[]) => {
			if (keys.length > 0) state.log.push(`accepted ${keys.join()}`);
			for (const key of keys) state.accepted.add(key);
		},
		release: async (keys: string[]) => {
			if (keys.length > 0) state.log.push(`release ${keys.join()}`);
			for (const key of keys) state.claimed.delete(key);
		},
	};
	return { state, store: store as unknown as SendOnceStore };
}

function queueOf(
	store: SendOnceStore,
	keys: Array<string | undefined>,
	extra: Partial<SendOnceQueueSetup> = {},
) {
	const results: Array<INodeExecutionData | undefined> = new Array(keys.length);
	const queue = new SendOnceQueue({
		store,
		claims: new Claims(),
		scopeKey: 'wf\nnode',
		unknown: 'skip',
		keys,
		results,
		batchSize: 2,
		...extra,
	});
	return { queue, results };
}

const reasons = (results: Array<INodeExecutionData | undefined>) =>
	results.map((item) => item?.json.reason);

async function drain(queue: SendOnceQueue, outcome: 'sent' | 'notSent' | 'unknown' = 'sent') {
	const taken: number[] = [];
	for (let next = await queue.take(); next !== undefined; next = await queue.take()) {
		taken.push(next);
		await queue.settle(next, outcome);
	}
	await queue.finish();
	return taken;
}

describe('SendOnceQueue', () => {
	test(
		'claims a batch at a time just ahead of sending, records the acceptances with the next ' +
			'claim and at the end',
		async () => {
			const { state, store } = history();
			const { queue, results } = queueOf(store, ['a', 'b', 'c', 'd', 'e']);
			queue.start(allChecked([0, 1, 2, 3, 4]));
			expect(await drain(queue)).toEqual([0, 1, 2, 3, 4]);
			expect(state.log).toEqual([
				'claim a,b',
				'claim c,d',
				'accepted a,b',
				'claim e',
				'accepted c,d',
				'accepted e',
			]);
			expect(reasons(results)).toEqual([undefined, undefined, undefined, undefined, undefined]);
			expect(state.members).toBe(0);
		},
	);

	test(
		'a key claimed and accepted before is alreadySent; claimed without an acceptance is ' +
			'outcomeUnknown, or sent with "Send It"',
		async () => {
			const skip = queueOf(history(['a', 'b'], ['a']).store, ['a', 'b', 'c']);
			expect(Object.fromEntries(await skip.queue.claimAhead(['a', 'b', 'c']))).toEqual({
				a: 'alreadySent',
				b: 'outcomeUnknown',
				c: 'send',
			});
			const send = queueOf(history(['a', 'b'], ['a']).store, ['a', 'b', 'c'], { unknown: 'send' });
			expect(Object.fromEntries(await send.queue.claimAhead(['a', 'b', 'c']))).toEqual({
				a: 'alreadySent',
				b: 'send',
				c: 'send',
			});
		},
	);

	test(
		'an item not sent gives its claim back at once; a key claimed and never tried is released ' +
			'at the end',
		async () => {
			const { state, store } = history();
			const { queue } = queueOf(store, ['a', 'b'], { batchSize: 2 });
			queue.start(allChecked([0, 1]));
			const first = await queue.take();
			await queue.settle(first as number, 'notSent');
			await queue.finish();
			expect(state.log).toEqual(['claim a,b', 'release a', 'release b']);
			expect([...state.claimed]).toEqual([]);
		},
	);

	test('another execution of this process holding a key: this one waits for its outcome', async () => {
		const { store } = history();
		const claims = new Claims();
		const earlier = queueOf(store, ['a'], { claims });
		const later = queueOf(store, ['a'], { claims });
		const decided = later.queue.claimAhead(['a']);
		expect(Object.fromEntries(await earlier.queue.claimAhead(['a']))).toEqual({ a: 'send' });
		earlier.queue.start(allChecked([0]));
		await drain(earlier.queue, 'sent');
		expect(Object.fromEntries(await decided)).toEqual({ a: 'alreadySent' });
	});

	test("a cancelled execution stops waiting for another's outcome and takes nothing more", async () => {
		const { store } = history();
		const claims = new Claims();
		queueOf(store, ['a'], { claims });
		const cancel = new AbortController();
		const later = queueOf(store, ['a'], { claims, cancel: cancel.signal });
		const decided = later.queue.claimAhead(['a']);
		cancel.abort();
		expect(Object.fromEntries(await decided)).toEqual({});
		later.queue.start(allChecked([0]));
		expect(await later.queue.take()).toBeUndefined();
	});
});
