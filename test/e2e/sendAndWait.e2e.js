'use strict';
/*
 * Send and Wait for Response in a real n8n (2.41.1, or 1.123.81 with N8N_PIN=1.x): published
 * workflows Webhook → Ask (this node) → Next, against the fake service. The message's links are
 * opened as link previews do (never an answer), with a broken signature (refused), and in Chromium
 * by a person (the page's button records the answer and n8n resumes the execution). A wait limit
 * of 3 seconds ends the wait with the input passed on and exactly one message sent. Custom forms
 * (fields, JSON, on the template): filled in Chromium on a phone, crafted answers that break each
 * rule refused, a form that cannot be built sending nothing, and HTML and CSS that run no script.
 * Choice on the message and on the template: tapped on a phone's touch screen. Readable by
 * everyone: each page a person meets passes axe-core's WCAG 2.1 A/AA rules in the light and the
 * dark scheme at 320 pixels, and Approval, Choice and a form of every field type are answered
 * with the keyboard only (`npm run test:a11y` checks every page type under more conditions).
 */
const fs = require('node:fs');
const path = require('node:path');

const { appointmentConfirmation, demoTemplates } = require('../fake-service/seed');
const {
	storedExecution,
	SCREENSHOTS,
	startOtherHost,
	executionMark,
	executionSince,
	startN8nWithService,
	closeAll,
} = require('./support');
const {
	BROWSER_AGENT,
	CHOICE_LABELS,
	PREVIEW_AGENTS,
	WORKFLOWS,
	FORM_FIELDS,
	FORM_ANSWER,
	FORM_DATA,
	RECEIPT,
	formWorkflow,
	hostileMarkup,
	askAndWait,
	executionWhen,
	finishedExecution,
	lastOutput,
	tampered,
	launchChromium,
	personPage: personPageIn,
	checkingPage,
	tabTo,
} = require('./sendAndWait.support');
const { READABLE, readableIn } = require('../../scripts/lib/axe');
const { EVERY_TYPE_WORDS, PHOTO } = require('../helpers/everyTypeForm');
const { postCustomForm } = require('../helpers/answerPage');

let fake;
let server;
let rest;
let browser;
let watch;
let forms;

beforeAll(async () => {
	watch = await startOtherHost();
	const built = formWorkflow(watch.url);
	const started = await startN8nWithService('e2e-send-and-wait', {
		// Channel 12 also has the appointment confirmation, its link in the middle of the body.
		service: { templates: { 12: [...demoTemplates(), appointmentConfirmation()] } },
		workflows: [...Object.values(WORKFLOWS), built],
		envOptions: { logLevel: 'warn' },
	});
	({ fake, server, rest } = started);
	forms = { ...started.workflows.at(-1), paths: built.paths };
	browser = await launchChromium();
}, 420_000);

afterAll(() => closeAll(browser, server, fake, watch));

/** Starts the workflow; resolves with the message the service received, its links and the execution. */
const ask = (workflow, body) => askAndWait({ fake, server, rest }, workflow, body);

const personPage = (viewport) => personPageIn(browser, viewport);

/** The largest file a custom form takes, as the File field's description gives it: 16 MB. */
const FILE_LIMIT = 16 * 1024 * 1024;

/** The execution once it succeeded and `nextNode` ran. */
const finished = (id, nextNode) => finishedExecution(rest, id, nextNode);

