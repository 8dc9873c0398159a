/**
 * Send Once per Key on n8n's own processed-data store: a key sent before is not sent again, in
 * the same run or a later one, also when two executions run at once; failures carry what a
 * workflow needs to decide what to send again. Runs through n8n-core's engine and helpers, with
 * an in-memory store that behaves like n8n's database one (test/helpers/processedDataStore.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import type { RunResult } from '../helpers/engine';
import { broadcastSend, useFakeService } from '../helpers/fixtures';
import { useProcessedDataStore } from '../helpers/processedDataStore';
import type { InMemoryProcessedDataStore } from '../helpers/processedDataStore';
import { processClock, restartProcess, withTimings } from '../helpers/process';
import { until } from '../helpers/until';

const service = useFakeService();
const SEND_PATH = '/whatsapp/send-template-message';
let store: InMemoryProcessedDataStore;

beforeAll(async () => {
	store = await useProcessedDataStore();
});
beforeEach(() => store.reset());

const orders = (count: number, from = 0) =>
	Array.from({ length: count }, (_, i) => ({
		orderId: `A-${from + i}`,
		phone: `+491520${String(from + i).padStart(6, '0')}`,
		name: `Customer ${from + i}`,
	}));

const templateSend = (options: IDataObject = {}): INodeParameters =>
	broadcastSend({
		validateTemplate: false,
		sendOnceKey: '={{ $json.orderId }}-shipped',
		...options,
	});

const accepted = () =>
	service.fake
		.sends(SEND_PATH)
		.filter((r) => r.status === 200)
		.map((r) => r.body.customer_phone as string);
const run = async (
	items: IDataObject[],
	options: IDataObject = {},
	extra: Partial<Parameters<typeof runNode>[0]> = {},
) =>
	await service.run(templateSend(options), {
		items,
		...extra,
	});
const skipped = (result: RunResult) =>
	result.output
		.filter((item) => item.json.skipped === true)
		.map((item) => [item.pairedItem, item.json.reason, item.json.sendOnceKey]);
const reasons = (result: RunResult) => skipped(result).map(([, reason]) => reason);
/** The reasons a second run of `items` skips them for, with the service's log of the first cleared. */
const reasonsOfRerun = async (items: IDataObject[]) => {
	service.fake.reset();
	return reasons(await run(items));
};

describe('a key sent before is not sent again', () => {
	test('a second run sends nothing and outputs every item as skipped, paired with its input', async () => {
		const items = orders(30);
		expect((await run(items)).error).toBeUndefined();
		expect(accepted()).toHaveLength(30);
		service.fake.reset();
		const second = await run(items);
		expect(second.error).toBeUndefined();
		// Nothing at all reaches the service: not even the template check's read.
		expect(service.fake.requests).toEqual([]);
		expect(skipped(second)).toEqual(
			items.map((item, i) => [{ item: i }, 'alreadySent', `${item.orderId}-shipped`]),
		);
	});

	test('the same key twice in one run: sent once, the second is duplicateInRun', async () => {
		const items = [...orders(3), orders(1)[0]];
		const result = await run(items);
		expect(accepted()).toEqual(orders(3).map((o) => o.phone));
		expect(result.output[3].json).toEqual({
			skipped: true,
			reason: 'duplicateInRun',
			sendOnceKey: 'A-0-shipped',
		});
		expect(result.output[3].pairedItem).toEqual({ item: 3 });
	});

	test('a refused (400) item and an invalid item are sent again by the next run; accepted ones are not', async () => {
		const items = [...orders(3), { orderId: 'A-bad', phone: 'not a phone', name: 'X' }];
		service.fake.addFault(
			SEND_PATH,
			{ status: 400, body: { error: 'Template paused', code: 'template_paused', success: false } },
			1,
			1,
		);
		const first = await run(items, {}, { continueOnFail: true });
		expect(first.output[1].json.details).toEqual({
			outcome: 'notSent',
			reason: 'rejected',
			httpCode: '400',
			serviceCode: 'template_paused',
		});
		expect(first.output[3].json.details).toEqual({
			outcome: 'notSent',
			reason: 'invalidInput',
			field: 'Customer Phone',
		});
		expect(await reasonsOfRerun(items.slice(0, 3))).toEqual(['alreadySent', 'alreadySent']);
		expect(accepted()).toEqual([orders(3)[1].phone]);
	});

	test.each([
		['500', { status: 500 }],
		['a timeout', { kind: 'hang' }],
		['a cut connection', { kind: 'reset-after-read' }],
	] as const)(
		'after %s the next run skips the key as outcomeUnknown by default, and sends it with "Send It"',
		async (_label, fault) => {
			const items = orders(2);
			service.fake.addFault(SEND_PATH, fault as never, 1);
			const first = await run(items, { timeout: 1500 }, { continueOnFail: true });
			expect((first.output[0].json.details as IDataObject).outcome).toBe('unknown');
			expect(await reasonsOfRerun(items)).toEqual(['outcomeUnknown', 'alreadySent']);
			expect(service.fake.sends(SEND_PATH)).toHaveLength(0);
			const third = await run(items, { sendOnceUnknown: 'send' });
			expect(accepted()).toEqual([items[0].phone]);
			expect(reasons(third)).toEqual(['alreadySent']);
			expect(await reasonsOfRerun(items)).toEqual(['alreadySent', 'alreadySent']);
		},
	);
});

