/**
 * The fake service's two limits, over real HTTP: the in-flight limit and the token bucket on
 * sends (requests per second). The bench and the sandbox rely on them answering as a gateway
 * would: a fixed number of 429s for a burst, Retry-After in whole seconds, tokens coming back
 * with time, reads not counted against the bucket.
 */
import { requestJson } from './client';
import type { Answer as ServiceAnswer } from './client';
import { startFakeService } from './index';
import type { FakeService, FakeServiceOptions } from './index';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox, sandboxOptionsFromEnv } = require('../../scripts/sandbox') as {
	startSandbox: (
		options: Record<string, unknown>,
	) => Promise<{ service: FakeService; url: string; apiKey: string }>;
	sandboxOptionsFromEnv: (env: Record<string, string>) => Record<string, unknown>;
};

const API_KEY = 'sk-fake-limits-5e1f0a';
const SEND_PATH = '/stable/open/whatsapp/send-template-message';
const DETAIL_PATH = '/stable/open/whatsapp/get-template-detail?platform_id=12&template_id=101';

type Answer = ServiceAnswer<{ detail?: string; id?: string }>;

/** One request on its own connection, as n8n sends them. */
async function request(
	url: string,
	method: 'GET' | 'POST',
	requestPath: string,
	body?: unknown,
	apiKey = API_KEY,
): Promise<Answer> {
	return await requestJson(`${url}${requestPath}`, { method, apiKey, body });
}

function send(url: string, index: number, apiKey?: string) {
	return request(
		url,
		'POST',
		SEND_PATH,
		{
			template_id: '101',
			channel_id: '12',
			customer_phone: `+49151${String(index).padStart(7, '0')}`,
			attributes: { '1': 'Anna', '2': 'ORD-1', '3': 'today' },
		},
		apiKey,
	);
}

async function burst(url: string, count: number, from = 0) {
	return await Promise.all(
		Array.from({ length: count }, async (_, i) => await send(url, from + i)),
	);
}

/** `count` sends at once; once all have arrived, the virtual clock moves on by the latency. */
async function burstPastLatency(service: FakeService, count: number, latencyMs: number) {
	const arrived = arrivals(service);
	const answering = burst(service.url, count);
	await arrived(count);
	jest.advanceTimersByTime(latencyMs);
	return await answering;
}

const statuses = (answers: Answer[]) =>
	answers.reduce<Record<number, number>>(
		(acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
		{},
	);

/** A clock the test moves by hand: no token comes back unless the test says so. */
function stillClock() {
	let now = 1_000_000;
	return { read: () => now, advance: (ms: number) => (now += ms) };
}

/**
 * jest's virtual clock for what the fake times itself: its latency (setTimeout) and its default
 * clock (performance.now). Sockets, I/O callbacks and promises keep running, so requests arrive
 * and are answered as usual; an answer delayed by latencyMs goes out only when the test advances
 * the clock, and no token comes back unless it does. Nothing here depends on how fast the
 * machine is.
 */
function virtualTime() {
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'Date'],
	});
}

/** Resolves once the service has recorded `count` requests (and so decided whether to serve each). */
function arrivals(service: FakeService) {
	const waiting: Array<{ count: number; resolve: () => void }> = [];
	service.log = () => {
		for (const waiter of waiting.filter((w) => service.requests.length >= w.count)) {
			waiting.splice(waiting.indexOf(waiter), 1);
			waiter.resolve();
		}
	};
	return async (count: number) =>
		await new Promise<void>((resolve) => {
			if (service.requests.length >= count) resolve();
			else waiting.push({ count, resolve });
		});
}

let services: FakeService[] = [];

async function fake(options: FakeServiceOptions) {
	const service = await startFakeService({ apiKey: API_KEY, ...options });
	services.push(service);
	return service;
}

afterEach(async () => {
	jest.useRealTimers();
	await Promise.all(services.map(async (s) => await s.close()));
	services = [];
});