describe('Message → Send and Wait for Response (approval)', () => {
	let first;

	test('the service receives the message with an Approve and a Decline link; the execution waits', async () => {
		first = await ask(WORKFLOWS.approval, { customer: '4001' });
		expect(first.sent.body.customer_id).toBe('4001');
		const waiting = `${server.url}/webhook-waiting/${first.executionId}/E2eSawApproval01-n1`;
		expect(first.links[0]).toMatch(
			new RegExp(`^${waiting}\\?approved=true&signature=[0-9a-f]{64}$`),
		);
		expect(first.links[1]).toMatch(
			new RegExp(`^${waiting}\\?approved=false&signature=[0-9a-f]{64}$`),
		);
		expect(first.text).toBe(
			`Refund 42 EUR for order 1042?\n\n✓ Approve: ${first.links[0]}\n\n✗ Decline: ${first.links[1]}`,
		);
	});

	test('link previews (WhatsApp, Facebook, Telegram, Slack) get the page and answer nothing', async () => {
		for (const userAgent of PREVIEW_AGENTS) {
			for (const link of first.links) {
				const response = await fetch(link, { headers: { 'user-agent': userAgent } });
				expect(response.status).toBe(200);
				expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
				expect(response.headers.get('cache-control')).toBe('no-store');
				expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
				expect(await response.text()).toContain('<form method="post">');
			}
		}
		expect((await storedExecution(rest, first.executionId)).status).toBe('waiting');
	});

	test('a link with a broken signature is refused and the execution still waits', async () => {
		for (const method of ['GET', 'POST']) {
			const response = await fetch(tampered(first.links[0]), {
				method,
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: method === 'POST' ? 'approved=true' : undefined,
			});
			expect(response.status).toBe(401);
		}
		expect((await storedExecution(rest, first.executionId)).status).toBe('waiting');
	});

	test('a person clicks Approve: the execution resumes with data.approved true', async () => {
		const stale = await personPage();
		await stale.goto(first.links[1]);
		const page = await personPage();
		await page.goto(first.links[0]);
		expect(await page.getByRole('button').allInnerTexts()).toEqual(['✓ Approve']);
		await page.setViewportSize({ width: 390, height: 240 });
		fs.mkdirSync(SCREENSHOTS, { recursive: true });
		await page.screenshot({ path: path.join(SCREENSHOTS, 'answer-page.png') });
		await page.getByRole('button', { name: '✓ Approve' }).click();
		await page.getByText('Recorded: ✓ Approve').waitFor();
		const execution = await finished(first.executionId);
		const [answer] = lastOutput(execution, 'Next');
		expect(answer.json).toEqual({ data: { approved: true, respondedAt: expect.any(String) } });

		// A second answer, from a page opened before the first: n8n says nothing is needed any more.
		await stale.getByRole('button', { name: '✗ Decline' }).click();
		await stale.getByText('No action required').waitFor();
		const after = await storedExecution(rest, first.executionId);
		expect(lastOutput(after, 'Next')).toEqual(lastOutput(execution, 'Next'));
		expect(after.data.resultData.runData.Next).toHaveLength(1);
		expect(fake.sends().filter((s) => s.body.customer_id === '4001')).toHaveLength(1);
	});

	test('a person clicks Decline: the execution resumes with data.approved false', async () => {
		const { links, executionId } = await ask(WORKFLOWS.approval, { customer: '4002' });
		const page = await personPage();
		await page.goto(links[1]);
		await page.getByRole('button', { name: '✗ Decline' }).click();
		await page.getByText('Recorded: ✗ Decline').waitFor();
		const [answer] = lastOutput(await finished(executionId), 'Next');
		expect(answer.json.data).toEqual({ approved: false, respondedAt: expect.any(String) });
	});
});

describe('Free Text, the template variant, and the wait limit', () => {
	test('Free Text: the page takes a typed answer, which comes out as data.text', async () => {
		const { links, executionId, text } = await ask(WORKFLOWS.freeText);
		expect(text).toBe(`What should we tell the customer?\n\nRespond: ${links[0]}`);
		const page = await personPage();
		await page.goto(links[0]);
		await page.getByLabel('Your answer').fill('Refund half, <b>apologise</b>');
		await page.getByRole('button', { name: 'Send' }).click();
		await page.getByText('Recorded your answer:').waitFor();
		const [answer] = lastOutput(await finished(executionId), 'Next');
		expect(answer.json.data).toEqual({
			text: 'Refund half, <b>apologise</b>',
			respondedAt: expect.any(String),
		});
	});

	test('WhatsApp Template: the link is variable {{3}}; its page offers both choices', async () => {
		const { sent, links, executionId } = await ask(WORKFLOWS.template);
		expect(sent.body.attributes).toEqual({ 1: 'Anna', 2: '1042', 3: links[0] });
		expect(links[0]).toMatch(/\?signature=[0-9a-f]{64}$/);
		const page = await personPage();
		await page.goto(links[0]);
		expect(await page.getByRole('button').allInnerTexts()).toEqual(['✓ Approve', '✗ Decline']);
		await page.getByRole('button', { name: '✓ Approve' }).click();
		await page.getByText('Recorded: ✓ Approve').waitFor();
		const [answer] = lastOutput(await finished(executionId), 'Next');
		expect(answer.json.data.approved).toBe(true);
	});

	test('a wait limit of 3 seconds ends the wait: the input item passes on, one message sent', async () => {
		const { executionId } = await ask(WORKFLOWS.limit, { order: 1042 });
		// n8n's wait tracker looks for waits that have ended about once a minute.
		const execution = await executionWhen(rest, executionId, (e) => e.status === 'success', {
			what: 'success',
			timeoutMs: 100_000,
		});
		const [item] = lastOutput(execution, 'Next');
		expect(item.json.data).toBeUndefined();
		expect(item.json.body).toEqual({ order: 1042 });
		expect(lastOutput(execution, 'Ask')).toEqual(lastOutput(execution, 'Webhook'));
		expect(fake.sends().filter((s) => s.body.customer_id === '5002')).toHaveLength(1);
	}, 130_000);
});

