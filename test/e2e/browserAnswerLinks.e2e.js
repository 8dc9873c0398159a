'use strict';
/*
 * Browser test: the answer-link examples and the Omnichannel Messaging Trigger in a real n8n
 * (2.41.1, or 1.123.81 with N8N_PIN=1.x) and Chromium, against the fake service with the sandbox's
 * templates. examples/answer-link-broadcast.json and examples/answer-link-answers.json are imported
 * as shipped. The answers workflow is published, the broadcast runs through `n8n execute`, a
 * customer taps "Reschedule" on the link's page in Chromium at a phone's width, and the Switch's
 * Reschedule branch gives its CRM stand-in that customer's appointment ID: every answer succeeds
 * as imported. A second tap on the same link goes no further than Remove Duplicates. The
 * example's unsubscribe trigger (a Choice of one option) gets its link from a Send Text built
 * here, as its note says, and its stand-in marks the contact.
 * A link's page, its recorded page and a cut link's page pass axe-core's WCAG 2.1 A/AA rules in
 * the light and the dark scheme at 320 pixels, and the keyboard alone answers.
 *
 * In the editor, the trigger's panel shows its Production URL, the one the send's Trigger URL
 * holds (`/webhook/<webhookId>`), where the notice tells the builder to copy it from.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { startEditorWithService, readExample, until } = require('./editor');
const {
	closeAll,
	publishWithWebhooks,
	callWebhook,
	webhookTrigger,
	omniNode,
	chain,
	executionMark,
	executionSince,
	storedExecution,
} = require('./support');
const {
	BROWSER_AGENT,
	lastOutput,
	phonePage,
	checkingPage,
	tabTo,
} = require('./sendAndWait.support');
const { READABLE, readableIn } = require('../../scripts/lib/axe');

/** The items a node's last run put out on its output `index` (a Switch's branch). */
const branchOutput = (execution, nodeName, index) =>
	execution.data.resultData.runData[nodeName]?.at(-1).data?.main?.[index];

const BROADCAST = readExample('answer-link-broadcast.json');
const ANSWERS = readExample('answer-link-answers.json');
const TRIGGER = ANSWERS.nodes.find((node) => node.name === 'On appointment answer');
const UNSUBSCRIBE = ANSWERS.nodes.find((node) => node.name === 'On unsubscribe');
/** The trigger's Choice Labels in Hindi (Texts per Language): Confirm, Reschedule, Cancel. */
const HINDI_LABELS = TRIGGER.parameters.options.textsPerLanguage.values
	.find(({ language }) => language === 'hi')
	.choiceLabels.split('\n');
const SHOTS = path.join(n8n.REPO_ROOT, '.tmp', 'screenshots', 'answer-links');

/** The CRM stand-ins, one per branch of the Switch. */
const STAND_INS = [
	'Confirmed (stand-in)',
	'Reschedule requested (stand-in)',
	'Cancelled (stand-in)',
	'Unsubscribed (stand-in)',
];

let fake;
let editor;
let rest;

beforeAll(async () => {
	({ fake, editor } = await startEditorWithService('e2e-browser-answer-links', {
		workflows: [BROADCAST, ANSWERS],
		publish: [ANSWERS],
	}));
	({ rest } = editor);
	fs.mkdirSync(SHOTS, { recursive: true });
}, 420_000);

afterAll(() => closeAll(editor, fake));

/** A person's browser: a page in a context of its own. */
const personPage = (browser) => browser.newPage({ userAgent: BROWSER_AGENT });

/**
 * Opens `link` in a page `open` makes in Chromium (a phone's, one that checks readability, a
 * person's), where `answer` answers it; then the answers workflow's one execution it started, once
 * finished: its status and the execution as stored.
 */
async function answerIn(open, link, answer) {
	const mark = await executionMark(rest, ANSWERS.id);
	const page = await open(editor.browser);
	await page.goto(link);
	await answer(page);
	await page.context().close();
	const { id, status } = await executionSince(rest, ANSWERS.id, mark, { timeoutMs: 30_000 });
	return { status, execution: await storedExecution(rest, id) };
}

/** Runs the broadcast example as a user does with "Execute workflow", through n8n's CLI. */
async function runBroadcast() {
	// `n8n execute` starts its own task broker: another port than the running server's.
	const env = { ...editor.env, N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()) };
	const { code, stdout, stderr } = await n8n.executeWorkflow(BROADCAST.id, {
		env,
		timeoutMs: 180_000,
	});
	expect({ code, output: code === 0 ? '' : `${stdout}\n${stderr}` }).toEqual({
		code: 0,
		output: '',
	});
}

