/*
 * The question on the answer page: what the person received, through n8n-core's real
 * WebhookContext (parameters resolved against the waiting item) and, for a template, the fake
 * service's template as the page reads it when it opens.
 */
import type { INodeParameters } from 'n8n-workflow';

import { API_KEY, mapped, useFakeService, waitingMessage } from '../helpers/fixtures';
import { callWebhook } from '../helpers/webhookCall';
import type { WebhookRequest } from '../helpers/webhookCall';
import { FIELDS } from '../helpers/customForm';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the fake service's seed is CommonJS
const { appointmentConfirmation } = require('../fake-service/seed') as {
	appointmentConfirmation: () => Record<string, unknown>;
};

const service = useFakeService();
const DETAIL = '/whatsapp/get-template-detail';
const DOUBLE = { values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' } };

/** Template 108: "Hi {{1}}, please confirm your appointment on {{2}} on this page: {{3}} See you soon!" */
const template = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'sendAndWait',
	channelId: 12,
	templateId: { __rl: true, mode: 'id', value: '108' },
	customerPhone: '+49 151 2345 6789',
	variables: mapped({ '1': '={{ $json.name }}', '2': '={{ $json.day }}' }),
	linkVariable: 3,
	approvalOptions: DOUBLE,
	...extra,
});

const RENDERED =
	'<p dir="auto">Hi &lt;b&gt;x&lt;/b&gt;, please confirm your appointment on Monday 1 December on this ' +
	'page. See you soon!</p>';

const message = waitingMessage('={{ "Refund " + $json.amount + " EUR?" }}', {
	approvalOptions: DOUBLE,
});

async function open(parameters: INodeParameters, request: Partial<WebhookRequest> = {}) {
	return await callWebhook(parameters, {
		method: 'GET',
		item: { name: '<b>x</b>', day: 'Monday 1 December', amount: 42 },
		credentials: service.credentials,
		...request,
	});
}

const detailReads = () => service.fake.requests.filter((request) => request.path.endsWith(DETAIL));

beforeAll(() => {
	service.fake.setTemplates(12, [appointmentConfirmation()]);
});

describe("WhatsApp Template → Send and Wait: the page shows the template's body", () => {
	test('Approval: the body as sent, its variables filled in as text, without the link', async () => {
		const { status, page, logged } = await open(template());
		expect(status).toBe(200);
		expect(page).toContain(`<h1 dir="auto">Your answer</h1>${RENDERED}<form method="post">`);
		expect(page).not.toContain('<b>x</b>');
		expect(page).not.toMatch(/\{\{|webhook-waiting/);
		// The colon that led to the link ends the sentence: nothing on the page dangles.
		expect(page).not.toContain('this page:');
		expect(page).toContain('value="false" dir="auto">No</button>');
		expect(detailReads()).toEqual([
			expect.objectContaining({
				method: 'GET',
				query: { platform_id: '12', template_id: '108' },
				headers: expect.objectContaining({ 'x-service-api-key': API_KEY }),
			}),
		]);
		expect(logged).toEqual([]);
	});

	test('Custom Form, with the variables given as JSON: the body above the form', async () => {
		const { page } = await open(
			template({
				responseType: 'customForm',
				formFields: { values: FIELDS.slice(0, 1) },
				variablesMode: 'json',
				variablesJson: '={{ JSON.stringify({ "1": $json.name, "2": $json.day }) }}',
			}),
		);
		expect(page).toContain(`<h1 dir="auto">Your answer</h1>${RENDERED}<form method="post"`);
	});

	test('Choice: the body as sent above the options', async () => {
		const { page } = await open(
			template({ responseType: 'choice', choiceOptions: { values: [{ label: 'Yes' }] } }),
		);
		expect(page).toContain(
			`<h1 dir="auto">Your answer</h1>${RENDERED}<form method="post">` +
				'<button type="submit" name="choice" value="0" dir="auto">Yes</button>',
		);
	});

	test('Response Form Description replaces the body, and the service is not asked', async () => {
		const { page } = await open(
			template({ options: { responseFormDescription: 'Are you coming, <i>Anna</i>?' } }),
		);
		expect(page).toContain(
			'<p dir="auto">Are you coming, &lt;i&gt;Anna&lt;/i&gt;?</p><form method="post">',
		);
		expect(page).not.toContain('confirm your appointment');
		expect(detailReads()).toEqual([]);
	});

	test('a recorded answer does not read the template', async () => {
		const { result } = await open(template(), {
			method: 'POST',
			query: { approved: 'true' },
			body: { approved: 'true' },
		});
		expect(result.workflowData?.[0][0].json.data).toMatchObject({ approved: true });
		expect(detailReads()).toEqual([]);
	});

	test.each([
		['the service fails', { status: 500, body: { error: `Internal error for ${API_KEY}` } }],
		['the template is gone', { status: 404, body: { detail: 'Not found.' } }],
		['the answer is not JSON', { kind: 'html' as const }],
	])('%s: the page without the question, no error and nothing logged', async (_, fault) => {
		service.fake.addFault(DETAIL, fault);
		const { status, page, logged } = await open(template());
		expect(status).toBe(200);
		expect(page).toContain(
			'<h1 dir="auto">Your answer</h1><form method="post"><button type="submit" name="approved"',
		);
		const shown = page.slice(page.indexOf('<main>'));
		expect(shown).not.toMatch(/Internal|Not found|error|appointment/i);
		expect(page).not.toContain(API_KEY);
		expect(logged).toEqual([]);
	});

	test('a credential that cannot be used: the page without the question', async () => {
		const { status, page } = await open(template(), {
			credentials: { baseUrl: 'not a url', apiKey: API_KEY },
		});
		expect(status).toBe(200);
		expect(page).toContain('<h1 dir="auto">Your answer</h1><form method="post">');
	});
});

describe('Message → Send and Wait: the page shows the message', () => {
	test.each([
		['Approval', {}, '<form method="post">'],
		[
			'Choice',
			{ responseType: 'choice', choiceOptions: { values: [{ label: 'Yes' }] } },
			'<form method="post"><button type="submit" name="choice"',
		],
		['Free Text', { responseType: 'freeText' }, '<form method="post" enctype'],
	])('%s: the message, resolved against the waiting item', async (_, extra, form) => {
		const { page } = await open(message(extra));
		expect(page).toContain(
			`<h1 dir="auto">Your answer</h1><p dir="auto">Refund 42 EUR?</p>${form}`,
		);
	});

	test.each([
		['Approval', {}],
		['Choice', { responseType: 'choice', choiceOptions: { values: [{ label: 'Yes' }] } }],
	])('%s honours Response Form Description, escaped as text', async (_, extra) => {
		const { page } = await open(
			message({ ...extra, options: { responseFormDescription: 'Refund <b>42</b>?' } }),
		);
		expect(page).toContain(
			'<h1 dir="auto">Your answer</h1><p dir="auto">Refund &lt;b&gt;42&lt;/b&gt;?</p><form',
		);
		expect(page).not.toContain('Refund 42 EUR?');
	});

	test('Custom Form: the description wins over the message', async () => {
		const { page } = await open(
			message({
				responseType: 'customForm',
				formFields: { values: FIELDS.slice(0, 1) },
				options: { responseFormDescription: 'Your claim' },
			}),
		);
		expect(page).toContain('<h1 dir="auto">Your answer</h1><p dir="auto">Your claim</p><form');
		expect(page).not.toContain('Refund 42 EUR?');
	});
});
