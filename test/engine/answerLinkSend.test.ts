/*
 * The Answer Link option of Message → Send Text and WhatsApp Template → Send, run through n8n's
 * engine against the fake service: each item's message carries its own link, sealed for its
 * recipient and reference under the credential's API key; bad input stops that item, naming it
 * and the field, and quotes none of what the link hides.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { linkKey, openLink } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import {
	API_KEY,
	broadcastSend,
	mapped,
	sendTextTo,
	serializeEverything,
	useFakeService,
} from '../helpers/fixtures';

const service = useFakeService();

const TRIGGER = '4f7c1a52-9a0e-4d43-8c55-0f1e2d3c4b5a';
const TRIGGER_URL = `https://n8n.example.com/webhook/${TRIGGER}`;
const LINK = new RegExp(`^${TRIGGER_URL.replace(/[.]/g, '\\.')}\\?a=([A-Za-z0-9_-]+)$`);
const DAY = 86_400_000;

const answerLink = (values: IDataObject = {}): INodeParameters => ({
	answerLink: {
		values: {
			triggerUrl: TRIGGER_URL,
			reference: '={{ $json.ref }}',
			validFor: 7,
			validForUnit: 'days',
			...values,
		},
	},
});

/** Opens a link as the trigger at TRIGGER_URL does, at `now`. */
function opened(link: string, now = new Date()) {
	const token = LINK.exec(link)?.[1];
	const read = openLink(token, linkKey(API_KEY, TRIGGER), now);
	if (!read.ok) throw new Error(`the link does not open: ${read.reason}`);
	return read.facts;
}

const CUSTOMERS = [
	{ id: '4001', text: 'Can you come on Tuesday?', ref: 'appointment-981' },
	{ id: 4002, text: 'Can you come on Wednesday?', ref: 'appointment-982' },
	{ id: '4003', text: 'Can you come on Thursday?', ref: '' },
];

describe('Message → Send Text with an Answer Link', () => {
	const send = (values: IDataObject = {}, extra: INodeParameters = {}) =>
		sendTextTo('={{ $json.id }}', '={{ $json.text }}', {
			options: answerLink(values),
			...extra,
		});

	test('each text ends with its own link under the label, sealed for its customer and reference', async () => {
		const { output, error } = await service.run(send(), { items: CUSTOMERS });
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.status)).toEqual(['sent', 'sent', 'sent']);
		const texts = service.fake.requests.map((request) => String(request.body.text));
		const links = texts.map((text) => text.split('\n').at(-1) ?? '');
		expect(new Set(links).size).toBe(3);
		texts.forEach((text, index) => {
			expect(text).toBe(`${CUSTOMERS[index].text}\n\nAnswer here:\n${links[index]}`);
			const facts = opened(links[index]);
			expect(facts.recipient).toEqual({ customerId: String(CUSTOMERS[index].id) });
			expect(facts.reference).toBe(CUSTOMERS[index].ref);
			expect(facts.sentAt.getTime() % 1000).toBe(0);
			expect(facts.expiresAt.getTime() - facts.sentAt.getTime()).toBeGreaterThanOrEqual(7 * DAY);
			expect(facts.expiresAt.getTime() - facts.sentAt.getTime()).toBeLessThanOrEqual(
				7 * DAY + 1000,
			);
			expect(links[index].length - TRIGGER_URL.length).toBeLessThanOrEqual(160);
			expect(links[index]).not.toContain(String(CUSTOMERS[index].id));
		});
		expect(links[0]).not.toContain('appointment');
	});

	test('an empty Link Label leaves the link alone on its line; Valid for in hours', async () => {
		await service.run(send({ linkLabel: '', validFor: 36, validForUnit: 'hours' }), {
			items: [CUSTOMERS[0]],
		});
		const text = String(service.fake.requests[0].body.text);
		const [message, link] = text.split('\n\n');
		expect(message).toBe(CUSTOMERS[0].text);
		const facts = opened(link);
		expect(facts.expiresAt.getTime() - facts.sentAt.getTime()).toBeGreaterThanOrEqual(
			36 * 3_600_000,
		);
		expect(opened(link, new Date(facts.sentAt.getTime() + 35 * 3_600_000)).reference).toBe(
			CUSTOMERS[0].ref,
		);
		expect(openLink(LINK.exec(link)?.[1], linkKey(API_KEY, TRIGGER), facts.expiresAt)).toEqual({
			ok: false,
			reason: 'expired',
		});
	});

	/** Item 1's `field` is `bad`; the other items' is good. */
	const GOOD: IDataObject = { triggerUrl: TRIGGER_URL, reference: 'appointment-982', validFor: 7 };
	const badForItem1 = (field: string, bad: unknown) => ({
		[field]: `={{ $json.bad ? ${JSON.stringify(bad)} : ${JSON.stringify(GOOD[field])} }}`,
	});

	test.each([
		['reference', 'x'.repeat(65), 'Reference (item 1): it is 65 characters long: keep it to 64'],
		[
			'reference',
			'ä'.repeat(33),
			'Reference (item 1): it is 66 characters long (letters such as ä or é count as 2): keep it to 64',
		],
		[
			'triggerUrl',
			'',
			"Trigger URL (item 1): it is empty: copy the trigger's Production URL from its panel",
		],
		['triggerUrl', 'n8n.example.com/webhook/x', 'Trigger URL (item 1): it is not a URL'],
		[
			'triggerUrl',
			`https://n8n.example.com/webhook-test/${TRIGGER}`,
			'Trigger URL (item 1): it is a test or waiting URL',
		],
		['triggerUrl', `${TRIGGER_URL}?x=1`, 'Trigger URL (item 1): it has a query'],
		[
			'triggerUrl',
			'https://n8n.example.com/webhook/%E0%A4%A',
			'Trigger URL (item 1): its path is not valid',
		],
		[
			'triggerUrl',
			'ftp://n8n.example.com/webhook/x',
			'Trigger URL (item 1): it must start with https://',
		],
		['validFor', 0, 'Valid for (item 1): it must be a number above 0'],
		['validFor', 400, 'Valid for (item 1): it must be at most 365 days'],
		['validFor', 'soon', 'Valid for (item 1): it must be a number above 0'],
	])(
		'%s %j stops item 1, naming it and the field; nothing is sent',
		async (field, bad, message) => {
			const items = CUSTOMERS.map((customer, index) => ({ ...customer, bad: index === 1 }));
			const { error } = await service.run(send(badForItem1(field, bad)), { items });
			expect(error?.message).toContain(message);
			expect(error?.description).toContain('No message was sent for any item');
			expect(service.fake.requests).toHaveLength(0);
			// What the error says: no reference (neither the bad one nor a good one), no customer ID.
			const words = `${error?.message}\n${error?.description}`;
			for (const hidden of ['appointment-98', '4002', 'xxxxxxxx', 'ääää', API_KEY])
				expect(words).not.toContain(hidden);
			expect(serializeEverything(error)).not.toContain(API_KEY);
		},
	);

	test("a customer ID that is not the service's number is refused for a link, without quoting it", async () => {
		const { error } = await service.run(send(), {
			items: [{ id: 'anna@example.com', text: 'Hi', ref: 'r' }],
		});
		expect(error?.message).toBe(
			"Customer ID (item 0): an answer link names the customer by the service's numeric customer " +
				'ID (up to 30 digits), and this one is not',
		);
		expect(service.fake.requests).toHaveLength(0);
	});

	test('with On Error: Continue, a bad item comes out as its error and the others are sent', async () => {
		const items = [CUSTOMERS[0], { ...CUSTOMERS[1], ref: 'y'.repeat(70) }, CUSTOMERS[2]];
		const { output } = await service.run(send(), { items, continueOnFail: true });
		expect(output.map((item) => item.json.status ?? item.json.error)).toEqual([
			'sent',
			'Reference (item 1): it is 70 characters long: keep it to 64',
			'sent',
		]);
		expect(service.fake.requests.map((request) => request.body.customer_id)).toEqual([
			'4001',
			'4003',
		]);
	});

	test('without the option, the text is sent as it is', async () => {
		await service.run(sendTextTo('4001', 'Hello'));
		expect(service.fake.requests[0].body).toEqual({ customer_id: '4001', text: 'Hello' });
	});
});

