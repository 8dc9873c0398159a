/**
 * A channel with 5,000 templates: the template dropdown filters by the search text and pages 100
 * at a time (paginationToken), the variables mapper loads only the chosen template, and Get Many
 * returns all 5,000 with Return All, and Limit otherwise. Timings are printed.
 */
import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { mapperFields, searchList } from '../helpers/engine';
import { getTemplates } from '../helpers/parameters';
import { runBounded } from './support/run';
import { DETAIL_PATH } from './support/spec';

jest.setTimeout(60_000);

const API_KEY = 'robustness-large-channel-key';
const CHANNEL = 50;
const COUNT = 5000;

let fake: FakeService;
const timings: string[] = [];

function bigChannel() {
	return Array.from({ length: COUNT }, (_, i) => {
		const id = 10_000 + i;
		const kind = i % 10 === 0 ? 'order_update' : i % 3 === 0 ? 'Promo' : 'reminder';
		return {
			id,
			name: `${kind}_${String(i).padStart(4, '0')}`,
			body: `Hi {{1}}, message ${i} for {{2}}.`,
			header: {
				type: i % 7 === 0 ? 'image' : 'text',
				value: i % 7 === 0 ? 'https://cdn.example.com/a.png' : 'Hello',
			},
			footer: '',
			buttons: [],
			attributes: [{ attribute: '1' }, { attribute: '2' }],
			status: 'APPROVED',
		};
	});
}

const templates = bigChannel();

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	fake.setTemplates(CHANNEL, templates);
});
afterAll(async () => {
	await fake.close();
	console.log(`5,000-template channel:\n${timings.join('\n')}`);
});
beforeEach(() => fake.reset());

const credentials = () => ({ baseUrl: fake.url, apiKey: API_KEY });

async function allPages(filter?: string) {
	const names: string[] = [];
	const pageTimes: number[] = [];
	let token: string | undefined;
	let pages = 0;
	do {
		const started = Date.now();
		const page = await searchList(
			'searchTemplates',
			{ channelId: CHANNEL },
			credentials(),
			filter,
			token,
		);
		pageTimes.push(Date.now() - started);
		expect(page.results.length).toBeLessThanOrEqual(100);
		for (const result of page.results) {
			expect(typeof result.value).toBe('string');
			names.push(result.name.split(' — ')[0]);
		}
		token = page.paginationToken as string | undefined;
		pages += 1;
		if (token !== undefined) expect(page.results).toHaveLength(100);
	} while (token !== undefined && pages < 100);
	return { names, pages, pageTimes };
}

describe('5,000 templates in one channel', () => {
	test('the dropdown pages 100 at a time through all of them', async () => {
		const { names, pages, pageTimes } = await allPages();
		expect(pages).toBe(50);
		expect(new Set(names).size).toBe(COUNT);
		expect(names).toEqual(templates.map((t) => t.name));
		const worst = Math.max(...pageTimes);
		timings.push(
			`  dropdown, no filter: 50 pages, first ${pageTimes[0]} ms, slowest ${worst} ms, mean ` +
				`${Math.round(pageTimes.reduce((a, b) => a + b, 0) / pages)} ms per page (each page reads ` +
				`the whole list: ${fake.requests.length} list requests)`,
		);
		// One list request per page, however long the list: the time each page takes is logged, not asserted.
		expect(fake.requests).toHaveLength(pages);
	});

	test.each([
		['order', COUNT / 10],
		['ORDER_UPDATE_00', 10],
		['promo', templates.filter((t) => t.name.toLowerCase().includes('promo')).length],
		['  reminder_4999  ', 1],
		['no such template', 0],
		['😀', 0],
		['{{1}}', 0],
	])('search "%s" finds only matching names, case-insensitively', async (filter, expected) => {
		const { names, pageTimes } = await allPages(filter);
		expect(names).toHaveLength(expected);
		const needle = filter.trim().toLowerCase();
		for (const name of names) expect(name.toLowerCase()).toContain(needle);
		timings.push(
			`  dropdown, search ${JSON.stringify(filter)}: ${names.length} match(es), ` +
				`${pageTimes.length} page(s), slowest ${Math.max(...pageTimes)} ms`,
		);
	});

	test('an odd pagination token gives a page (at most 100), never an error', async () => {
		for (const token of ['abc', '-5', '1e9', '']) {
			const page = await searchList(
				'searchTemplates',
				{ channelId: CHANNEL },
				credentials(),
				undefined,
				token,
			);
			expect(page.results.length).toBeLessThanOrEqual(100);
		}
	});

	test("the mapper loads one template's detail and never the list", async () => {
		const started = Date.now();
		const fields = await mapperFields(
			'getTemplateVariables',
			{
				resource: 'whatsappTemplate',
				operation: 'send',
				channelId: CHANNEL,
				templateId: { __rl: true, mode: 'list', value: '14321' },
			} as never,
			credentials(),
		);
		const ms = Date.now() - started;
		expect(fields.fields.map((f) => f.id)).toEqual(['1', '2']);
		expect(fake.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', DETAIL_PATH, { platform_id: String(CHANNEL), template_id: '14321' }],
		]);
		timings.push(
			`  mapper for one template: ${ms} ms, ${fake.requests.length} request (get-template-detail)`,
		);
	});

	test('Get Many returns all 5,000 with Return All, and Limit otherwise', async () => {
		let started = Date.now();
		const all = await runBounded({
			parameters: getTemplates(CHANNEL, { returnAll: true }),
			credentials: credentials(),
		});
		const allMs = Date.now() - started;
		expect(all.error).toBeUndefined();
		expect(all.output).toHaveLength(COUNT);
		expect(all.output.map((o) => o.json.id)).toEqual(templates.map((t) => t.id));
		expect(all.output.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);

		started = Date.now();
		const some = await runBounded({
			parameters: {
				resource: 'whatsappTemplate',
				operation: 'getAll',
				channelId: CHANNEL,
				returnAll: false,
				limit: 10,
			},
			credentials: credentials(),
		});
		const someMs = Date.now() - started;
		expect(some.output.map((o) => o.json.id)).toEqual(templates.slice(0, 10).map((t) => t.id));

		const byDefault = await runBounded({
			parameters: { resource: 'whatsappTemplate', operation: 'getAll', channelId: CHANNEL },
			credentials: credentials(),
		});
		expect(byDefault.output).toHaveLength(50);
		expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
		timings.push(`  Get Many, Return All: ${COUNT} items in ${allMs} ms; Limit 10: ${someMs} ms`);
	});
});
