import { mapperFields, searchList } from '../helpers/engine';
import { locator, useFakeService } from '../helpers/fixtures';

const service = useFakeService();

describe('template dropdown (searchTemplates)', () => {
	test("lists the channel's templates with name and the start of the body", async () => {
		const result = await searchList(
			'searchTemplates',
			{ resource: 'whatsappTemplate', operation: 'send', channelId: 12 },
			service.credentials,
		);
		expect(service.fake.requests).toHaveLength(1);
		expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-template-list');
		expect(service.fake.requests[0].query).toEqual({ platform_id: '12' });
		expect(result.results).toHaveLength(7);
		expect(result.results[0]).toEqual({
			name: 'order_shipped — Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}…',
			value: '101',
			description: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}…',
		});
		expect(result.results[4].name).toBe(
			'appointment_reminder — Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. Se…',
		);
		expect(result.paginationToken).toBeUndefined();
	});

	test('filters by name, case-insensitively', async () => {
		const result = await searchList(
			'searchTemplates',
			{ channelId: 12 },
			service.credentials,
			'OFFER',
		);
		expect(result.results.map((r) => r.value)).toEqual(['102']);
	});

	test('re-loads for another channel', async () => {
		service.fake.setTemplates(13, [
			{ id: 501, name: 'support_hello', body: 'Hello from support', attributes: [] },
		]);
		const result = await searchList('searchTemplates', { channelId: 13 }, service.credentials);
		expect(service.fake.requests[0].query).toEqual({ platform_id: '13' });
		expect(result.results).toEqual([
			{
				name: 'support_hello — Hello from support',
				value: '501',
				description: 'Hello from support',
			},
		]);
	});

	test('with no channel chosen yet it asks the service nothing', async () => {
		const result = await searchList('searchTemplates', { channelId: 0 }, service.credentials);
		expect(result.results).toEqual([]);
		expect(service.fake.requests).toHaveLength(0);
	});
});

describe('variables mapper (getTemplateVariables)', () => {
	test('one field per placeholder, shown as {{n}} with the body text around it', async () => {
		const result = await mapperFields(
			'getTemplateVariables',
			{ channelId: 12, templateId: locator(101, 'list') },
			service.credentials,
		);
		expect(service.fake.requests.map((r) => [r.path, r.query])).toEqual([
			['/stable/open/whatsapp/get-template-detail', { platform_id: '12', template_id: '101' }],
		]);
		expect(result.fields.map((f) => f.id)).toEqual(['1', '2', '3']);
		expect(result.fields.map((f) => f.displayName)).toEqual([
			'{{1}}: Hi ___, your order…',
			'{{2}}: …{{1}}, your order ___ has shipped and…',
			'{{3}}: …and arrives on ___. Track it…',
		]);
		expect(result.fields.every((f) => f.required && f.display && f.type === 'string')).toBe(true);
	});

	test('a repeated placeholder is one field', async () => {
		const result = await mapperFields(
			'getTemplateVariables',
			{ channelId: 12, templateId: locator(105) },
			service.credentials,
		);
		expect(result.fields.map((f) => f.id)).toEqual(['1', '2']);
	});

	test('a template without variables says so', async () => {
		const result = await mapperFields(
			'getTemplateVariables',
			{ channelId: 12, templateId: locator(104) },
			service.credentials,
		);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('no variables');
	});

	test('a template from an expression cannot load: the notice points to JSON input', async () => {
		const result = await mapperFields(
			'getTemplateVariables',
			{ channelId: 12, templateId: locator('={{ $json.id }}') },
			service.credentials,
		);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('set Variables Input to JSON');
		expect(service.fake.requests).toHaveLength(0);
	});
});

describe('channel picker (searchChannels)', () => {
	test('lists the WhatsApp channels as title and number, from the channel list', async () => {
		const result = await searchList(
			'searchChannels',
			{ resource: 'whatsappTemplate', operation: 'send' },
			service.credentials,
		);
		expect(service.fake.requests.map((r) => r.path)).toEqual([
			'/stable/open/whatsapp/get-platform-list',
		]);
		expect(result.results).toEqual([
			{ name: 'WhatsApp Sales (+4930123456)', value: '12', description: 'Channel 12' },
			{ name: 'WhatsApp Support (+4930654321)', value: '13', description: 'Channel 13' },
		]);
	});

	test('searches titles, numbers and IDs, case-insensitively', async () => {
		const byTitle = await searchList('searchChannels', {}, service.credentials, 'support');
		expect(byTitle.results.map((r) => r.value)).toEqual(['13']);
		const byNumber = await searchList('searchChannels', {}, service.credentials, '0123');
		expect(byNumber.results.map((r) => r.value)).toEqual(['12']);
		const none = await searchList('searchChannels', {}, service.credentials, 'telegram');
		expect(none.results).toEqual([]);
	});

	test('takes the channel as platform_id or id, and leaves out entries without either', async () => {
		const saved = service.fake.channels;
		service.fake.channels = [
			{ id: 21, title: 'Bookings', number: '+4930111' },
			{ title: 'No id' },
			null as never,
			{ platform_id: '22' },
		];
		try {
			const result = await searchList('searchChannels', {}, service.credentials);
			expect(result.results).toEqual([
				{ name: 'Bookings (+4930111)', value: '21', description: 'Channel 21' },
				{ name: 'Channel 22', value: '22', description: 'Channel 22' },
			]);
		} finally {
			service.fake.channels = saved;
		}
	});

	test(
		'a deployment without a channel list (404): nothing to pick, and the message says to ' +
			'switch to By ID',
		async () => {
			service.fake.addFault(
				'/whatsapp/get-platform-list',
				{ status: 404, body: { detail: 'Not found.' } },
				1,
			);
			const error = await searchList('searchChannels', {}, service.credentials).then(
				() => undefined,
				(caught: { message: string; description?: string }) => caught,
			);
			expect(error?.message).toBe('This service has no channel list (it answered 404)');
			expect(error?.description).toBe(
				'Switch Channel to "By ID" and enter the channel number, for example 12.',
			);
		},
	);
});

describe('the picked channel drives the template list and the variables', () => {
	test.each([
		['picked from the list', locator(13, 'list')],
		['given by ID', locator(13)],
		['saved as a plain number before 0.2.0', 13],
	])('channel %s', async (_label, channelId) => {
		service.fake.setTemplates(13, [
			{
				id: 601,
				name: 'support_followup',
				body: 'Hi {{1}}, ticket {{2}}',
				attributes: [{ attribute: 1 }, { attribute: 2 }],
			},
		]);
		const list = await searchList(
			'searchTemplates',
			{ resource: 'whatsappTemplate', operation: 'send', channelId },
			service.credentials,
		);
		expect(list.results.map((r) => r.value)).toEqual(['601']);
		const fields = await mapperFields(
			'getTemplateVariables',
			{ channelId, templateId: locator(601, 'list') } as never,
			service.credentials,
		);
		expect(fields.fields.map((f) => f.id)).toEqual(['1', '2']);
		expect(service.fake.requests.map((r) => [r.path, r.query])).toEqual([
			['/stable/open/whatsapp/get-template-list', { platform_id: '13' }],
			['/stable/open/whatsapp/get-template-detail', { platform_id: '13', template_id: '601' }],
		]);
	});
});