/**
 * The link opened in Chromium on a phone: the page, the text above its choices or form, and how
 * many elements markup in that text made (none: it is text).
 */
async function questionOn(link) {
	const page = await personPage({ width: 390, height: 844 });
	await page.goto(link);
	const question = page.locator('main > p');
	expect(await question.count()).toBe(1);
	return {
		page,
		question: await question.innerText(),
		markup: await question.locator('*').count(),
	};
}

describe('the page shows the question, as text', () => {
	const person = { name: '<b>Anna</b>', day: 'Monday 1 December', amount: 42 };

	test("WhatsApp Template (Approval): the template's body as sent, without the link", async () => {
		const { sent, links, executionId } = await ask(WORKFLOWS.templateQuestion, person);
		expect(sent.body.attributes).toEqual({ 1: '<b>Anna</b>', 2: 'Monday 1 December', 3: links[0] });
		const { page, question, markup } = await questionOn(links[0]);
		expect(question).toBe(
			'Hi <b>Anna</b>, please confirm your appointment on Monday 1 December on this page. See you soon!',
		);
		expect(markup).toBe(0);
		expect(await page.getByRole('button').allInnerTexts()).toEqual(['✓ Approve', '✗ Decline']);
		await page.getByRole('button', { name: '✓ Approve' }).click();
		await page.getByText('Recorded: ✓ Approve').waitFor();
		expect(lastOutput(await finished(executionId), 'Next')[0].json.data.approved).toBe(true);
	});

	test("WhatsApp Template (Custom Form): the template's body above the form", async () => {
		const { links, executionId } = await ask(WORKFLOWS.templateQuestionForm, person);
		const { page, question, markup } = await questionOn(links[0]);
		expect(question).toBe(
			'Hi <b>Anna</b>, please confirm your appointment on Monday 1 December on this page. See you soon!',
		);
		expect(markup).toBe(0);
		await page.getByLabel('Comment', { exact: true }).fill('See you');
		await page.getByRole('button', { name: 'Submit' }).click();
		await page.getByRole('heading', { name: 'Answer recorded' }).waitFor();
		expect(lastOutput(await finished(executionId), 'Next')[0].json.data.Comment).toBe('See you');
	});

	test('Message (Approval): the message, without its links', async () => {
		const { links } = await ask(WORKFLOWS.messageQuestion, person);
		const { question, markup } = await questionOn(links[1]);
		expect(question).toBe('Refund 42 EUR to <b>Anna</b>?');
		expect(markup).toBe(0);
	});

	test('Message (Approval) with Response Form Description: the description instead', async () => {
		const { links } = await ask(WORKFLOWS.describedQuestion, person);
		const { question, markup } = await questionOn(links[0]);
		expect(question).toBe('Refund 42 EUR to <b>Anna</b>?');
		expect(markup).toBe(0);
	});
});

/**
 * Chromium as a phone: a touch screen 390 pixels wide that honours the page's viewport, with a
 * phone browser's user agent.
 */
async function phonePage() {
	const context = await browser.newContext({
		userAgent: BROWSER_AGENT,
		viewport: { width: 390, height: 844 },
		isMobile: true,
		hasTouch: true,
	});
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

/** The page's answer to a POST of `body` to `link`, as a form posts it. */
async function postTo(link, body) {
	const response = await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_AGENT },
		body,
	});
	return { status: response.status, text: await response.text() };
}

