/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, run by jest on Node: the rules for code that runs inside n8n do not apply */
/**
 * The pacer shared by every execution that sends to one service in this process: an adaptive
 * window, a service-wide pause on Retry-After, a rate cap, and no item lost while the service
 * makes progress. Runs through n8n-core's engine against the fake service.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import type { RunResult } from '../helpers/engine';
import { broadcastSend, useFakeService } from '../helpers/fixtures';
import { distModule, withTuning } from '../helpers/process';

/** The services the process paces, as the delivery engine asks its pacer module for them. */
const pacedServices = new Set<string>();
jest.doMock(distModule('delivery/pacer.js'), () => {
	const actual = jest.requireActual<{ pacerFor(service: string): unknown }>(distModule('delivery/pacer.js'));
	pacedServices.clear();
	return { ...actual, pacerFor: (service: string) => (pacedServices.add(service), actual.pacerFor(service)) };
});

const service = useFakeService();
const SEND_PATH = '/whatsapp/send-template-message';

const phones = (count: number, prefix = '0') =>
	Array.from({ length: count }, (_, i) => ({ phone: `+491510${prefix}${String(i).padStart(5, '0')}`, name: `Customer ${i}` }));

const templateSend = (options: INodeParameters = {}): INodeParameters => broadcastSend({ validateTemplate: false, ...options });

const posts = () => service.fake.sends(SEND_PATH);
const accepted = () => posts().filter((r) => r.status === 200).map((r) => r.body.customer_phone as string);
const refused = () => posts().filter((r) => r.status === 429);

function expectEachSentOnce(expected: string[], results: RunResult[]) {
	for (const result of results) expect(result.error).toBeUndefined();
	expect([...accepted()].sort()).toEqual([...expected].sort());
	for (const result of results) expect(result.output.every((item) => item.json.status === 'ongoing')).toBe(true);
}

afterEach(() => {
	service.fake.latencyMs = 0;
	service.fake.setLimits({ concurrencyLimit: null, retryAfter: '1', rateLimitPerSecond: null, rateLimitBurst: null });
});

describe('adaptive window', () => {
	test('shrinks on 429 and grows back: every message sent once, few 429s, near the limit', async () => {
		Object.assign(service.fake, { latencyMs: 40, concurrencyLimit: 4, retryAfter: '0' });
		const items = phones(120);
		const result = await runNode({ parameters: templateSend({ concurrency: 50 }), credentials: service.credentials, items });
		expectEachSentOnce(items.map((p) => p.phone), [result]);
		expect(result.output.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		expect(refused().length).toBeLessThanOrEqual(items.length * 0.1);
		// It started at 2, grew past the limit of 4 (the 429s), shrank, and grew back to the limit.
		const arrivals = posts().map((r) => r.inFlight ?? 0);
		const lastRefused = posts().map((r) => r.status).lastIndexOf(429);
		expect(arrivals[0]).toBeLessThanOrEqual(2);
		expect(lastRefused).toBeGreaterThan(0);
		expect(Math.max(...arrivals.slice(lastRefused + 1))).toBe(4);
	});

	test('a Retry-After pauses every start to that service, not just the refused item', async () => {
		service.fake.latencyMs = 20;
		service.fake.addFault(SEND_PATH, { status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'slow down' } }, 1);
		const items = phones(10);
		const result = await runNode({ parameters: templateSend({ concurrency: 5 }), credentials: service.credentials, items });
		expectEachSentOnce(items.map((p) => p.phone), [result]);
		const refusedAt = refused()[0].time;
		const startedDuringPause = posts().filter((r) => r.time > refusedAt + 30 && r.time < refusedAt + 950);
		expect(startedDuringPause).toEqual([]);
		expect(posts().filter((r) => r.time >= refusedAt + 950).length).toBeGreaterThan(0);
	});

	test('two executions at once share one pacer: after warm-up the service never sees more than its limit', async () => {
		Object.assign(service.fake, { latencyMs: 40, concurrencyLimit: 6, retryAfter: '0' });
		const first = phones(90, '1');
		const second = phones(90, '2');
		const results = await Promise.all([
			runNode({ parameters: templateSend({ concurrency: 20 }), credentials: service.credentials, items: first }),
			runNode({ parameters: templateSend({ concurrency: 20 }), credentials: service.credentials, items: second }),
		]);
		expectEachSentOnce([...first, ...second].map((p) => p.phone), results);
		expect(pacedServices.size).toBe(1);
		// The fake refuses whatever goes past its limit: once the window has learned it, no more 429s.
		const firstRefusal = refused()[0]?.time ?? Number.POSITIVE_INFINITY;
		const late = refused().filter((r) => r.time > firstRefusal + 200);
		expect(late).toEqual([]);
		expect(refused().length).toBeLessThanOrEqual(12);
	});

	test('a level learned while others used the service gives way when a later burst shows more room', async () => {
		await withTuning({ pacing: { probeAfterMs: 1_000 } }, async () => {
			// Another process holds 5 of the service's 8 places: this one is refused above 3.
			Object.assign(service.fake, { latencyMs: 40, concurrencyLimit: 3, retryAfter: '0' });
			const crowded = phones(60, '1');
			expectEachSentOnce(crowded.map((p) => p.phone), [await runNode({ parameters: templateSend(), credentials: service.credentials, items: crowded })]);
			// The other process is gone: all 8 places are free.
			service.fake.reset();
			service.fake.concurrencyLimit = 8;
			const alone = phones(480, '2');
			expectEachSentOnce(alone.map((p) => p.phone), [await runNode({ parameters: templateSend(), credentials: service.credentials, items: alone })]);
			// Measured: about 35% of the sends arrive with 6 or more in flight; 13% when the window stays at
			// the crowded run's level because a burst may only ever lower it.
			const arrivals = posts().map((r) => r.inFlight ?? 0);
			expect(arrivals.filter((n) => n >= 6).length).toBeGreaterThanOrEqual(arrivals.length * 0.25);
		});
	});

	test('sends that never fill the window do not grow it: a broadcast after single-message executions starts without 429s', async () => {
		await withTuning({ pacing: { probeAfterMs: 600 } }, async () => {
			Object.assign(service.fake, { latencyMs: 20, concurrencyLimit: 4, retryAfter: '0' });
			// About 150 ms with the window full: the level is learned, the probe time not reached.
			const learn = phones(30, '1');
			expectEachSentOnce(learn.map((p) => p.phone), [await runNode({ parameters: templateSend(), credentials: service.credentials, items: learn })]);
			// CRM events one at a time, for longer than the probe time (about 1 s): one send in flight, never four.
			for (const event of phones(40, '2')) {
				await runNode({ parameters: templateSend(), credentials: service.credentials, items: [event] });
			}
			service.fake.reset();
			const broadcast = phones(60, '3');
			expectEachSentOnce(broadcast.map((p) => p.phone), [await runNode({ parameters: templateSend({ concurrency: 50 }), credentials: service.credentials, items: broadcast })]);
			// It starts at the level it learned; only after being full for the probe time does it try above it.
			const start = posts().slice(0, 30);
			expect(start.map((r) => `${r.status} at ${r.inFlight} in flight`)).toEqual(start.map((r) => `200 at ${r.inFlight} in flight`));
			expect(Math.max(...start.map((r) => r.inFlight ?? 0))).toBe(4);
		});
	});

	test('different API keys get different pacers, keyed without the key itself', async () => {
		await runNode({ parameters: templateSend(), credentials: service.credentials, items: phones(1) });
		await runNode({ parameters: templateSend(), credentials: { ...service.credentials, apiKey: 'another-key-b7c1' }, items: phones(1) });
		const keys = [...pacedServices];
		expect(keys).toHaveLength(2);
		expect(keys.join(' ')).not.toContain(service.credentials.apiKey);
		expect(keys.join(' ')).not.toContain('another-key-b7c1');
		expect(keys.every((key) => key.startsWith(service.fake.url))).toBe(true);
	});
});