describe('two executions at once (two webhook deliveries of the same event)', () => {
	test("each key is sent once: the later execution waits for the earlier one's outcome", async () => {
		await service.withLatency(30, async () => {
			const items = orders(60);
			const results = await Promise.all([run(items), run([...items].reverse())]);
			for (const result of results) expect(result.error).toBeUndefined();
			expect([...accepted()].sort()).toEqual(items.map((o) => o.phone).sort());
			const skips = results.flatMap((result) => skipped(result));
			expect(skips).toHaveLength(60);
			// Each key's later item waited for the earlier one's send and saw it sent: never an unknown outcome.
			expect(new Set(skips.map(([, reason]) => reason))).toEqual(new Set(['alreadySent']));
		});
	});
});

describe('an execution that starts while another is sending the same keys', () => {
	test('waits for that outcome: its items are alreadySent, not outcomeUnknown', async () => {
		await service.withLatency(500, async () => {
			const items = orders(3);
			const earlier = run(items);
			// The earlier execution has claimed its keys in the store and waits for its first answer.
			await until(() => service.fake.sends(SEND_PATH).length > 0, 'a first send');
			expect(service.fake.sends(SEND_PATH).map((r) => r.body.customer_phone)).toContain(
				items[0].phone,
			);
			const later = await run(items);
			expect((await earlier).error).toBeUndefined();
			expect(later.error).toBeUndefined();
			expect(skipped(later)).toEqual(
				items.map((item, i) => [{ item: i }, 'alreadySent', `${item.orderId}-shipped`]),
			);
			expect(accepted()).toEqual(items.map((o) => o.phone));
		});
	});
});

describe('two executions at once with different keys', () => {
	test('no key is lost from the store: a later run skips all of them', async () => {
		await service.withLatency(20, async () => {
			const first = orders(80);
			const second = orders(80, 1000);
			await Promise.all([run(first), run(second)]);
			expect(accepted()).toHaveLength(160);
			service.fake.reset();
			const again = await Promise.all([run(first), run(second)]);
			expect(service.fake.sends(SEND_PATH)).toHaveLength(0);
			expect(again.flatMap((result) => skipped(result))).toHaveLength(160);
		});
	});
});

describe('the store', () => {
	test(
		"two processes inserting a node's first history at once: the losing insert is made again, " +
			'and each message goes out once',
		async () => {
			store.insertRaceOnce = true;
			const items = orders(3);
			const result = await run(items);
			expect(result.error).toBeUndefined();
			expect(accepted()).toEqual(items.map((o) => o.phone));
			expect(await reasonsOfRerun(items)).toEqual(['alreadySent', 'alreadySent', 'alreadySent']);
		},
	);
});

describe('a queue-mode worker writing back a stale copy of the row (no lock)', () => {
	test(
		'the look-up before the first send leaves nothing a stale copy can turn into a claim: ' +
			'every item is sent',
		async () => {
			const items = orders(3);
			// Another worker reads the row while the look-up's probes are in it, and writes it back after they were removed.
			store.writeBackStaleCopy(1, 2);
			const result = await run(items);
			expect(result.error).toBeUndefined();
			expect(skipped(result)).toEqual([]);
			expect(accepted()).toEqual(items.map((o) => o.phone));
			expect(await reasonsOfRerun(items)).toEqual(['alreadySent', 'alreadySent', 'alreadySent']);
		},
	);
});