describe('Choice: three options, the third tapped on a phone', () => {
	const person = { name: '<b>Anna</b>', day: 'Monday 1 December' };
	const third = CHOICE_LABELS[2];

	test.each([
		['Message', 'choice', 'When can the technician come, <b>Anna</b>?'],
		[
			'WhatsApp Template',
			'templateChoice',
			'Hi <b>Anna</b>, please confirm your appointment on Monday 1 December on this page. See you soon!',
		],
	])(
		'%s: a GET or an unknown value answers nothing; a tap resumes with its label',
		async (_, key, question) => {
			const { text, links, executionId } = await ask(WORKFLOWS[key], person);
			expect(links).toHaveLength(1);
			if (key === 'choice') expect(text).toBe(`${question}\n\nPick a time: ${links[0]}`);
			for (const userAgent of [...PREVIEW_AGENTS, BROWSER_AGENT]) {
				const response = await fetch(links[0], { headers: { 'user-agent': userAgent } });
				expect(response.status).toBe(200);
				expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
				const buttons = (await response.text()).match(/<button type="submit" name="choice"/g);
				expect(buttons).toHaveLength(3);
			}
			for (const body of ['choice=3', `choice=${encodeURIComponent(third)}`, '']) {
				const page = await postTo(links[0], body);
				expect([body, page.status]).toEqual([body, 400]);
				expect(page.text).toContain('Nothing was recorded: tap one of the buttons below.');
			}
			expect((await storedExecution(rest, executionId)).status).toBe('waiting');

			const page = await phonePage();
			await page.goto(links[0]);
			const shown = page.locator('main > p');
			expect([await shown.innerText(), await shown.locator('*').count()]).toEqual([question, 0]);
			const buttons = page.getByRole('button');
			expect(await buttons.allInnerTexts()).toEqual(CHOICE_LABELS);
			for (const button of await buttons.all()) {
				const box = await button.boundingBox();
				expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
			}
			await page.getByRole('button', { name: third }).tap();
			await page.getByText(`Recorded: ${third}`).waitFor();
			const [answer] = lastOutput(await finished(executionId), 'Next');
			expect(answer.json).toEqual({ data: { choice: third, respondedAt: expect.any(String) } });
		},
	);
});

/** A person fills in FORM_FIELDS with FORM_ANSWER, as the page's labels name them. */
async function fillForm(page) {
	const field = (label) => page.getByLabel(label, { exact: true });
	await field('Name').fill(FORM_ANSWER.Name);
	await field('Quantity').fill(FORM_ANSWER.Quantity);
	await field('Colour').selectOption(FORM_ANSWER.Colour);
	for (const extra of FORM_ANSWER.Extras) await field(extra).check();
	await field('Delivery date').fill(FORM_ANSWER['Delivery date']);
	await field('E-mail').fill(FORM_ANSWER['E-mail']);
	await field('Receipt').setInputFiles({
		name: RECEIPT.name,
		mimeType: RECEIPT.type,
		buffer: Buffer.from(RECEIPT.content),
	});
}

/** The item n8n put out for FORM_ANSWER: its data, and the receipt as a binary property. */
function expectFormAnswer(item) {
	expect(item.json.data).toEqual(FORM_DATA);
	expect(item.binary).toEqual({
		Receipt: expect.objectContaining({ fileName: RECEIPT.name, mimeType: RECEIPT.type }),
	});
}

const askForm = (key) => ask({ webhookPath: forms.paths[key] });
const nextOf = async (key, executionId) =>
	lastOutput(await finished(executionId, `Next ${key}`), `Next ${key}`);

/** A second answer to a form already answered: n8n says so, and the execution stays as it was. */
async function expectSecondAnswerIgnored(key, link, executionId) {
	const before = await storedExecution(rest, executionId);
	const again = await postCustomForm(link, FORM_FIELDS, FORM_ANSWER);
	expect(again.text).toContain('No action required');
	const after = await storedExecution(rest, executionId);
	expect(after.data.resultData.runData).toEqual(before.data.resultData.runData);
	expect(after.data.resultData.runData[`Next ${key}`]).toHaveLength(1);
}