describe('the answer-link examples, imported as shipped', () => {
	let sent;

	test('the broadcast sends each appointment the template with its own link to the trigger', async () => {
		await runBroadcast();
		sent = fake.sends().filter((request) => Number(request.body.template_id) === 108);
		expect(sent.map((request) => request.body.customer_phone)).toEqual([
			'+4915123456701',
			'+4915123456702',
			'+4915123456703',
		]);
		const production = `${editor.server.url}/webhook/${TRIGGER.webhookId}?a=`;
		for (const request of sent) {
			expect(request.body.attributes['3'].startsWith(production)).toBe(true);
			expect(request.body.attributes['3']).not.toContain('APT-');
		}
		expect(new Set(sent.map((request) => request.body.attributes['3'])).size).toBe(3);
	}, 200_000);

	test('a tap on "Reschedule" at a phone\'s width reaches that appointment\'s CRM stand-in', async () => {
		const { status, execution } = await answerIn(
			phonePage,
			sent[1].body.attributes['3'],
			async (page) => {
				expect(await page.getByRole('button').allInnerTexts()).toEqual([
					'Confirm',
					'Reschedule',
					'Cancel',
				]);
				await page.screenshot({ path: path.join(SHOTS, 'choice-page-390.png') });
				await page.getByRole('button', { name: 'Reschedule' }).tap();
				await page.getByText('Recorded: Reschedule').waitFor();
			},
		);
		expect(status).toBe('success');
		const [answer] = branchOutput(execution, 'Which choice', 1);
		expect(answer.json).toMatchObject({
			data: { choice: 'Reschedule' },
			recipient: { phone: '+4915123456702' },
			reference: 'APT-2042',
		});
		for (const other of STAND_INS.filter((name) => !name.startsWith('Reschedule')))
			expect(lastOutput(execution, other)).toBeUndefined();
		expect(
			lastOutput(execution, 'Reschedule requested (stand-in)')?.map((item) => item.json),
		).toEqual([
			{
				appointmentId: 'APT-2042',
				status: 'rescheduleRequested',
				answeredAt: answer.json.answeredAt,
			},
		]);
	}, 120_000);

	test('the same link tapped again goes no further than Remove Duplicates', async () => {
		const { execution } = await answerIn(personPage, sent[1].body.attributes['3'], async (page) => {
			await page.getByRole('button', { name: 'Cancel' }).click();
			await page.getByText('Recorded: Cancel').waitFor();
		});
		expect(lastOutput(execution, 'First answer only')).toEqual([]);
		for (const name of STAND_INS) expect(lastOutput(execution, name)).toBeUndefined();
	}, 120_000);

	test("readable by everyone: a link's page, recorded and cut link pages pass axe; keys answer", async () => {
		const link = sent[2].body.attributes['3'];
		const { status, execution } = await answerIn(checkingPage, link, async (page) => {
			expect(await readableIn(page)).toEqual(READABLE);
			// Priya's contact says hi-IN: her link carries Hindi, in which the trigger has its own labels.
			await tabTo(page, 'button');
			expect(await page.evaluate(() => globalThis.document.activeElement.textContent)).toBe(
				HINDI_LABELS[0],
			);
			await page.keyboard.press('Enter');
			await page.getByRole('button').first().waitFor({ state: 'detached' });
			await page.getByText(HINDI_LABELS[0]).waitFor();
			expect(await page.getAttribute('html', 'lang')).toBe('hi');
			expect(await readableIn(page)).toEqual(READABLE);

			// The link cut short, as a message app may do: the page that says so.
			const refused = await page.goto(link.slice(0, -6));
			expect(refused.status()).toBe(400);
			await page.getByRole('heading', { name: 'Nothing recorded' }).waitFor();
			expect(await readableIn(page)).toEqual(READABLE);
		});
		expect(status).toBe('success');
		const [answer] = branchOutput(execution, 'Which choice', 0);
		// The answer is the trigger's own label, whatever the page showed.
		expect(answer.json).toMatchObject({ data: { choice: 'Confirm' }, reference: 'APT-2043' });
	}, 120_000);
});