describe('rate limit (token bucket on sends)', () => {
	it(
		'lets a burst of one second worth through and answers 429 to the rest, with Retry-After in ' +
			'whole seconds',
		async () => {
			const clock = stillClock();
			const service = await fake({ rateLimitPerSecond: 50, clock: clock.read });
			const answers = await burst(service.url, 60);
			expect(statuses(answers)).toEqual({ 200: 50, 429: 10 });
			const rejected = answers.filter((a) => a.status === 429);
			// The next token is 20 ms away: a whole-seconds header rounds it up to 1.
			expect(new Set(rejected.map((a) => a.retryAfter))).toEqual(new Set(['1']));
			expect(rejected[0].body.detail).toBe(
				'Request was throttled. Expected available in 1 second.',
			);
			expect(service.tooMany).toEqual({ inFlight: 0, rate: 10 });
			expect(service.requests.filter((r) => r.limitedBy === 'rate')).toHaveLength(10);
		},
	);

	it('gives tokens back at the configured rate, never beyond the bucket', async () => {
		const clock = stillClock();
		const service = await fake({ rateLimitPerSecond: 50, clock: clock.read });
		expect(statuses(await burst(service.url, 50))).toEqual({ 200: 50 });
		expect(statuses(await burst(service.url, 5, 50))).toEqual({ 429: 5 });
		clock.advance(200); // 10 tokens
		expect(statuses(await burst(service.url, 15, 55))).toEqual({ 200: 10, 429: 5 });
		clock.advance(10_000); // a full bucket, not 500 tokens
		expect(statuses(await burst(service.url, 60, 70))).toEqual({ 200: 50, 429: 10 });
		expect(service.tooMany.rate).toBe(20);
	});

	it('says how many seconds until the next token when that is more than one', async () => {
		const clock = stillClock();
		const service = await fake({ rateLimitPerSecond: 0.4, clock: clock.read });
		// Below one per second the bucket still holds one token, else nothing would ever pass.
		expect((await send(service.url, 1)).status).toBe(200);
		const refused = await send(service.url, 2);
		expect(refused).toMatchObject({
			status: 429,
			retryAfter: '3',
			body: { detail: 'Request was throttled. Expected available in 3 seconds.' },
		});
		clock.advance(1000); // 0.4 token: 1.5 s to go
		expect((await send(service.url, 3)).retryAfter).toBe('2');
		clock.advance(1500);
		expect((await send(service.url, 4)).status).toBe(200);
	});

	it('does not count reads against the bucket, and a refused send takes no token', async () => {
		const clock = stillClock();
		const service = await fake({ rateLimitPerSecond: 2, rateLimitBurst: 2, clock: clock.read });
		const reads = await Promise.all(
			Array.from({ length: 10 }, async () => await request(service.url, 'GET', DETAIL_PATH)),
		);
		expect(statuses(reads)).toEqual({ 200: 10 });
		expect(statuses(await burst(service.url, 4))).toEqual({ 200: 2, 429: 2 });
		clock.advance(500); // one token; the two refused sends did not spend it in advance
		expect(statuses(await burst(service.url, 2, 10))).toEqual({ 200: 1, 429: 1 });
	});

	it('without a clock of its own, refills with performance.now() in milliseconds', async () => {
		// The default clock, read on jest's virtual clock: held still while the 30 arrive, then moved a second.
		virtualTime();
		const service = await fake({ rateLimitPerSecond: 20 });
		expect(statuses(await burst(service.url, 30))).toEqual({ 200: 20, 429: 10 });
		jest.advanceTimersByTime(500); // 10 tokens
		expect(statuses(await burst(service.url, 20, 100))).toEqual({ 200: 10, 429: 10 });
		jest.advanceTimersByTime(1000); // 20, the whole bucket
		expect(statuses(await burst(service.url, 25, 200))).toEqual({ 200: 20, 429: 5 });
	});

	it('checks the API key only for sends that got a token, like a gateway in front of the service', async () => {
		const clock = stillClock();
		const service = await fake({ rateLimitPerSecond: 1, clock: clock.read });
		expect((await send(service.url, 1, 'wrong-key')).status).toBe(401);
		expect((await send(service.url, 2, 'wrong-key')).status).toBe(429);
	});

	it('reset() fills the bucket and clears the counts; setLimits() changes and removes limits', async () => {
		const clock = stillClock();
		const service = await fake({ rateLimitPerSecond: 5, clock: clock.read });
		expect(statuses(await burst(service.url, 8))).toEqual({ 200: 5, 429: 3 });
		service.reset();
		expect(service.tooMany).toEqual({ inFlight: 0, rate: 0 });
		expect(statuses(await burst(service.url, 8, 10))).toEqual({ 200: 5, 429: 3 });
		service.setLimits({ rateLimitPerSecond: 10 });
		expect(statuses(await burst(service.url, 12, 20))).toEqual({ 200: 10, 429: 2 });
		service.setLimits({ rateLimitPerSecond: null });
		expect(statuses(await burst(service.url, 30, 40))).toEqual({ 200: 30 });
	});
});

