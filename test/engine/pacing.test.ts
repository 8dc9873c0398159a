/**
 * The pacer shared by every execution that sends to one service in this process, through
 * n8n-core's engine against the fake service: what a user sees of it. Every message is sent once,
 * results keep their items' order, the pause is service-wide, and the errors name what happened.
 * How fast and how close to the limit it sends is asserted on a virtual clock
 * (test/unit/delivery/pacer.simulation.test.ts), never here: these assertions hold whatever the
 * machine's load.
 *
 * The node keeps one pacer per service for the life of the process (jest loads it anew for each
 * test file); each test here gets a service of its own, so no test inherits another's pace.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { runNode } from '../helpers/engine';
import type { CredentialData, RunOptions, RunResult } from '../helpers/engine';
import { API_KEY, broadcastSend } from '../helpers/fixtures';
import { withTimings } from '../helpers/process';

// The progress window is 2 minutes; 2.5 s here, so that a service refusing forever ends a test soon.
const SHORT_PROGRESS_WINDOW = { RATE_LIMIT: { progressWindowMs: 2_500 } };

const SEND_PATH = '/whatsapp/send-template-message';

let fake: FakeService;
let credentials: CredentialData;

beforeEach(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	credentials = { baseUrl: fake.url, apiKey: API_KEY };
});

afterEach(async () => {
	await fake.close();
});

const phones = (count: number, prefix = '0') =>
	Array.from({ length: count }, (_, i) => ({
		phone: `+491510${prefix}${String(i).padStart(5, '0')}`,
		name: `Customer ${i}`,
	}));

const templateSend = (options: INodeParameters = {}): INodeParameters =>
	broadcastSend({ validateTemplate: false, ...options });

/** A template send of `items` through this test's service, with `options` set. */
const sendAll = async (
	items: IDataObject[],
	options: INodeParameters = {},
	more: Partial<RunOptions> = {},
) => await runNode({ parameters: templateSend(options), credentials, items, ...more });

const posts = () => fake.sends(SEND_PATH);
const accepted = () =>
	posts()
		.filter((r) => r.status === 200)
		.map((r) => r.body.customer_phone as string);

function expectEachSentOnce(expected: string[], results: RunResult[]) {
	for (const result of results) expect(result.error).toBeUndefined();
	expect([...accepted()].sort()).toEqual([...expected].sort());
	for (const result of results)
		expect(result.output.every((item) => item.json.status === 'ongoing')).toBe(true);
}

describe('a service with a limit on requests in flight', () => {
	test('every message is sent once, each result paired with its item in input order', async () => {
		fake.setLimits({ concurrencyLimit: 4, retryAfter: '0' });
		fake.latencyMs = 20;
		const items = phones(80);
		const result = await sendAll(items, { concurrency: 50 });
		expectEachSentOnce(
			items.map((p) => p.phone),
			[result],
		);
		expect(result.output.map((item) => item.pairedItem)).toEqual(
			items.map((_, i) => ({ item: i })),
		);
		expect(
			result.output.map((item) => (item.json.extra as { customer_phone: string }).customer_phone),
		).toEqual(items.map((p) => p.phone));
	});

	test('two executions at once share the service: every message of both sent once', async () => {
		fake.setLimits({ concurrencyLimit: 6, retryAfter: '0' });
		fake.latencyMs = 20;
		const first = phones(60, '1');
		const second = phones(60, '2');
		const results = await Promise.all([
			sendAll(first, { concurrency: 20 }),
			sendAll(second, { concurrency: 20 }),
		]);
		expectEachSentOnce(
			[...first, ...second].map((p) => p.phone),
			results,
		);
	});
});

describe('one pace per service', () => {
	test(
		'two executions share one window: before the first answer the service sees the first ' +
			'window, not one per execution',
		async () => {
			// The window starts at 2 and grows by one per answer: shared, at most 3 reach the service at once
			// here; one window per execution would send 4 at once. A loaded machine can only lower the peak.
			fake.latencyMs = 300;
			const results = await Promise.all([sendAll(phones(2, '1')), sendAll(phones(2, '2'))]);
			expectEachSentOnce(
				[...phones(2, '1'), ...phones(2, '2')].map((p) => p.phone),
				results,
			);
			expect(fake.peakInFlight).toBeLessThanOrEqual(3);
		},
	);
});

describe('Retry-After', () => {
	test('a Retry-After longer than the progress window fails the item at once, as not sent', async () => {
		fake.addFault(SEND_PATH, { status: 429, headers: { 'Retry-After': '3600' }, body: {} }, 1);
		const { output } = await sendAll(phones(1), {}, { continueOnFail: true });
		expect(posts()).toHaveLength(1);
		expect(output[0].json.error).toBe(
			'Rate limited by the service: the message for item 0 was not sent',
		);
		expect(output[0].json.message).toContain('it asked to wait 3600 seconds');
		expect(output[0].json.details).toEqual({
			outcome: 'notSent',
			reason: 'rateLimited',
			httpCode: '429',
			retryAfterSeconds: 3600,
		});
	});
});

describe('sends per second', () => {
	test('Max Messages per Second: every message sent once', async () => {
		const items = phones(21);
		const result = await sendAll(items, { maxPerSecond: 20 });
		expectEachSentOnce(
			items.map((p) => p.phone),
			[result],
		);
	});

	test('a service that limits sends per second: every message sent once', async () => {
		fake.latencyMs = 20;
		fake.setLimits({ rateLimitPerSecond: 40 });
		const items = phones(120);
		const result = await sendAll(items);
		expectEachSentOnce(
			items.map((p) => p.phone),
			[result],
		);
	});
});

describe('no item lost while the service makes progress', () => {
	test(
		'a service that answers 429 forever: every item fails as not sent once the progress window ' +
			'has passed',
		async () => {
			fake.addFault(
				SEND_PATH,
				{ status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'no' } },
				1000,
			);
			const { output, error } = await withTimings(
				SHORT_PROGRESS_WINDOW,
				async () => await sendAll(phones(3), {}, { continueOnFail: true }),
			);
			expect(error).toBeUndefined();
			expect(accepted()).toEqual([]);
			expect(output.map((item) => item.json.error)).toEqual(
				[0, 1, 2].map((i) => `Rate limited by the service: the message for item ${i} was not sent`),
			);
			expect(
				output.every((item) =>
					String(item.json.message ?? '').includes('The message was not sent.'),
				),
			).toBe(true);
			expect(output[0].json.message).toContain(
				'no message to the service went through for 3 seconds',
			);
			expect(output[0].json.details).toEqual({
				outcome: 'notSent',
				reason: 'rateLimited',
				httpCode: '429',
			});
		},
	);

	test('cancelling the execution during a pause ends every wait, nothing more is sent', async () => {
		fake.addFault(
			SEND_PATH,
			{ status: 429, headers: { 'Retry-After': '2' }, body: { detail: 'later' } },
			1,
		);
		// Were the waits not ended, the pause would end at 2 s and the items would go out.
		const result = await sendAll(phones(5), { concurrency: 1 }, { cancelAfterMs: 400 });
		expect(posts()).toHaveLength(1);
		expect(accepted()).toEqual([]);
		expect(result.run.status).toBe('canceled');
	});
});