describe('the unsubscribe link, a one-option Choice', () => {
	test('a Send Text carries it under its label; its tap marks the contact (CRM stand-in)', async () => {
		const hook = 'unsubscribe-send';
		const send = chain('E2eUnsubscribe01', 'e2e: a message with an unsubscribe link', [
			webhookTrigger(hook),
			omniNode('Send', {
				resource: 'message',
				operation: 'sendText',
				customerId: '4711',
				text: 'Our December opening hours are online.',
				options: {
					answerLink: {
						values: {
							triggerUrl: `${editor.server.url}/webhook/${UNSUBSCRIBE.webhookId}`,
							reference: 'C-1001',
							validFor: 30,
							validForUnit: 'days',
							linkLabel: 'Stop these messages:',
						},
					},
				},
			}),
		]);
		await publishWithWebhooks(rest, editor.server.url, send);
		const before = fake.sends().length;
		await callWebhook(`${editor.server.url}/webhook/${hook}`, {});
		const [message] = fake.sends().slice(before);
		const [, link] = /Stop these messages:\n(\S+)$/.exec(message.body.text) ?? [];
		expect(link.startsWith(`${editor.server.url}/webhook/${UNSUBSCRIBE.webhookId}?a=`)).toBe(true);

		const { status, execution } = await answerIn(personPage, link, async (page) => {
			expect(await page.getByRole('button').allInnerTexts()).toEqual(['Unsubscribe']);
			await page.getByRole('button', { name: 'Unsubscribe' }).click();
			await page.getByText('Recorded: Unsubscribe').waitFor();
		});
		expect(status).toBe('success');
		const [answer] = branchOutput(execution, 'Which choice', 3);
		expect(answer.json).toMatchObject({ data: { choice: 'Unsubscribe' }, reference: 'C-1001' });
		expect(lastOutput(execution, 'Unsubscribed (stand-in)')?.map((item) => item.json)).toEqual([
			{ contactId: 'C-1001', whatsappOptOut: true, answeredAt: answer.json.answeredAt },
		]);
	}, 120_000);
});

describe('the trigger in the editor', () => {
	test('its panel shows the Production URL the send needs, where the notice says', async () => {
		const { page, server, step } = editor;
		const ndv = await step('open the trigger', async () => {
			await page.goto(`${server.url}/workflow/${ANSWERS.id}`, { waitUntil: 'domcontentloaded' });
			await page.getByTestId('canvas-node').filter({ hasText: TRIGGER.name }).first().dblclick();
			const panel = page.getByTestId('ndv');
			await panel.getByTestId('node-parameters').waitFor();
			return panel;
		});
		const notice = await ndv.getByText('Under Webhook URLs above').innerText();
		expect(notice).toContain('Under Webhook URLs above, pick Production URL');
		expect(notice).toContain('Options → Answer Link → Trigger URL');
		// n8n shows the Test URL first; the notice names the tab a builder picks.
		await step('show the Production URL', async () => {
			const tab = ndv.getByText('Production URL', { exact: true }).first();
			if (!(await tab.isVisible())) await ndv.getByText('Webhook URLs').first().click();
			await tab.click();
		});
		const shown = await until(async () => {
			const text = await ndv.innerText();
			return text.includes(`/webhook/${TRIGGER.webhookId}`) ? text : undefined;
		});
		await page.screenshot({ path: path.join(SHOTS, 'trigger-panel.png') });
		const urls = [...String(shown).matchAll(/https?:\/\/\S+\/webhook(?:-test)?\/[\w-]+/g)].map(
			(match) => match[0],
		);
		// The URL the broadcast example's Trigger URL builds, and the one its links start with.
		expect(urls).toContain(`${server.url}/webhook/${TRIGGER.webhookId}`);
		// A click on the URL copies it, as the notice says to, and n8n says so.
		await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
			origin: server.url,
		});
		await step('copy the Production URL', () =>
			ndv.getByText(`/webhook/${TRIGGER.webhookId}`).first().click(),
		);
		await page.getByText('URL copied').first().waitFor();
		const copied = await page.evaluate(() => globalThis.navigator.clipboard.readText());
		expect(copied).toBe(`${server.url}/webhook/${TRIGGER.webhookId}`);
		const noticeBox = await ndv.getByText('Under Webhook URLs above').boundingBox();
		const urlsBox = await ndv.getByText('Webhook URLs').first().boundingBox();
		expect(urlsBox.y).toBeLessThan(noticeBox.y);
	}, 120_000);
});