describe('Send and Wait with a custom form', () => {
	let first;

	test('the message carries the form link under its button label; previews answer nothing', async () => {
		first = await askForm('fields');
		const waiting = `${server.url}/webhook-waiting/${first.executionId}/E2eSawForm-fields-1`;
		expect(first.links).toEqual([expect.stringMatching(new RegExp(`^${waiting}\\?signature=`))]);
		expect(first.text).toBe(`Please fill in the return form.\n\nOpen the form: ${first.links[0]}`);
		for (const userAgent of PREVIEW_AGENTS) {
			const response = await fetch(first.links[0], { headers: { 'user-agent': userAgent } });
			expect(response.status).toBe(200);
			expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
			const html = await response.text();
			expect(html).toContain('<form method="post" enctype="multipart/form-data"');
			expect(html).toContain('<h1 dir="auto">Return request</h1>');
		}
		expect((await storedExecution(rest, first.executionId)).status).toBe('waiting');
	});

	test('a person fills the form on a phone: Next gets numbers, a list and the file', async () => {
		const page = await personPage({ width: 390, height: 844 });
		await page.goto(first.links[0]);
		expect((await storedExecution(rest, first.executionId)).status).toBe('waiting');
		expect(await page.title()).toBe('Return request');
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Return request');
		await fillForm(page);
		fs.mkdirSync(SCREENSHOTS, { recursive: true });
		await page.screenshot({ path: path.join(SCREENSHOTS, 'custom-form.png'), fullPage: true });
		await page.getByRole('button', { name: 'Send request' }).click();
		await page.getByRole('heading', { name: 'Answer recorded' }).waitFor();
		await page.getByText(RECEIPT.name).waitFor();
		const [answer] = await nextOf('fields', first.executionId);
		expectFormAnswer(answer);
		await expectSecondAnswerIgnored('fields', first.links[0], first.executionId);
	});

	test('the same form defined as JSON: the page and the output are the same', async () => {
		const { links, executionId } = await askForm('json');
		const page = await personPage({ width: 390, height: 844 });
		await page.goto(links[0]);
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Return request (JSON)');
		await fillForm(page);
		await page.getByRole('button', { name: 'Send request' }).click();
		await page.getByRole('heading', { name: 'Answer recorded' }).waitFor();
		await page.getByText(RECEIPT.name).waitFor();
		expectFormAnswer((await nextOf('json', executionId))[0]);
	});

	test('each rule a crafted answer breaks is refused, the execution waits; a right one resumes it', async () => {
		const big = { name: 'big.pdf', type: 'application/pdf', content: Buffer.alloc(FILE_LIMIT + 1) };
		// Each rule: the answer that breaks it, and what the page then says under that field.
		const rules = {
			'required field empty': [{ Name: '' }, 'Fill in this field.'],
			'text for a number': [{ Quantity: 'three' }, 'Enter a number.'],
			'not a date': [{ 'Delivery date': '2026-13-45' }, 'Enter a date as YYYY-MM-DD.'],
			'not an e-mail address': [
				{ 'E-mail': 'anna.example.com' },
				'Enter an email address, e.g. name@example.com.',
			],
			'option not offered': [{ Colour: 'Purple' }, 'Choose from the options offered.'],
			'selection limit broken': [
				{ Extras: ['Gift wrap', 'Card', 'Express'] },
				'Choose between 1 and 2.',
			],
			'file type not accepted': [
				{ Receipt: { ...RECEIPT, name: 'receipt.exe' } },
				'Choose a file of these types: .pdf, .png.',
			],
			'file over the size limit': [{ Receipt: big }, 'Each file can be up to 16 MB.'],
		};
		const { links, executionId } = await askForm('fields');
		const seen = {};
		const expected = {};
		for (const [rule, [broken, says]] of Object.entries(rules)) {
			const page = await postCustomForm(links[0], FORM_FIELDS, { ...FORM_ANSWER, ...broken });
			const [label] = Object.keys(broken);
			const index = FORM_FIELDS.findIndex((field) => field.fieldLabel === label);
			const kept = label === 'Name' ? FORM_ANSWER['E-mail'] : FORM_ANSWER.Name;
			seen[rule] = {
				status: page.status,
				says: new RegExp(`<p class="error" id="field-${index}-error">([^<]*)</p>`).exec(
					page.text,
				)?.[1],
				errors: page.text.match(/class="error"/g)?.length,
				form: page.text.includes('<form method="post" enctype="multipart/form-data"'),
				alert: page.text.includes('Nothing was recorded: fix what is marked below'),
				kept: page.text.includes(`value="${kept}"`),
				waiting: (await storedExecution(rest, executionId)).status,
			};
			const refused = { status: 400, says, errors: 1, form: true, alert: true, kept: true };
			expected[rule] = { ...refused, waiting: 'waiting' };
		}
		expect(seen).toEqual(expected);
		const right = await postCustomForm(links[0], FORM_FIELDS, FORM_ANSWER);
		expect(right.status).toBe(200);
		expectFormAnswer((await nextOf('fields', executionId))[0]);
		await expectSecondAnswerIgnored('fields', links[0], executionId);
	});

	test('WhatsApp Template: the form link is variable {{3}}; an answer resumes the execution', async () => {
		const { sent, links, executionId } = await askForm('template');
		expect(sent.body.attributes).toEqual({ 1: 'Anna', 2: '1042', 3: links[0] });
		const page = await postCustomForm(links[0], FORM_FIELDS, FORM_ANSWER);
		expect(page.status).toBe(200);
		expectFormAnswer((await nextOf('template', executionId))[0]);
	});

	test('a form that cannot be built fails the node before the service receives anything', async () => {
		const before = fake.sends().length;
		const mark = await executionMark(rest, forms.id);
		const started = await fetch(`${server.url}/webhook/${forms.paths.broken}`, { method: 'POST' });
		expect(started.status).toBe(200);
		const execution = await executionSince(rest, forms.id, mark);
		expect(execution.status).toBe('error');
		const stored = await storedExecution(rest, execution.id);
		expect(stored.data.resultData.lastNodeExecuted).toBe('Ask broken');
		expect(stored.data.resultData.error.message).toMatch(/^Form Fields: the JSON is not valid/);
		expect(fake.sends().slice(before)).toEqual([]);
	});

	test('HTML and CSS from the parameters run no script on the page', async () => {
		// The probe works: the same markup on a page without the node's defences runs its script.
		const { html, css } = hostileMarkup(`${watch.url}/control`);
		const control = await personPage();
		await control.setContent(`<title>Safe form</title><style>${css}</style>${html}`);
		await control.waitForURL(/\/control\/(img|css)$/);
		await control.context().close();

		const { links } = await askForm('hostile');
		const page = await personPage({ width: 390, height: 844 });
		const response = await page.goto(links[0], { waitUntil: 'load' });
		const policy = response.headers()['content-security-policy'];
		expect(policy).toContain("default-src 'none'");
		expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
		await page.getByText('Read this first.').waitFor();
		await page.getByLabel('Comment', { exact: true }).waitFor();
		expect(await page.title()).toBe('Safe form');
		expect(page.url()).toBe(links[0]);
		expect(watch.received.filter((request) => /^\/(img|css)$/.test(request.url))).toEqual([]);
	});
});

