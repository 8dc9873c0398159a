/*
 * The Omnichannel Messaging Trigger's webhook, called through n8n-core's own WebhookContext as
 * n8n's webhook server calls it: an answer link's GET shows Send and Wait's page and starts
 * nothing; the page's POST starts one execution with the answer and what the link was sealed
 * with; a changed, forged, misdirected or expired link gets a page that says so and starts
 * nothing. The links are sealed here with the package's own token code, at times the test picks.
 */
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { linkKey } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { loadPackage } from '../helpers/engine';
import { API_KEY } from '../helpers/fixtures';
import { APPROVAL, HOUR, TRIGGER, approve, callTrigger, token } from '../helpers/triggerCall';

const PREVIEWS = [
	'WhatsApp/2.23.20.0',
	'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
	'TelegramBot (like TwitterBot)',
	'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
];

describe('the Omnichannel Messaging Trigger', () => {
	test('is a trigger without inputs: GET and POST on one path, its webhook ID; the GET hidden', async () => {
		const type = (await loadPackage()).getNode('omnichannelMessagingTrigger').type as INodeType;
		const { description } = type;
		expect(description).toMatchObject({ group: ['trigger'], inputs: [], version: 1 });
		expect(description.credentials).toEqual([{ name: 'omnichannelMessagingApi', required: true }]);
		expect(description.webhooks).toEqual([
			expect.objectContaining({
				httpMethod: 'GET',
				path: '={{ $webhookId }}',
				isFullPath: true,
				ndvHideUrl: true,
			}),
			expect.objectContaining({ httpMethod: 'POST', path: '={{ $webhookId }}', isFullPath: true }),
		]);
		expect(description.webhooks?.[1].ndvHideUrl).toBeUndefined();
		expect(type.webhook).toBeInstanceOf(Function);
		const names = description.properties.map((property) => property.name);
		expect(names).toEqual([
			'copyUrlNotice',
			'responseType',
			'choiceOptions',
			'defineForm',
			'jsonOutput',
			'formFields',
			'approvalOptions',
			'options',
		]);
	});

	test.each(PREVIEWS)('a GET by %s shows the page and starts nothing', async (userAgent) => {
		const answer = await callTrigger(APPROVAL, {
			method: 'GET',
			query: { a: token() },
			headers: { 'user-agent': userAgent },
		});
		expect(answer.result).toEqual({ noWebhookResponse: true });
		expect(answer.status).toBe(200);
		expect(answer.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
		expect(answer.headers?.['Cache-Control']).toBe('no-store');
		expect(answer.page).toContain('<p dir="auto">Can you come on Tuesday at 10:00?</p>');
		expect(answer.page).toContain('<form method="post">');
		expect(answer.page).toContain('value="true" class="primary" dir="auto">✓ Approve</button>');
		expect(answer.page).toContain('value="false" dir="auto">✗ Decline</button>');
		expect(answer.page).not.toMatch(/<script|appointment-981|4915123456789/);
	});

	test("the page's POST starts one execution: Send and Wait's data, recipient, reference, times", async () => {
		const sentAt = new Date(Math.floor(Date.now() / 1000) * 1000 - HOUR);
		const answer = await callTrigger(APPROVAL, approve(token({ sentAt })));
		expect(answer.status).toBe(200);
		expect(answer.page).toContain('Recorded: ✓ Approve');
		expect(answer.page).not.toMatch(/appointment-981|4915123456789/);
		expect(answer.result.noWebhookResponse).toBe(true);
		expect(answer.result.workflowData).toEqual([
			[
				{
					json: {
						data: { approved: true, respondedAt: expect.any(String) },
						recipient: { phone: '+4915123456789' },
						reference: 'appointment-981',
						sentAt: sentAt.toISOString(),
						answeredAt: expect.any(String),
						answerKey: expect.stringMatching(/^[\w-]{22}$/),
					},
				},
			],
		]);
		const { json } = answer.result.workflowData![0][0];
		expect(json.answeredAt).toBe((json.data as IDataObject).respondedAt);
		expect(answer.logged.join('\n')).not.toMatch(/appointment-981|4915123456789/);
	});

	test('a customer-ID link answers with the customer; Free Text answers with the text', async () => {
		const answer = await callTrigger(
			{ responseType: 'freeText', options: { responseFormTitle: 'Your feedback' } },
			{
				method: 'POST',
				query: { a: token({ recipient: { customerId: '4001' }, reference: '' }) },
				headers: { 'content-type': 'multipart/form-data; boundary=x' },
				body: { data: { 'field-0': 'Tuesday is fine' }, files: {} },
			},
		);
		const { json } = answer.result.workflowData![0][0];
		expect(json).toMatchObject({
			data: { text: 'Tuesday is fine', respondedAt: expect.any(String) },
			recipient: { customerId: '4001' },
			reference: '',
		});
		expect(answer.page).toContain(
			'<dt><bdi>Your answer</bdi></dt><dd><bdi>Tuesday is fine</bdi></dd>',
		);
	});

	test('a Choice shows one button per option; a tap answers with its label', async () => {
		const choice: INodeParameters = {
			responseType: 'choice',
			choiceOptions: {
				values: [{ label: 'Confirm' }, { label: 'Reschedule' }, { label: 'Cancel' }],
			},
			options: { responseFormDescription: 'Your appointment on Tuesday at 10:00' },
		};
		const link = token();
		const page = await callTrigger(choice, { method: 'GET', query: { a: link } });
		expect(page.result).toEqual({ noWebhookResponse: true });
		expect(page.page?.match(/<button /g)).toHaveLength(3);
		expect(page.page).toContain('>Reschedule</button>');
		const answer = await callTrigger(choice, {
			method: 'POST',
			query: { a: link },
			body: { choice: '1' },
		});
		expect(answer.page).toContain('Reschedule');
		expect(answer.result.workflowData![0][0].json).toMatchObject({
			data: { choice: 'Reschedule', respondedAt: expect.any(String) },
			reference: 'appointment-981',
		});
		const unknown = await callTrigger(choice, {
			method: 'POST',
			query: { a: link },
			body: { choice: '3' },
		});
		expect(unknown.status).toBe(400);
		expect(unknown.result).toEqual({ noWebhookResponse: true });
	});

	test('a Custom Form is checked as in Send and Wait: a missing required field records nothing', async () => {
		const form = {
			responseType: 'customForm',
			formFields: { values: [{ fieldLabel: 'Seats', fieldType: 'number', requiredField: true }] },
		};
		const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
		const refused = await callTrigger(form, {
			method: 'POST',
			query: { a: token() },
			headers: multipart,
			body: { data: { 'field-0': '' }, files: {} },
		});
		expect(refused.status).toBe(400);
		expect(refused.result).toEqual({ noWebhookResponse: true });
		expect(refused.page).toContain('Fill in this field.');
		const recorded = await callTrigger(form, {
			method: 'POST',
			query: { a: token() },
			headers: multipart,
			body: { data: { 'field-0': '2' }, files: {} },
		});
		expect(recorded.result.workflowData![0][0].json.data).toEqual({
			Seats: 2,
			respondedAt: expect.any(String),
		});
	});

	test('the same link answered twice starts two executions with one answerKey; another link has another', async () => {
		const link = token();
		const [first, second, other] = await Promise.all([
			callTrigger(APPROVAL, approve(link)),
			callTrigger(APPROVAL, { ...approve(link), body: { approved: 'false' } }),
			callTrigger(APPROVAL, approve(token())),
		]);
		const keyOf = (answer: typeof first) => answer.result.workflowData![0][0].json.answerKey;
		expect(keyOf(first)).toBe(keyOf(second));
		expect(keyOf(other)).not.toBe(keyOf(first));
		expect(second.result.workflowData![0][0].json.data).toMatchObject({ approved: false });
	});

	const changed = (link: string) =>
		link.slice(0, 20) + (link[20] === 'A' ? 'B' : 'A') + link.slice(21);

	test.each([
		['changed', () => changed(token())],
		['cut short', () => token().slice(0, -3)],
		['sealed under another API key', () => token({}, linkKey('sk-live-another-key', TRIGGER))],
		['sealed for another trigger', () => token({}, linkKey(API_KEY, 'another-trigger'))],
		['missing', () => undefined],
	])(
		'a link %s gets a page that says it is not valid, on GET and POST, and starts nothing',
		async (_name, make) => {
			const a = make();
			for (const request of [
				{ method: 'GET', query: a === undefined ? {} : { a } },
				{ method: 'POST', query: a === undefined ? {} : { a }, body: { approved: 'true' } },
			]) {
				const answer = await callTrigger(APPROVAL, request);
				expect(answer.result).toEqual({ noWebhookResponse: true });
				expect(answer.status).toBe(400);
				expect(answer.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
				expect(answer.page).toContain('<h1 dir="auto">Nothing recorded</h1>');
				expect(answer.page).toContain('This link is not valid');
				expect(answer.page).not.toContain('<form');
			}
		},
	);

	test('an expired link gets a page that says so, on GET and POST, and starts nothing', async () => {
		const now = Date.now();
		const a = token({ sentAt: new Date(now - 8 * 24 * HOUR), expiresAt: new Date(now - HOUR) });
		for (const request of [{ method: 'GET', query: { a } }, approve(a)]) {
			const answer = await callTrigger(APPROVAL, request);
			expect(answer.result).toEqual({ noWebhookResponse: true });
			expect(answer.status).toBe(410);
			expect(answer.page).toContain('This link has expired');
			expect(answer.page).not.toMatch(/<form|appointment-981|4915123456789/);
		}
	});

	test('a credential without an API key answers no link, and says nothing of why', async () => {
		// A credential of its own: the trigger keeps the usual one's key for a minute (token.ts).
		const answer = await callTrigger(
			APPROVAL,
			{ ...approve(token()), credentials: { baseUrl: 'http://127.0.0.1:9', apiKey: '' } },
			'cred-without-key',
		);
		expect(answer.result).toEqual({ noWebhookResponse: true });
		expect(answer.status).toBe(500);
		expect(answer.page).toContain('This question cannot be answered at the moment.');
	});
});
