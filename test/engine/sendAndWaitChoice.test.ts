/*
 * Send and Wait's Choice in n8n-core's engine: the message and its one link, options that cannot
 * be offered stopping the node unsent, and the page's answer through n8n-core's WebhookContext.
 */
import { useSendAndWait, waitingMessage, waitingTemplate } from '../helpers/fixtures';
import { callWebhook } from '../helpers/webhookCall';

const { service, run, waiting, expectAsksWithLink } = useSendAndWait(
	'exec-choice',
	'send-and-wait-choice-secret',
);
const SIGNED = `${waiting}\\?signature=[0-9a-f]{64}`;

const choices = (...labels: string[]) => ({ values: labels.map((label) => ({ label })) });
const SLOTS = choices('Monday 9:00', 'Tuesday 14:00', 'Friday <b>8:00</b>');

const ask = waitingMessage('When can the technician come?', {
	responseType: 'choice',
	choiceOptions: SLOTS,
});

describe('Send and Wait for Response → Choice: sending', () => {
	test('Message: one signed link to the page of options, after Message Button Label; then it waits', async () => {
		const text = await expectAsksWithLink(
			ask({ options: { messageButtonLabel: 'Pick a slot' } }),
			'When can the technician come?',
			'Pick a slot',
		);
		expect(text).not.toMatch(/Monday|choice=/);
	});

	test('WhatsApp Template: the link goes into the Link Variable; then it waits', async () => {
		const result = await run(waitingTemplate({ responseType: 'choice', choiceOptions: SLOTS }));
		expect(result.error).toBeUndefined();
		const posts = service.fake.sends('/whatsapp/send-template-message');
		expect(posts[0].body.attributes['3']).toMatch(new RegExp(`^${SIGNED}$`));
		expect(result.run.status).toBe('waiting');
	});

	const many = choices(...Array.from({ length: 11 }, (_, n) => `Slot ${n + 1}`));
	test.each([
		['no options', {}, 'Choices: add at least one choice'],
		['11 options', many, 'Choices: 11 choices are too many: keep 10 at most'],
		[
			'a label an expression left empty',
			{ values: [{ label: 'Monday' }, { label: '={{ $json.none }}' }] },
			'Choices: choice 2 has no label',
		],
		[
			'two options with one label',
			choices('Monday', 'Friday', 'Monday'),
			'Choices: choices 1 and 3 have the same label',
		],
	])(
		'%s stops the node before anything is sent, naming Choices',
		async (_, choiceOptions, message) => {
			for (const parameters of [
				ask({ choiceOptions }),
				waitingTemplate({ responseType: 'choice', choiceOptions }),
			]) {
				const result = await run(parameters);
				expect(result.error?.message).toBe(message);
				expect(result.error?.description).toBe('Change Choices in the node. Nothing was sent.');
				expect(service.fake.requests).toHaveLength(0);
				expect(result.run.status).not.toBe('waiting');
			}
		},
	);
});

describe('Send and Wait for Response → Choice: the page', () => {
	const item = { name: 'Anna' };

	test.each(['GET', 'HEAD'])(
		'a %s shows the question and a button per option, and resumes nothing',
		async (method) => {
			const { result, status, page } = await callWebhook(ask(), { method, item });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(status).toBe(200);
			expect(page).toContain(
				'<h1 dir="auto">Your answer</h1><p dir="auto">When can the technician come?</p><form method="post">' +
					'<button type="submit" name="choice" value="0" dir="auto">Monday 9:00</button>' +
					'<button type="submit" name="choice" value="1" dir="auto">Tuesday 14:00</button>' +
					'<button type="submit" name="choice" value="2" dir="auto">Friday &lt;b&gt;8:00&lt;/b&gt;</button></form>',
			);
		},
	);

	test("the page's POST of the third option resumes with its label", async () => {
		const { result, status, page, logged } = await callWebhook(ask(), {
			method: 'POST',
			body: { choice: '2' },
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			item,
		});
		expect(status).toBe(200);
		expect(result.workflowData).toEqual([
			[{ json: { data: { choice: 'Friday <b>8:00</b>', respondedAt: expect.any(String) } } }],
		]);
		expect(page).toContain('<p>Recorded: Friday &lt;b&gt;8:00&lt;/b&gt;</p>');
		expect(JSON.stringify(logged)).not.toMatch(/Friday|technician/);
	});

	test.each([
		['an index past the options', { choice: '3' }],
		["an option's label instead of its index", { choice: 'Monday 9:00' }],
		['no value', {}],
	])('%s resumes nothing: the page again, with the question and every option', async (_, body) => {
		const { result, status, page } = await callWebhook(ask(), { method: 'POST', body, item });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(400);
		expect(page).toContain(
			'<p dir="auto">When can the technician come?</p>' +
				'<p class="alert" role="alert">Nothing was recorded: tap one of the buttons below.</p>' +
				'<form method="post"><button type="submit" name="choice" value="0" dir="auto">',
		);
		expect(page.match(/<button /g)).toHaveLength(3);
	});

	test('options that cannot be offered any more: no page of buttons, nothing resumes', async () => {
		const { result, status, page } = await callWebhook(ask({ choiceOptions: {} }), {
			method: 'POST',
			body: { choice: '0' },
		});
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(400);
		expect(page).toContain('This question cannot be answered.');
	});
});