describe('readable by everyone: axe at 320 px, light and dark, and the keyboard only', () => {
	test('Approval: the page and its recorded page pass; Tab and Enter approve', async () => {
		const { links, executionId } = await ask(WORKFLOWS.approval, { customer: '4003' });
		const page = await checkingPage(browser);
		await page.goto(links[0]);
		expect(await readableIn(page)).toEqual(READABLE);
		await tabTo(page, 'button');
		await page.keyboard.press('Enter');
		await page.getByText('Recorded: ✓ Approve').waitFor();
		expect(await readableIn(page)).toEqual(READABLE);
		const [answer] = lastOutput(await finished(executionId), 'Next');
		expect(answer.json.data).toEqual({ approved: true, respondedAt: expect.any(String) });
	});

	test('Choice: Tab to the third option, Space records it', async () => {
		const { links, executionId } = await ask(WORKFLOWS.choice, { name: 'Anna' });
		const page = await checkingPage(browser);
		await page.goto(links[0]);
		expect(await readableIn(page)).toEqual(READABLE);
		for (const label of CHOICE_LABELS) {
			await page.keyboard.press('Tab');
			expect(await page.evaluate(() => globalThis.document.activeElement.textContent)).toBe(label);
		}
		await page.keyboard.press('Space');
		await page.getByText(`Recorded: ${CHOICE_LABELS[2]}`).waitFor();
		const [answer] = lastOutput(await finished(executionId), 'Next');
		expect(answer.json.data.choice).toBe(CHOICE_LABELS[2]);
	});

	test('a form of every field type, its refused form with marks and its recorded page', async () => {
		const words = EVERY_TYPE_WORDS.en;
		const { links, executionId } = await askForm('everyType');
		const page = await checkingPage(browser);
		interceptFileChoosers(page);
		await page.goto(links[0]);
		expect(await readableIn(page)).toEqual(READABLE);
		await fillWithKeys(page, ['Anna K', 'Ring twice', 's3cret', '3', 'anna@example.com']);
		// Three extras, one more than the field takes: the server refuses, the browser cannot tell.
		for (const option of [0, 1, 2]) {
			await tabTo(page, `field-8-${option}`);
			await page.keyboard.press('Space');
		}
		await tabTo(page, 'field-9-0');
		await page.keyboard.press('ArrowDown');
		await chooseFiles(page);
		await tabTo(page, 'button');
		await page.keyboard.press('Enter');
		await page.getByRole('alert').waitFor();
		expect(await page.locator('#field-8-error').innerText()).toBe('Choose between 1 and 2.');
		expect(await readableIn(page)).toEqual(READABLE);
		expect((await storedExecution(rest, executionId)).status).toBe('waiting');

		// Fixed with the keyboard: the files chosen again, then back (Shift+Tab) to the third extra,
		// and to the access code, which a page shown again leaves empty.
		expect(await page.locator('#field-2').inputValue()).toBe('');
		await chooseFiles(page);
		await tabTo(page, 'field-8-2', { back: true });
		await page.keyboard.press('Space');
		await tabTo(page, 'field-2', { back: true });
		await page.keyboard.type('s3cret');
		await tabTo(page, 'button');
		await page.keyboard.press('Enter');
		await page.getByRole('heading', { name: 'Answer recorded' }).waitFor();
		expect(await readableIn(page)).toEqual(READABLE);
		const [answer] = await nextOf('everyType', executionId);
		expect(answer.json.data).toEqual({
			Name: 'Anna K',
			Comment: 'Ring twice',
			'Access code': 's3cret',
			Quantity: 3,
			'E-mail': 'anna@example.com',
			'Delivery date': '2026-12-24',
			Colour: 'Green',
			Sizes: ['Small', 'Medium'],
			Extras: ['Gift wrap', 'Card'],
			Delivery: 'Next day',
			note: words.html,
			source: 'sms',
			Receipt: { filename: RECEIPT.name, mimetype: RECEIPT.type, size: RECEIPT.content.length },
			Photos: [{ filename: PHOTO.name, mimetype: PHOTO.type, size: PHOTO.content.length }],
			respondedAt: expect.any(String),
		});
	});
});