describe('in-flight limit beside the rate limit', () => {
	it('answers 429 above the in-flight limit with the configured Retry-After and counts it apart', async () => {
		// The 10 served hold their slots until the clock moves: all 25 have arrived by then, however slowly.
		virtualTime();
		const service = await fake({ concurrencyLimit: 10, retryAfter: '2', latencyMs: 300 });
		const answers = await burstPastLatency(service, 25, 300);
		expect(statuses(answers)).toEqual({ 200: 10, 429: 15 });
		expect(new Set(answers.filter((a) => a.status === 429).map((a) => a.retryAfter))).toEqual(
			new Set(['2']),
		);
		expect(service.tooMany).toEqual({ inFlight: 15, rate: 0 });
	});

	it('counts only the requests it serves: a refused one holds no slot while its answer travels back', async () => {
		virtualTime();
		const service = await fake({ concurrencyLimit: 1, latencyMs: 400 });
		const arrived = arrivals(service);
		const first = send(service.url, 1); // served, answered at 400 ms on the virtual clock
		await arrived(1);
		jest.advanceTimersByTime(150);
		const refused = send(service.url, 2); // refused at 150 ms, answered at 550 ms
		await arrived(2);
		jest.advanceTimersByTime(250);
		expect((await first).status).toBe(200); // 400 ms: the one slot is free again
		// Still 400 ms, the refused answer not yet out: this one is served (answered at 800 ms).
		const third = send(service.url, 3);
		await arrived(3);
		jest.advanceTimersByTime(150);
		expect((await refused).status).toBe(429);
		jest.advanceTimersByTime(250);
		expect((await third).status).toBe(200);
		expect(service.tooMany.inFlight).toBe(1);
		// It was still open at the service: the peak counts every open request, served or not.
		expect(service.peakInFlight).toBe(2);
	});

	it('applies both: the bucket first, then what is in flight', async () => {
		const clock = stillClock();
		virtualTime();
		const service = await fake({
			concurrencyLimit: 10,
			rateLimitPerSecond: 15,
			latencyMs: 300,
			clock: clock.read,
		});
		const answers = await burstPastLatency(service, 25, 300);
		expect(statuses(answers)).toEqual({ 200: 10, 429: 15 });
		expect(service.tooMany).toEqual({ inFlight: 5, rate: 10 });
	});
});

describe('sandbox limits from the environment', () => {
	it('reads SANDBOX_CONCURRENCY_LIMIT and SANDBOX_RATE_LIMIT, and refuses nonsense', () => {
		expect(
			sandboxOptionsFromEnv({ SANDBOX_CONCURRENCY_LIMIT: '10', SANDBOX_RATE_LIMIT: '50' }),
		).toMatchObject({
			concurrencyLimit: 10,
			rateLimitPerSecond: 50,
		});
		expect(sandboxOptionsFromEnv({})).toMatchObject({
			concurrencyLimit: undefined,
			rateLimitPerSecond: undefined,
		});
		expect(() => sandboxOptionsFromEnv({ SANDBOX_RATE_LIMIT: 'fast' })).toThrow(
			'SANDBOX_RATE_LIMIT must be a positive number, got "fast"',
		);
		expect(() => sandboxOptionsFromEnv({ SANDBOX_CONCURRENCY_LIMIT: '0' })).toThrow(
			'SANDBOX_CONCURRENCY_LIMIT',
		);
	});

	it('starts a sandbox that enforces the rate limit', async () => {
		// Its service keeps the default clock, held still here: no token comes back while the 12 arrive.
		virtualTime();
		const lines: string[] = [];
		const options = sandboxOptionsFromEnv({
			SANDBOX_PORT: '0',
			SANDBOX_API_KEY: API_KEY,
			SANDBOX_RATE_LIMIT: '5',
		});
		const { service, url } = await startSandbox({
			...options,
			log: (line: string) => lines.push(line),
		});
		services.push(service);
		const answers = await burst(url, 12);
		expect(statuses(answers)).toEqual({ 200: 5, 429: 7 });
		expect(lines.filter((l) => l.includes('-> 429'))).toHaveLength(
			answers.filter((a) => a.status === 429).length,
		);
	});
});