describe('scope, dry run, and no key', () => {
	test('This Node: another node of the workflow sends the same key; All Send Nodes: it does not', async () => {
		const items = orders(2);
		await run(items, { sendOnceScope: 'node' }, { nodeId: 'node-a' });
		await run(items, { sendOnceScope: 'node' }, { nodeId: 'node-b' });
		expect(accepted()).toHaveLength(4);
		service.fake.reset();
		await run(items, { sendOnceScope: 'workflow' }, { nodeId: 'node-a' });
		const other = await run(items, { sendOnceScope: 'workflow' }, { nodeId: 'node-b' });
		expect(accepted()).toHaveLength(2);
		expect(reasons(other)).toEqual(['alreadySent', 'alreadySent']);
	});

	test('a dry run reports which items would be skipped and records nothing', async () => {
		await run(orders(2));
		const before = [...store.rows.entries()];
		// were sent before; A-2 comes twice in this run.
		const dry = await run([...orders(3), orders(1, 2)[0]], { dryRun: true });
		expect(
			dry.output.map((item) => [
				item.json.dryRun,
				item.json.skipped ?? false,
				item.json.reason ?? null,
			]),
		).toEqual([
			[true, true, 'alreadySent'],
			[true, true, 'alreadySent'],
			[true, false, null],
			[true, true, 'duplicateInRun'],
		]);
		expect([...store.rows.entries()]).toEqual(before);
		expect(service.fake.sends(SEND_PATH)).toHaveLength(2);
	});

	test('a dry run also reports a key whose earlier outcome is unknown, and records nothing', async () => {
		service.fake.addFault(SEND_PATH, { status: 500 }, 1);
		await run(orders(2), {}, { continueOnFail: true });
		const before = [...store.rows.entries()];
		service.fake.reset();
		const dry = await run(orders(2), { dryRun: true });
		expect(reasons(dry)).toEqual(['outcomeUnknown', 'alreadySent']);
		expect([...store.rows.entries()]).toEqual(before);
		expect(service.fake.sends(SEND_PATH)).toHaveLength(0);
	});

	test('without a key the store is never asked', async () => {
		const result = await service.run(
			{ ...templateSend(), options: { validateTemplate: false } },
			{
				items: orders(5),
			},
		);
		expect(result.error).toBeUndefined();
		expect(store.calls).toEqual({ checkProcessedAndRecord: 0, removeProcessed: 0 });
		expect(store.rows.size).toBe(0);
	});

	test('an item whose key is empty is an input error naming the field; nothing is sent for it', async () => {
		const result = await run(
			[...orders(1), { orderId: '', phone: '+4915200000009', name: 'Y' }].map((o) => o),
			{ sendOnceKey: '={{ $json.orderId }}' },
			{ continueOnFail: true },
		);
		expect(result.output[1].json.details).toEqual({
			outcome: 'notSent',
			reason: 'invalidInput',
			field: 'Send Once per Key',
		});
		expect(accepted()).toEqual([orders(1)[0].phone]);
	});
});