describe('rate cap', () => {
	test('Max Messages per Second holds the start rate within 10%', async () => {
		const items = phones(41);
		const result = await runNode({ parameters: templateSend({ maxPerSecond: 20 }), credentials: service.credentials, items });
		expectEachSentOnce(items.map((p) => p.phone), [result]);
		const times = posts().map((r) => r.time);
		const rate = ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]);
		expect(rate).toBeGreaterThan(18);
		expect(rate).toBeLessThan(22);
	});
});

describe('a service that limits sends per second, not requests in flight', () => {
	test('after its second burst of 429s the pace holds at the rate the service took: no third burst', async () => {
		service.fake.latencyMs = 20;
		service.fake.setLimits({ rateLimitPerSecond: 40 });
		const items = phones(400);
		const result = await runNode({ parameters: templateSend(), credentials: service.credentials, items });
		expectEachSentOnce(items.map((p) => p.phone), [result]);
		// A burst: 429s less than half a second apart. The window alone keeps finding the rate anew.
		const bursts = refused().filter((r, i, all) => i === 0 || r.time - all[i - 1].time > 500);
		expect(bursts.length).toBeLessThanOrEqual(2);
		// At 20 ms latency the window overshoots further before each burst than at the bench's 100 ms.
		expect(refused().length).toBeLessThanOrEqual(items.length * 0.1);
	});
});

describe('no item lost while the service makes progress', () => {
	test('a service that answers 429 forever: every item fails as not sent after the progress bound, with the POSTs expected', async () => {
		await withTuning({ pacing: { progressWindowMs: 2_500 } }, async () => {
			service.fake.addFault(SEND_PATH, { status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'no' } }, 1000);
			const started = Date.now();
			const { output, error } = await runNode({ parameters: templateSend(), credentials: service.credentials, items: phones(3), continueOnFail: true });
			expect(error).toBeUndefined();
			// t=0: 2 in flight (the first window), both refused; then the window is 1 and every Retry-After pause lets one through:
			// t≈1 s, t≈2 s; at t≈3 s the 2.5 s bound has passed and the items fail without another POST.
			expect(posts()).toHaveLength(4);
			expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
			expect(output.map((item) => item.json.error)).toEqual([0, 1, 2].map((i) => `Rate limited by the service: the message for item ${i} was not sent`));
			expect(output.every((item) => String(item.json.message ?? '').includes('The message was not sent.'))).toBe(true);
			expect(output[0].json.message).toContain('no message to the service went through for 3 seconds');
			expect(output[0].json.details).toEqual({ outcome: 'notSent', reason: 'rateLimited', httpCode: '429' });
		});
	});

	test('cancelling the execution during a pause ends every wait at once, nothing more is sent', async () => {
		service.fake.addFault(SEND_PATH, { status: 429, headers: { 'Retry-After': '30' }, body: { detail: 'later' } }, 1);
		const started = Date.now();
		const result = await runNode({ parameters: templateSend({ concurrency: 1 }), credentials: service.credentials, items: phones(5), cancelAfterMs: 400 });
		expect(Date.now() - started).toBeLessThan(2_000);
		expect(posts()).toHaveLength(1);
		expect(accepted()).toEqual([]);
		expect(result.run.status).toBe('canceled');
	});
});
