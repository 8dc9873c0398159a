import type { INodeParameters } from 'n8n-workflow';

import { demoTemplates } from '../fake-service/seed';
import type { FakeService } from '../fake-service';
import { runNode } from '../helpers/engine';
import {
	broadcastSend,
	locator,
	mapped,
	useFakeService,
	withOwnService,
} from '../helpers/fixtures';
import { sendTextTo } from '../helpers/parameters';
import { broadcastTurns, MOST_ITEMS_BETWEEN_TURNS, turnsWhileChecking } from '../helpers/eventLoop';

const service = useFakeService();
const SEND_PATH = '/whatsapp/send-template-message';

const phones = (count: number) =>
	Array.from({ length: count }, (_, i) => ({
		phone: `+4915100${String(i).padStart(5, '0')}`,
		name: `Customer ${i}`,
	}));

/** The phones the service accepted a send for, in the order it received them. */
const acceptedPhones = (fake: FakeService) =>
	fake
		.sends(SEND_PATH)
		.filter((r) => r.status === 200)
		.map((r) => r.body.customer_phone);

describe('bounded concurrency', () => {
	test('never more requests in flight than the concurrency option; output in input order, paired', async () => {
		await service.withLatency(30, async () => {
			const items = phones(24);
			const { output, error } = await service.run(broadcastSend({ concurrency: 4 }), {
				items,
			});
			expect(error).toBeUndefined();
			expect(service.fake.peakInFlight).toBe(4);
			expect(
				output.map(
					(item) =>
						item.json.extra && (item.json.extra as { customer_phone: string }).customer_phone,
				),
			).toEqual(items.map((item) => item.phone));
			expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		});
	});

	test(
		'one template detail GET for 50 items of the same template, and the credential read once ' +
			'for all sends',
		async () => {
			const { output, credentialReads } = await service.run(broadcastSend(), {
				items: phones(50),
			});
			expect(output).toHaveLength(50);
			// n8n would otherwise read (and in an instance, load and decrypt) it for every request
			expect(credentialReads).toBe(1);
			expect(
				service.fake.requests.filter((r) => r.path.endsWith('/get-template-detail')),
			).toHaveLength(1);
			expect(service.fake.sends(SEND_PATH)).toHaveLength(50);
		},
	);
});

describe('429 and 503: retried per item, never sent twice', () => {
	// Each test has a service of its own: a pause or pace it leaves behind reaches no other test.
	// How long each pause lasts is the rate-limit policy's, tested on a virtual clock (test/unit/delivery/).
	test('429 with Retry-After: that item waits and is sent once', async () => {
		await withOwnService(async (fake, credentials) => {
			fake.addFault(
				SEND_PATH,
				{ status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'slow down' } },
				1,
			);
			const { output, error } = await runNode({
				parameters: broadcastSend({ concurrency: 1 }),
				credentials,
				items: phones(3),
			});
			expect(error).toBeUndefined();
			expect(fake.sends(SEND_PATH)).toHaveLength(4);
			expect(acceptedPhones(fake)).toEqual(phones(3).map((p) => p.phone));
			expect(output.every((item) => item.json.status === 'ongoing')).toBe(true);
		});
	});

	test('429 without Retry-After: backoff, then sent once', async () => {
		await withOwnService(async (fake, credentials) => {
			fake.addFault(SEND_PATH, { status: 429, body: { detail: 'slow down' } }, 2);
			const { error } = await runNode({
				parameters: broadcastSend(),
				credentials,
				items: phones(1),
			});
			expect(error).toBeUndefined();
			expect(fake.sends(SEND_PATH)).toHaveLength(3);
			expect(acceptedPhones(fake)).toEqual([phones(1)[0].phone]);
		});
	});

	test('503 with Retry-After is retried; 503 without it is not', async () => {
		await withOwnService(async (fake, credentials) => {
			fake.addFault(
				SEND_PATH,
				{ status: 503, headers: { 'Retry-After': '0' }, body: { detail: 'busy' } },
				1,
			);
			expect(
				(await runNode({ parameters: broadcastSend(), credentials, items: phones(1) })).error,
			).toBeUndefined();
			expect(fake.sends(SEND_PATH)).toHaveLength(2);

			fake.reset();
			fake.addFault(SEND_PATH, { status: 503, body: { detail: 'busy' } }, 1);
			const { error } = await runNode({
				parameters: broadcastSend(),
				credentials,
				items: phones(1),
			});
			expect(fake.sends(SEND_PATH)).toHaveLength(1);
			expect(error?.description).toContain('may or may not have been delivered');
		});
	});

	test('a Retry-After longer than the 2-minute progress bound fails the item at once, not sent', async () => {
		await withOwnService(async (fake, credentials) => {
			fake.addFault(SEND_PATH, { status: 429, headers: { 'Retry-After': '3600' }, body: {} }, 1);
			const { error } = await runNode({
				parameters: broadcastSend(),
				credentials,
				items: phones(1),
			});
			expect(error?.message).toContain('Rate limited');
			expect(fake.sends(SEND_PATH)).toHaveLength(1);
		});
	});
});

