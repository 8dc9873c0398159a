import { mapperFields, searchList } from '../helpers/engine';
import { locator, useFakeService } from '../helpers/fixtures';

const service = useFakeService();

describe('template dropdown (searchTemplates)', () => {
	test('lists the channel\'s templates with name and the start of the body', async () => {
		const result = await searchList('searchTemplates', { resource: 'whatsappTemplate', operation: 'send', channelId: 12 }, service.credentials);
		expect(service.fake.requests).toHaveLength(1);
		expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-template-list');
		expect(service.fake.requests[0].query).toEqual({ platform_id: '12' });
		expect(result.results).toHaveLength(7);
		expect(result.results[0]).toEqual({
			name: 'order_shipped — Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}.',
			value: '101',
			description: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}.',
		});
		expect(result.results[4].name).toBe('appointment_reminder — Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. Se…');
		expect(result.paginationToken).toBeUndefined();
	});

	test('filters by name, case-insensitively', async () => {
		const result = await searchList('searchTemplates', { channelId: 12 }, service.credentials, 'OFFER');
		expect(result.results.map((r) => r.value)).toEqual(['102']);
	});

	test('re-loads for another channel', async () => {
		service.fake.setTemplates(13, [{ id: 501, name: 'support_hello', body: 'Hello from support', attributes: [] }]);
		const result = await searchList('searchTemplates', { channelId: 13 }, service.credentials);
		expect(service.fake.requests[0].query).toEqual({ platform_id: '13' });
		expect(result.results).toEqual([
			{ name: 'support_hello — Hello from support', value: '501', description: 'Hello from support' },
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
		const result = await mapperFields('getTemplateVariables', { channelId: 12, templateId: locator(101, 'list') }, service.credentials);
		expect(service.fake.requests.map((r) => [r.path, r.query])).toEqual([
			['/stable/open/whatsapp/get-template-detail', { platform_id: '12', template_id: '101' }],
		]);
		expect(result.fields.map((f) => f.id)).toEqual(['1', '2', '3']);
		expect(result.fields.map((f) => f.displayName)).toEqual([
			'{{1}}: Hi ___, your order…',
			'{{2}}: …{{1}}, your order ___ has shipped and…',
			'{{3}}: …and arrives on ___.',
		]);
		expect(result.fields.every((f) => f.required && f.display && f.type === 'string')).toBe(true);
	});

	test('a repeated placeholder is one field', async () => {
		const result = await mapperFields('getTemplateVariables', { channelId: 12, templateId: locator(105) }, service.credentials);
		expect(result.fields.map((f) => f.id)).toEqual(['1', '2']);
	});

	test('a template without variables says so', async () => {
		const result = await mapperFields('getTemplateVariables', { channelId: 12, templateId: locator(104) }, service.credentials);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('no variables');
	});

	test('a template from an expression cannot load: the notice points to JSON input', async () => {
		const result = await mapperFields('getTemplateVariables', { channelId: 12, templateId: locator('={{ $json.id }}') }, service.credentials);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('set Variables Input to JSON');
		expect(service.fake.requests).toHaveLength(0);
	});
});
