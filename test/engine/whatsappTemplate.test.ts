import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import { locator, mapped, useFakeService } from '../helpers/fixtures';
import { getTemplate, getTemplates } from '../helpers/parameters';

const service = useFakeService();

const send = (extra: INodeParameters): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId: 12,
	templateId: locator(101),
	customerPhone: '+49 151 2345 6789',
	variables: mapped({ '1': 'Anna', '2': '1042', '3': 'Friday' }),
	...extra,
});

describe('WhatsApp Template → Send', () => {
	test('posts the exact body: ids as strings, normalized phone, attributes keyed by position', async () => {
		const { output, error } = await service.run(send({}));
		expect(error).toBeUndefined();
		const posts = service.fake.sends('/whatsapp/send-template-message');
		expect(posts).toHaveLength(1);
		expect(posts[0].body).toEqual({
			template_id: '101',
			channel_id: '12',
			customer_phone: '+4915123456789',
			attributes: { '1': 'Anna', '2': '1042', '3': 'Friday' },
		});
		expect(output[0].json).toMatchObject({
			function_name: 'send_template_message',
			status: 'ongoing',
			message: 'Template message queued',
			extra: {
				platform_id: 12,
				customer_phone: '+4915123456789',
				template_id: '101',
				success: true,
			},
		});
	});

	test('the template check reads the detail with integer query parameters', async () => {
		await runNode({ parameters: send({}), credentials: service.credentials });
		const detail = service.fake.requests.find((r) => r.path.endsWith('/get-template-detail'));
		expect(detail?.query).toEqual({ platform_id: '12', template_id: '101' });
	});

	test('variables from expressions: numbers and dates become strings', async () => {
		await runNode({
			parameters: send({
				customerPhone: '={{ $json.phone }}',
				variables: mapped({
					'1': '={{ $json.name }}',
					'2': '={{ $json.order }}',
					'3': '={{ $json.when }}',
				}),
			}),
			credentials: service.credentials,
			items: [
				{ phone: '0049 170 1234567', name: 'Anna', order: 1042, when: '2026-12-01T10:00:00.000Z' },
			],
		});
		expect(service.fake.sends()[0].body.attributes).toEqual({
			'1': 'Anna',
			'2': '1042',
			'3': '2026-12-01T10:00:00.000Z',
		});
		expect(service.fake.sends()[0].body.customer_phone).toBe('+491701234567');
	});

	test('header media goes out as attachment: { <template header type>: url }', async () => {
		await runNode({
			parameters: send({
				templateId: locator(102),
				variables: mapped({ '1': 'Anna', '2': '20' }),
				headerMediaUrl: 'https://cdn.example.com/spring.jpg',
			}),
			credentials: service.credentials,
		});
		expect(service.fake.sends()[0].body).toEqual({
			template_id: '102',
			channel_id: '12',
			customer_phone: '+4915123456789',
			attributes: { '1': 'Anna', '2': '20' },
			attachment: { image: 'https://cdn.example.com/spring.jpg' },
		});
	});

	test('an explicit media type is used as given, even with the template check off', async () => {
		await runNode({
			parameters: send({
				templateId: locator(103),
				variables: mapped({ '1': 'Anna' }),
				headerMediaUrl: 'https://cdn.example.com/inv.pdf',
				headerMediaType: 'document',
				options: { validateTemplate: false },
			}),
			credentials: service.credentials,
		});
		expect(service.fake.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
		expect(service.fake.sends()[0].body.attachment).toEqual({
			document: 'https://cdn.example.com/inv.pdf',
		});
	});

	test('no attachment and no attributes are sent when there are none', async () => {
		await service.run(send({ templateId: locator(104), variables: mapped({}) }));
		expect(service.fake.sends()[0].body).toEqual({
			template_id: '104',
			channel_id: '12',
			customer_phone: '+4915123456789',
		});
	});

	test('JSON variables work where the template comes from an expression', async () => {
		const { error } = await runNode({
			parameters: send({
				templateId: locator('={{ $json.template }}'),
				variablesMode: 'json',
				variablesJson: '={{ JSON.stringify({ "1": $json.name, "2": $json.order, "3": "soon" }) }}',
			}),
			credentials: service.credentials,
			items: [{ template: 101, name: 'Anna', order: 7 }],
		});
		expect(error).toBeUndefined();
		expect(service.fake.sends()[0].body.attributes).toEqual({ '1': 'Anna', '2': '7', '3': 'soon' });
	});

	test.each([
		['0151 2345678', 'must start with + and the country code'],
		['+0 151 2345678', 'the first not 0'],
		['+49', '7 to 15 digits'],
		['+49 151 2345 6789 0000 1', '7 to 15 digits'],
		['call me', 'must start with +'],
	])('phone %j fails the item, naming item and value, nothing sent', async (phone, reason) => {
		const { error } = await service.run(send({ customerPhone: phone }));
		expect(error?.message).toContain(
			`Customer Phone (item 0): ${JSON.stringify(phone)} is not a valid phone number`,
		);
		expect(error?.message).toContain(reason);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('a header media URL that is not http(s) fails the item', async () => {
		const { error } = await runNode({
			parameters: send({
				templateId: locator(102),
				variables: mapped({ '1': 'a', '2': 'b' }),
				headerMediaUrl: 'file:///etc/passwd',
			}),
			credentials: service.credentials,
		});
		expect(error?.message).toContain(
			'Header Media URL (item 0): the scheme "file:" is not allowed',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('a channel ID that is not a whole number fails the item', async () => {
		const { error } = await service.run(send({ channelId: '={{ "twelve" }}' }));
		expect(error?.message).toBe(
			'Channel (item 0): "twelve" is not a channel ID: give the channel\'s number, for example 12',
		);
		expect(service.fake.requests).toHaveLength(0);
	});
});

describe('WhatsApp Template → Get', () => {
	test('outputs the template object, unknown fields untouched', async () => {
		const { output, error } = await service.run(getTemplate(12, 103));
		expect(error).toBeUndefined();
		expect(service.fake.requests).toHaveLength(1);
		expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-template-detail');
		expect(service.fake.requests[0].query).toEqual({ platform_id: '12', template_id: '103' });
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			id: 103,
			name: 'invoice_ready',
			header: { type: 'document' },
		});
		expect((output[0].json.buttons as Array<Record<string, unknown>>)[0].verbose).toBe(
			'extra field',
		);
	});

	test('a template ID from an expression is sent as an integer', async () => {
		await service.run(getTemplate('={{ $json.ch }}', '={{ $json.t }}'), {
			items: [{ ch: '12', t: 105 }],
		});
		expect(service.fake.requests[0].query).toEqual({ platform_id: '12', template_id: '105' });
	});

	test('an unknown template is a readable 404 error', async () => {
		const { error } = await service.run(getTemplate(12, 999));
		expect(error?.message).toBe('The service has no such resource (404)');
		expect(error?.description).toContain('Check the base URL');
	});
});

describe('WhatsApp Template → Get Many', () => {
	test('one item per template, capped by limit', async () => {
		const { output } = await service.run(getTemplates(12, { returnAll: false, limit: 3 }));
		expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-template-list');
		expect(service.fake.requests[0].query).toEqual({ platform_id: '12' });
		expect(output.map((item) => item.json.id)).toEqual([101, 102, 103]);
	});

	test('return all outputs every template', async () => {
		const { output } = await service.run(getTemplates(12, { returnAll: true }));
		expect(output.map((item) => item.json.name)).toEqual([
			'order_shipped',
			'spring_offer',
			'invoice_ready',
			'opening_hours',
			'appointment_reminder',
			'product_video',
			'voice_note',
		]);
	});
});

describe('Channel: a locator, and a plain number saved before 0.2.0, in every template operation', () => {
	const operations: Array<[string, INodeParameters, string, Record<string, string>]> = [
		['Send', send({}), '/whatsapp/send-template-message', {}],
		[
			'Get',
			{ resource: 'whatsappTemplate', operation: 'get', templateId: locator(101) },
			'/whatsapp/get-template-detail',
			{ platform_id: '12', template_id: '101' },
		],
		[
			'Get Many',
			{ resource: 'whatsappTemplate', operation: 'getAll', returnAll: true },
			'/whatsapp/get-template-list',
			{ platform_id: '12' },
		],
	];
	test.each(operations)(
		'%s sends the same request for 12, {mode: list} 12 and {mode: id} 12',
		async (_name, parameters, path, query) => {
			const seen: unknown[] = [];
			for (const channelId of [12, locator(12, 'list'), locator(12)]) {
				service.fake.reset();
				const { output, error } = await service.run({ ...parameters, channelId });
				expect(error).toBeUndefined();
				// Send outputs the service's answer for the one item; Get the template; Get Many the channel's templates.
				const shown = output.map((item) =>
					path.includes('send') ? item.json.status : item.json.id,
				);
				expect(shown).toEqual(expect.arrayContaining([path.includes('send') ? 'ongoing' : 101]));
				const request = service.fake.requests.find((r) => r.path === `/stable/open${path}`);
				expect(request?.query).toEqual(query);
				seen.push(request?.method === 'POST' ? request.body : request?.query);
			}
			expect(seen[1]).toEqual(seen[0]);
			expect(seen[2]).toEqual(seen[0]);
		},
	);
});