describe('WhatsApp Template → Send with an Answer Link', () => {
	const PEOPLE = [
		{ phone: '+49 151 2345 6789', name: 'Anna', ref: 'crm-1' },
		{ phone: '0049 151 2345 6790', name: 'Bo', ref: 'crm-2' },
		{ phone: '+1 415 555 0100', name: 'Cy', ref: 'crm-3' },
	];
	const send = (
		values: IDataObject = { linkVariable: 3 },
		variables: Record<string, string> = { '1': '={{ $json.name }}', '2': '1042' },
	) => broadcastSend(answerLink(values), { variables: mapped(variables) });

	test('each message carries its own link in the Link Variable, sealed for the number it goes to', async () => {
		const { output, error } = await service.run(send(), { items: PEOPLE });
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.status)).toEqual(['ongoing', 'ongoing', 'ongoing']);
		const posts = service.fake.sends('/whatsapp/send-template-message');
		expect(posts.map((post) => post.body.customer_phone)).toEqual([
			'+4915123456789',
			'+4915123456790',
			'+14155550100',
		]);
		posts.forEach((post, index) => {
			const { attributes } = post.body as { attributes: Record<string, string> };
			expect(attributes['1']).toBe(PEOPLE[index].name);
			const facts = opened(attributes['3']);
			expect(facts.recipient).toEqual({ phone: post.body.customer_phone });
			expect(facts.reference).toBe(PEOPLE[index].ref);
			expect(attributes['3']).not.toContain('4915123');
		});
	});

	test('a value mapped into the Link Variable before the mapper left it out gives way to the link', async () => {
		const { error } = await service.run(
			send({ linkVariable: 3 }, { '1': 'x', '2': '1042', '3': 'Friday' }),
			{ items: [PEOPLE[0]] },
		);
		expect(error).toBeUndefined();
		const [post] = service.fake.sends('/whatsapp/send-template-message');
		const { attributes } = post.body as { attributes: Record<string, string> };
		expect(opened(attributes['3']).recipient).toEqual({ phone: '+4915123456789' });
	});

	test('a Link Variable the template does not have is refused by the template check', async () => {
		const variables = { '1': 'Anna', '2': '1042', '3': 'Friday' };
		const { error } = await service.run(send({ linkVariable: 4 }, variables), {
			items: [PEOPLE[0]],
		});
		expect(error?.message).toContain('Variables (item 0)');
		expect(error?.message).toContain('{{4}}');
		expect(service.fake.sends('/whatsapp/send-template-message')).toHaveLength(0);
	});
});
