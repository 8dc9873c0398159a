import { TemplateCache } from '../../../nodes/OmnichannelMessaging/delivery/templateCache';
import { VirtualClock, settle } from '../../helpers/virtualClock';

const FRESH_MS = 300_000;

/** A read the test answers when it likes; `count` says how many were started. */
function reads() {
	const started: Array<{ resolve(value: string): void; reject(error: Error): void }> = [];
	const read = async () =>
		await new Promise<string>((resolve, reject) => started.push({ resolve, reject }));
	return { read, started, count: () => started.length };
}

/** The next caller starts a second read and is answered by it, not by a held answer. */
async function expectSecondRead(
	cache: TemplateCache,
	{ read, started, count }: ReturnType<typeof reads>,
	value: string,
) {
	const again = cache.get('t', read);
	expect(count()).toBe(2);
	started[1].resolve(value);
	expect(await again).toEqual({ value, held: false });
}

describe('TemplateCache', () => {
	let clock: VirtualClock;
	let cache: TemplateCache;
	beforeEach(() => {
		clock = new VirtualClock();
		cache = new TemplateCache({ freshMs: FRESH_MS }, clock);
	});

	test(
		'one read serves every caller for freshMs from the moment it started; then the next caller ' +
			'reads again',
		async () => {
			const { read, started, count } = reads();
			const first = cache.get('t', read);
			await clock.advance(1_000);
			started[0].resolve('v1');
			expect(await first).toEqual({ value: 'v1', held: false });
			await clock.advance(FRESH_MS - 1_001);
			expect(await cache.get('t', read)).toEqual({ value: 'v1', held: true });
			expect(count()).toBe(1);
			await clock.advance(1);
			await expectSecondRead(cache, { read, started, count }, 'v2');
		},
	);

	test('callers while a read is in flight join it: one read, and none of them is told it was held', async () => {
		const { read, started, count } = reads();
		const callers = [cache.get('t', read), cache.get('t', read), cache.get('t', read, true)];
		started[0].resolve('v');
		expect(await Promise.all(callers)).toEqual([0, 1, 2].map(() => ({ value: 'v', held: false })));
		expect(count()).toBe(1);
	});

	test('a failed read is held by no one: each waiting caller gets the failure, the next one reads again', async () => {
		const { read, started, count } = reads();
		const callers = [cache.get('t', read), cache.get('t', read)];
		started[0].reject(new Error('502'));
		await expect(callers[0]).rejects.toThrow('502');
		await expect(callers[1]).rejects.toThrow('502');
		await expectSecondRead(cache, { read, started, count }, 'v');
	});

	test('fresh passes over a held answer; drop forgets it; other keys are read on their own', async () => {
		const { read, started, count } = reads();
		const first = cache.get('t', read);
		started[0].resolve('old');
		await first;
		const fresh = cache.get('t', read, true);
		started[1].resolve('new');
		expect(await fresh).toEqual({ value: 'new', held: false });
		expect(await cache.get('t', read)).toEqual({ value: 'new', held: true });
		cache.drop('t');
		const other = cache.get('other', read);
		const dropped = cache.get('t', read);
		expect(count()).toBe(4);
		started[2].resolve('o');
		started[3].resolve('t');
		expect(await Promise.all([other, dropped])).toEqual([
			{ value: 'o', held: false },
			{ value: 't', held: false },
		]);
		await settle();
	});
});