/**
 * Types the text fields in order (Name to E-mail), then the date as digits, and picks with the
 * arrow keys: Green in the dropdown, Small and Medium (Shift extends) in the list of sizes.
 */
async function fillWithKeys(page, texts) {
	for (const [index, text] of texts.entries()) {
		await tabTo(page, `field-${index}`);
		await page.keyboard.type(text);
	}
	await tabTo(page, 'field-5');
	await page.keyboard.type('12242026');
	await tabTo(page, 'field-6');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowDown');
	await tabTo(page, 'field-7');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('Shift+ArrowDown');
}

/**
 * Has Chromium intercept the page's file choosers from now until the page closes, as chooseFiles
 * needs. page.waitForEvent('filechooser') alone asks for it only as the wait starts, without waiting
 * for Chromium, so a key pressed at once can open the chooser first and no event ever comes (most
 * likely while the page's main thread is busy).
 */
function interceptFileChoosers(page) {
	page.on('filechooser', () => {});
}

/**
 * Space on each file field opens the file chooser, where the receipt, then a photo, is chosen
 * (the page's choosers intercepted first: interceptFileChoosers).
 * Both: n8n 1.x stops reading a form at an empty file input (the page then asks for a file in each).
 */
async function chooseFiles(page) {
	if (page.listenerCount('filechooser') === 0) throw new Error('interceptFileChoosers(page) first');
	for (const [id, file] of [
		['field-12', RECEIPT],
		['field-13', PHOTO],
	]) {
		await tabTo(page, id);
		const [chooser] = await Promise.all([
			page.waitForEvent('filechooser'),
			page.keyboard.press('Space'),
		]);
		await chooser.setFiles({
			name: file.name,
			mimeType: file.type,
			buffer: Buffer.from(file.content),
		});
	}
}