describe('store calls', () => {
	// What is counted does not depend on the machine's speed; how long 2,000 sends take does, so the
	// bound is wide: a busy 2-core machine took over 30 s for the history of 100,000.
	test.each([0, 10_000, 100_000])(
		'2,000 items with a history of %i entries',
		async (history) => {
			store.seed('wf-1', 'node-1', history);
			// No idle-time verification call in between: the count is the layout's, not the machine's speed.
			await withTimings({ SEND_ONCE: { verifyAfterMs: 600_000 } }, async () => {
				const started = Date.now();
				const result = await run(orders(2000));
				const wall = Date.now() - started;
				expect(result.error).toBeUndefined();
				expect(accepted()).toHaveLength(2000);
				const calls = store.calls.checkProcessedAndRecord + store.calls.removeProcessed;
				// One look at every key before anything is prepared (recorded and removed again), one claim per batch of
				// 2 × Concurrency (40), the acceptances recorded with the next claim, one final record.
				expect(store.calls.checkProcessedAndRecord).toBe(52);
				expect(store.calls.removeProcessed).toBe(1);
				console.log(
					`send-once, 2,000 items, history ${history}: ${calls} store calls, ` +
						`${Math.round(store.busyMs)} ms inside the store, run ${wall} ms`,
				);
			});
		},
		180_000,
	);

	test('a re-run of a 1,200-item broadcast: no request to the service, one store call', async () => {
		const items = orders(1200);
		await run(items);
		service.fake.reset();
		store.calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };
		const again = await run(items);
		expect(service.fake.requests).toEqual([]);
		expect(skipped(again)).toHaveLength(1200);
		expect(store.calls).toEqual({ checkProcessedAndRecord: 1, removeProcessed: 0 });
	});

	test(
		'a single-item run with a new key: two store calls, its claim and its acceptance; ' +
			'delivered again: two, nothing sent',
		async () => {
			const first = await run(orders(1));
			expect(first.error).toBeUndefined();
			expect(store.calls).toEqual({ checkProcessedAndRecord: 2, removeProcessed: 0 });
			service.fake.reset();
			store.calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };
			const again = await run(orders(1));
			expect(service.fake.requests).toEqual([]);
			expect(reasons(again)).toEqual(['alreadySent']);
			// The claim finds the key claimed before; a look at its acceptance finds it there, so nothing is removed.
			expect(store.calls).toEqual({ checkProcessedAndRecord: 2, removeProcessed: 0 });
		},
	);

	test(
		'ten single-item executions at once share store calls (group commit): fewer than one per ' +
			'message, none lost',
		async () => {
			await service.withLatency(50, async () => {
				const events = orders(30).map((order) => [order]);
				const runs: Array<Promise<unknown>> = [];
				for (let next = 0; next < events.length; ) {
					const wave = events.slice(next, next + 10);
					next += wave.length;
					runs.push(...wave.map(async (items) => await run(items)));
					await Promise.all(runs.splice(0));
				}
				expect(accepted()).toHaveLength(30);
				const calls = store.calls.checkProcessedAndRecord + store.calls.removeProcessed;
				expect(calls).toBeLessThan(30);
				service.fake.reset();
				const again = await Promise.all(events.map(async (items) => await run(items)));
				expect(service.fake.sends(SEND_PATH)).toHaveLength(0);
				expect(again.flatMap(reasons)).toEqual(events.map(() => 'alreadySent'));
			});
		},
	);
});

describe('a history too small for the run', () => {
	test('stops before anything is sent or recorded, naming both numbers and the option', async () => {
		const result = await run(orders(5), { sendOnceHistory: 4 });
		expect(result.error?.message).toBe(
			'This run has 5 send-once keys, more than Send Once History remembers (4)',
		);
		expect(result.error?.description).toMatch(
			/Raise Options → Send Once History to at least 5.*Nothing was sent/,
		);
		expect(service.fake.requests).toEqual([]);
		expect(store.calls).toEqual({ checkProcessedAndRecord: 0, removeProcessed: 0 });
	});
});

/** A test of `check` run with the send-once timings changed, as a faster machine's would be. */
function testWithTimings(
	name: string,
	timings: { verifyAfterMs: number; settleAfterMs: number },
	check: () => Promise<void>,
) {
	test(name, async () => await withTimings({ SEND_ONCE: timings }, check));
}

/** The first order delivered again on another worker (a fresh process): the history says it was sent. */
async function expectRedeliveryAlreadySent() {
	restartProcess();
	expect(await reasonsOfRerun(orders(1))).toEqual(['alreadySent']);
	expect(service.fake.requests).toEqual([]);
}

/** Time passing for the process (test/helpers/process.ts): its waits end as they would have. */
const pause = async (ms: number) => await processClock().advance(ms);

/** Whether the history row holds the order's claim or acceptance, as a later execution would find it. */
const entryOf = (order: number, kind: 'claimed' | 'accepted') =>
	store.holds('wf-1', 'node-1', `omnichannel-send-once:${kind}:A-${order}-shipped`);

/** The order's claim and acceptance: whether the history row holds each. */
const claimAndAcceptance = (order: number) => [
	entryOf(order, 'claimed'),
	entryOf(order, 'accepted'),
];

/**
 * Another worker's copy of the history row, taken after the store's call `takenAfter` and written
 * back after call `writtenAfter`, while `runs` runs (test/helpers/processedDataStore.ts): it was.
 */