describe('failures that may have been delivered are never retried', () => {
	test('500 after the request was read: one request, outcome unknown', async () => {
		service.fake.addFault(SEND_PATH, { status: 500 }, 1);
		const { error } = await service.run(broadcastSend(), {
			items: phones(1),
		});
		expect(service.fake.sends(SEND_PATH)).toHaveLength(1);
		expect(error?.message).toBe('The service failed with HTTP 500');
		expect(error?.description).toContain('may or may not have been delivered');
		expect(error?.description).toContain('It was not retried');
	});

	test('connection reset after the request was read: one request, outcome unknown', async () => {
		service.fake.addFault(SEND_PATH, { kind: 'reset-after-read' }, 1);
		const { error } = await service.run(broadcastSend(), {
			items: phones(1),
		});
		expect(service.fake.sends(SEND_PATH)).toHaveLength(1);
		expect(error?.message).toBe('The connection to the service was cut before it answered');
		expect(error?.description).toContain('may or may not have been delivered');
	});

	test('timeout: the send is bounded by the Timeout option; one request, outcome unknown', async () => {
		// The node bounds each request with AbortSignal.timeout (transport/index.ts): which bound it
		// set is read here, not how long the run took. A service that never answers would keep a send
		// without a bound past this test's own timeout; one that ignored the option would get the
		// 30 s default, not 1000.
		const deadlines = jest.spyOn(AbortSignal, 'timeout');
		try {
			service.fake.addFault(SEND_PATH, { kind: 'hang' }, 1);
			const { error } = await service.run(broadcastSend({ timeout: 1000 }), {
				items: phones(1),
			});
			expect(service.fake.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
			expect(deadlines.mock.calls.at(-1)).toEqual([1000]);
			expect(service.fake.sends(SEND_PATH)).toHaveLength(1);
			expect(error?.message).toBe('The service did not answer in time');
			expect(error?.description).toContain('may or may not have been delivered');
		} finally {
			deadlines.mockRestore();
		}
	});
});

describe('mixed success and failure', () => {
	test('with continue on fail: exactly one output per input, paired, in order', async () => {
		const items = phones(6);
		service.fake.addFault(
			SEND_PATH,
			{
				status: 400,
				body: { error: 'Number is not on WhatsApp', code: 'not_whatsapp', success: false },
			},
			1,
		);
		items[3].phone = '12345';
		const { output, error } = await service.run(broadcastSend({ concurrency: 1 }), {
			items,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(6);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		expect(output[0].json.error).toBe('Number is not on WhatsApp');
		expect(output[3].json.error).toContain('Customer Phone (item 3)');
		expect([1, 2, 4, 5].map((i) => output[i].json.status)).toEqual([
			'ongoing',
			'ongoing',
			'ongoing',
			'ongoing',
		]);
		expect(service.fake.sends(SEND_PATH).map((r) => r.body.customer_phone)).not.toContain('12345');
	});

	test('without it: no new send after a failure; the error says what was sent and what was not started', async () => {
		await service.withLatency(20, async () => {
			const items = phones(40);
			// The sixth POST fails; the one in flight beside it settles, the rest never start.
			service.fake.addFault(SEND_PATH, { status: 500 }, 1, 5);
			const { error } = await service.run(broadcastSend({ concurrency: 2 }), {
				items,
			});
			expect(error?.message).toBe('The service failed with HTTP 500');
			const posts = service.fake.sends(SEND_PATH);
			expect(posts.length).toBeLessThan(40);
			const failedPhone = posts.find((r) => r.status === 500)?.body.customer_phone;
			const failedIndex = items.findIndex((i) => i.phone === failedPhone);
			expect(error?.context?.itemIndex).toBe(failedIndex);
			expect(error?.description).toMatch(/Sent: items 0-\d+/);
			expect(error?.description).toContain(`Failed: items ${failedIndex}.`);
			expect(error?.description).toMatch(/Not started: items \d+-39\./);
			expect(error?.description).toContain(
				"Send again only the items that were not sent (n8n's Retry On Fail would send them all again).",
			);
			// every phone reached the service at most once
			const seen = posts.map((r) => r.body.customer_phone);
			expect(new Set(seen).size).toBe(seen.length);
		});
	});
});

describe('template check before sending', () => {
	const cases: Array<[string, INodeParameters, string]> = [
		[
			'a variable has no value',
			{ variables: mapped({ '1': 'Anna', '2': '', '3': 'x' }) },
			'Variables (item 0): template "order_shipped" needs a value for {{2}}',
		],
		[
			'a variable the template lacks',
			{ variables: mapped({ '1': 'a', '2': 'b', '3': 'c', '4': 'd' }) },
			'Variables (item 0): template "order_shipped" has no variable {{4}} (it has {{1}}, {{2}}, {{3}})',
		],
		[
			'a media header without a media URL',
			{ templateId: locator(102), variables: mapped({ '1': 'a', '2': 'b' }) },
			'Header Media URL (item 0): template "spring_offer" has a image header: give the URL of the image to show',
		],
		[
			'a media URL for a text header',
			{ headerMediaUrl: 'https://cdn.example.com/a.jpg' },
			'Header Media URL (item 0): template "order_shipped" has a text header, so it takes no header media',
		],
		[
			'a media URL of the wrong type',
			{
				templateId: locator(102),
				variables: mapped({ '1': 'a', '2': 'b' }),
				headerMediaUrl: 'https://cdn.example.com/a.mp4',
				headerMediaType: 'video',
			},
			'Header Media Type (item 0): template "spring_offer" has a image header, not video',
		],
	];
	test.each(cases)(
		'%s: the item fails naming item, template and field; nothing is sent',
		async (_label, extra, message) => {
			const { error } = await service.run(broadcastSend({}, extra), {
				items: phones(1),
			});
			expect(error?.message).toContain(message);
			expect(service.fake.sends()).toHaveLength(0);
		},
	);

	test('empty values pass when the user allows them', async () => {
		const { error } = await runNode({
			parameters: broadcastSend(
				{ allowEmptyVariables: true },
				{ customerPhone: '+4915123456789', variables: mapped({ '1': 'Anna', '2': '', '3': 'x' }) },
			),
			credentials: service.credentials,
		});
		expect(error).toBeUndefined();
		expect(service.fake.sends()[0].body.attributes).toEqual({ '1': 'Anna', '2': '', '3': 'x' });
	});

	test('with the check off, nothing is fetched and the message goes as given', async () => {
		await runNode({
			parameters: broadcastSend(
				{ validateTemplate: false },
				{ customerPhone: '+4915123456789', variables: mapped({ '1': 'Anna' }) },
			),
			credentials: service.credentials,
		});
		expect(service.fake.requests.map((r) => r.method)).toEqual(['POST']);
	});

	test('an unknown template fails every item with one GET, and sends nothing', async () => {
		const { error } = await service.run(broadcastSend({}, { templateId: locator(999) }), {
			items: phones(5),
		});
		expect(error?.message).toContain('Template 999 of channel 12 could not be loaded (item 0)');
		expect(service.fake.requests).toHaveLength(1);
	});
});

describe('broken input', () => {
	test('an expression that fails for one item names the item, and nothing is sent', async () => {
		const { error } = await runNode({
			parameters: broadcastSend(
				{},
				{
					customerPhone:
						'={{ $json.contact === "bad" ? $("No Such Node").item.json.phone : $json.contact }}',
				},
			),
			credentials: service.credentials,
			items: [
				{ name: 'Ann', contact: '+4915100000001' },
				{ name: 'Bo', contact: 'bad' },
			],
		});
		expect(error?.message).toContain('Item 1: a parameter could not be read');
		expect(error?.description).toContain('No message was sent for any item');
		expect(error?.description).not.toContain('delivered');
		expect(service.fake.sends()).toHaveLength(0);
	});
});

describe('rendered message and dry run', () => {
	test(
		'rendered fills repeated placeholders and leaves a missing one visible; the service fields ' +
			'stay untouched',
		async () => {
			const { output } = await runNode({
				parameters: broadcastSend(
					{ includeRenderedMessage: true, validateTemplate: false },
					{
						templateId: locator(105),
						customerPhone: '+4915123456789',
						variables: mapped({ '1': 'Anna' }),
					},
				),
				credentials: service.credentials,
			});
			expect(output[0].json).toMatchObject({
				function_name: 'send_template_message',
				status: 'ongoing',
			});
			expect(output[0].json.rendered).toEqual({
				header: { type: 'text', text: 'Reminder' },
				body: 'Hi Anna! Reminder: Anna, your appointment is on {{2}}. See you then, Anna, and thank you.',
				footer: null,
				buttons: [],
			});
		},
	);

	test('a header type in capitals (as Meta writes it) renders the same', async () => {
		service.fake.setTemplates(12, [
			{
				id: 201,
				name: 'caps',
				body: 'Hi {{1}}',
				header: { type: 'TEXT', value: 'Hello' },
				attributes: [{ attribute: '1' }],
			},
		]);
		try {
			const { output } = await runNode({
				parameters: broadcastSend(
					{ dryRun: true },
					{ templateId: locator(201), variables: mapped({ '1': 'Anna' }) },
				),
				credentials: service.credentials,
				items: phones(1),
			});
			expect(output[0].json.rendered).toMatchObject({
				header: { type: 'text', text: 'Hello' },
				body: 'Hi Anna',
			});
		} finally {
			service.fake.setTemplates(12, demoTemplates());
		}
	});

	test('dry run: every check runs, the exact request is shown, nothing is sent', async () => {
		const items = phones(3);
		items[1].phone = 'nope';
		const { output, hints } = await service.run(broadcastSend({ dryRun: true }), {
			items,
			continueOnFail: true,
		});
		expect(service.fake.sends()).toHaveLength(0);
		expect(output).toHaveLength(3);
		expect(output[0].json).toEqual({
			dryRun: true,
			request: {
				method: 'POST',
				path: '/stable/open/whatsapp/send-template-message',
				body: {
					template_id: '101',
					channel_id: '12',
					customer_phone: items[0].phone,
					attributes: { '1': 'Customer 0', '2': '1042', '3': 'Friday' },
				},
			},
			rendered: {
				header: { type: 'text', text: 'Your order is on its way' },
				body: 'Hi Customer 0, your order 1042 has shipped and arrives on Friday. Track it below.',
				footer: 'Reply STOP to opt out',
				buttons: [{ type: 'url', title: 'Track order', value: 'https://shop.example.com/track' }],
			},
		});
		expect(output[1].json.error).toContain('Customer Phone (item 1)');
		expect(hints.map((h) => h.message)).toContain(
			'Dry run: 2 message(s) checked and built. Nothing was sent.',
		);
	});

	test('dry run works for plain text sends too', async () => {
		const { output } = await service.run(sendTextTo('7', 'hi', { options: { dryRun: true } }));
		expect(service.fake.requests).toHaveLength(0);
		expect(output[0].json).toEqual({
			dryRun: true,
			request: {
				method: 'POST',
				path: '/stable/open/customers/send-text-message',
				body: { customer_id: '7', text: 'hi' },
			},
			rendered: { body: 'hi' },
		});
	});
});

describe("n8n's event loop while thousands are checked and sent", () => {
	/** Enough recipients that a check holding the loop is plain, few enough for every CI run. */
	const RECIPIENTS = 2000;
	const broadcast = async (options: { continueOnFail?: boolean } = {}) =>
		await broadcastTurns(
			service.fake,
			phones(RECIPIENTS),
			async (items) =>
				await service.run(broadcastSend({ validateTemplate: false }), { items, ...options }),
		);

	test(
		"one bad item stops the run (n8n's default): every item is checked before the first send, " +
			'the event loop turning throughout',
		async () => {
			const { result, firstSendAt, phoneReadAt } = await broadcast();
			expect(result.output.length).toBe(RECIPIENTS);
			expect(result.error).toBeUndefined();
			expect(Math.max(...phoneReadAt)).toBeLessThanOrEqual(firstSendAt);
			expect(turnsWhileChecking(phoneReadAt)).toBeGreaterThanOrEqual(
				Math.floor(RECIPIENTS / MOST_ITEMS_BETWEEN_TURNS),
			);
		},
		120_000,
	);

	test(
		// The items reach the node as given only without a node before it, so Continue rather than the
		// error output (which the olderN8n and e2e tests run).
		'continue on fail: the first message leaves while the other items are still being checked, ' +
			'the event loop turning throughout',
		async () => {
			const { result, firstSendAt, phoneReadAt } = await broadcast({ continueOnFail: true });
			expect(result.output).toHaveLength(RECIPIENTS);
			expect(result.output.filter((item) => item.json.error)).toEqual([]);
			expect(firstSendAt).toBeLessThan(phoneReadAt[MOST_ITEMS_BETWEEN_TURNS]);
			expect(turnsWhileChecking(phoneReadAt)).toBeGreaterThanOrEqual(
				Math.floor(RECIPIENTS / MOST_ITEMS_BETWEEN_TURNS),
			);
		},
		120_000,
	);
});