async function withStaleCopy(takenAfter: number, writtenAfter: number, runs: () => Promise<void>) {
	store.writeBackStaleCopy(takenAfter, writtenAfter);
	await runs();
	expect(store.staleWriteBack).toBeUndefined();
}

/**
 * A lost acceptance: a worker copies the row after A-0's claim and writes it back after its
 * acceptance; the next execution's claim (A-1's) carries the check of A-0's entries and puts it back.
 */
async function loseAndRecoverAcceptance() {
	await withStaleCopy(1, 2, async () => void (await run(orders(1))));
	expect(claimAndAcceptance(0)).toEqual([true, false]);
	await run(orders(1, 1));
	expect(entryOf(0, 'accepted')).toBe(true);
}

describe("entries another queue-mode worker's write lost are put back", () => {
	test(
		"a lost acceptance: the next execution's call finds it missing and records it again; a " +
			'redelivery is alreadySent',
		async () => {
			await loseAndRecoverAcceptance();
			await expectRedeliveryAlreadySent();
		},
	);

	testWithTimings(
		'a lost claim and acceptance, with no later execution: a call of its own puts them back; ' +
			'the event is not sent twice',
		{ verifyAfterMs: 200, settleAfterMs: 300 },
		async () => {
			// A worker copies the row after A-6's acceptance (call 2), before A-0's claim (call 3), and writes it back
			// after A-0's acceptance (call 4): A-0's claim and acceptance are both lost.
			await withStaleCopy(2, 4, async () => {
				await run(orders(1, 6));
				await run(orders(1));
			});
			expect(claimAndAcceptance(0)).toEqual([false, false]);
			await pause(700);
			expect(claimAndAcceptance(0)).toEqual([true, true]);
			await expectRedeliveryAlreadySent();
		},
	);

	test(
		"a worker's call that read the row before an acceptance and writes it back seconds later: " +
			'the acceptance comes back',
		async () => {
			// The copy is taken after A-0's claim (call 1) and written back after call 4, 1.5 s later, when
			// A-0's entries had been found in the row more than a second after they were written.
			await withStaleCopy(1, 4, async () => {
				await run(orders(1));
				await pause(1_500);
				await run(orders(1, 1));
			});
			expect([entryOf(0, 'accepted'), ...claimAndAcceptance(1)]).toEqual([false, false, false]);
			await run(orders(1, 2));
			expect([entryOf(0, 'accepted'), ...claimAndAcceptance(1)]).toEqual([true, true, true]);
			await expectRedeliveryAlreadySent();
		},
	);

	testWithTimings(
		'once a lost write was seen, a quiet worker checks again within seconds, then when the ' +
			'entries settle',
		{ verifyAfterMs: 100, settleAfterMs: 1_000 },
		async () => {
			await loseAndRecoverAcceptance();
			const callsAtQuiet = store.calls.checkProcessedAndRecord;
			// Checks at about 0.1, 0.3 and 0.7 s, then the one at 1 s that settles everything; none after.
			await pause(1_600);
			const idleChecks = store.calls.checkProcessedAndRecord - callsAtQuiet;
			expect(idleChecks).toBeGreaterThanOrEqual(3);
			expect(idleChecks).toBeLessThanOrEqual(5);
			await pause(1_200);
			expect(store.calls.checkProcessedAndRecord - callsAtQuiet).toBe(idleChecks);
		},
	);

	testWithTimings(
		'with no lost write seen, a quiet process makes one check of its own, when its entries settle',
		{ verifyAfterMs: 100, settleAfterMs: 600 },
		async () => {
			await run(orders(1));
			expect(store.calls.checkProcessedAndRecord).toBe(2);
			await pause(400);
			expect(store.calls.checkProcessedAndRecord).toBe(2);
			await pause(1_000);
			expect(store.calls.checkProcessedAndRecord).toBe(3);
		},
	);
});

describe('histories written by 0.2.0-dev', () => {
	test('keys recorded with the default history of 100,000 then still count as sent', async () => {
		await run(orders(3), { sendOnceHistory: 100_000 });
		expect(await reasonsOfRerun(orders(3))).toEqual(['alreadySent', 'alreadySent', 'alreadySent']);
		expect(service.fake.requests).toEqual([]);
	});
});
