'use strict';
/*
 * The answer page in the customer's language, in a real n8n (2.41.1, or 1.123.81 with
 * N8N_PIN=1.x) and Chromium on a phone 390 pixels wide, against the fake service: a WhatsApp
 * Template Send and Wait (Choice) in Portuguese (Brazil), a Message Send and Wait (a Custom Form of
 * every field type) in Arabic, and an answer-link broadcast whose three links each carry the
 * language of their customer's item (pt-BR, ar, de). Each page, the page after the answer, a
 * refused answer and an expired link's page are in that language: its `lang`, its `dir` (rtl for
 * Arabic) and none of the English texts the pages had before (pageLanguage.support.js); each answer
 * comes out as it did. A link whose token was changed cannot say its language: its page is in the
 * browser's language (Accept-Language) where the node has it, else in the trigger's. The builder's
 * own texts (title, the page after the answer, the refusal) show where they are set. The answers
 * example's trigger, its question and buttons in Arabic and Hindi beside English (Texts per
 * Language), shows a broadcast's ar, en and hi links each in its words; each answer is the English.
 */
const { sandboxTemplates } = require('../fake-service/seed');
const {
	callWebhook,
	executionMark,
	executionSince,
	storedExecution,
	startN8nWithService,
	closeAll,
} = require('./support');
const {
	BROWSER_AGENT,
	launchChromium,
	askAndWait,
	finishedExecution,
	lastOutput,
	RECEIPT,
} = require('./sendAndWait.support');
const { postCustomForm } = require('../helpers/answerPage');
const {
	PAGE_LANGUAGE,
	pageFacts,
	inLanguage,
	changedToken,
	ARABIC_WORDS,
	ARABIC_FIELDS,
	ARABIC_LABELS,
	ARABIC_ANSWER,
	ARABIC_DATA,
	CHOICES_PT,
} = require('./pageLanguage.support');
const { PHOTO } = require('../helpers/everyTypeForm');

const { TRIGGER_ID, TEXTS_TRIGGER_ID, TRIGGER_LANGUAGE, BUILDER, CUSTOMERS } = PAGE_LANGUAGE;
const { WORKFLOWS, TRIGGERS, BROADCAST, WORDS_TRIGGER_ID, SPEAKERS, exampleWords } = PAGE_LANGUAGE;
const E164 = (phone) => phone.replace(/\s/g, '');

let fake;
let server;
let rest;
let browser;
const triggers = {};

beforeAll(async () => {
	const started = await startN8nWithService('e2e-page-language', {
		service: { templates: sandboxTemplates() },
		workflows: [...Object.values(TRIGGERS), ...Object.values(WORKFLOWS), BROADCAST],
		envOptions: { logLevel: 'warn' },
	});
	({ fake, server, rest } = started);
	for (const [index, key] of Object.keys(TRIGGERS).entries())
		triggers[key] = started.workflows[index];
	browser = await launchChromium();
}, 420_000);

afterAll(() => closeAll(browser, server, fake));

/**
 * Chromium as a phone: a touch screen 390 pixels wide, a phone browser's user agent, and the
 * browser's language: `locale`, which Chromium then sends alone as the Accept-Language header
 * (`fr-FR`, no quality values), or `acceptLanguage`, the header itself. Not both: a context's
 * locale can win over its extra header.
 */
async function phonePage({ locale = 'en-US', acceptLanguage } = {}) {
	const context = await browser.newContext({
		userAgent: BROWSER_AGENT,
		viewport: { width: 390, height: 844 },
		isMobile: true,
		hasTouch: true,
		...(acceptLanguage ? { extraHTTPHeaders: { 'accept-language': acceptLanguage } } : { locale }),
	});
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

/** What the page shown in Chromium says of itself (pageLanguage.support.js). */
const factsOf = async (page) => pageFacts(await page.content());

/** Waits for the page after the answer: it has no button. */
const recordedShown = (page) => page.getByRole('button').first().waitFor({ state: 'detached' });

/** Starts a Send and Wait workflow; resolves with its link and execution once it waits. */
const ask = (workflow) => askAndWait({ fake, server, rest }, workflow);

/** What Next put out once the execution succeeded. */
const answered = async (executionId) =>
	lastOutput(await finishedExecution(rest, executionId), 'Next');

describe('Send and Wait in the Page Language', () => {
	test('WhatsApp Template (Choice) in Portuguese (Brazil): page, refusal, tap, the page after it', async () => {
		const { link, executionId } = await ask(WORKFLOWS.choice);
		const refused = await fetch(link, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_AGENT },
			body: 'choice=9',
		});
		expect([refused.status, pageFacts(await refused.text())]).toEqual([400, inLanguage('pt-BR')]);

		const page = await phonePage();
		await page.goto(link);
		expect(await factsOf(page)).toEqual(inLanguage('pt-BR'));
		expect(await page.getByRole('button').allInnerTexts()).toEqual(CHOICES_PT);
		await page.getByRole('button', { name: CHOICES_PT[1] }).tap();
		await recordedShown(page);
		await page.getByText(CHOICES_PT[1]).waitFor();
		expect(await factsOf(page)).toEqual(inLanguage('pt-BR'));
		const [item] = await answered(executionId);
		expect(item.json).toEqual({ data: { choice: CHOICES_PT[1], respondedAt: expect.any(String) } });
	});

	test('Message (Custom Form, every field type) in Arabic: page, each refusal, answer, the page after it', async () => {
		const { link, executionId } = await ask(WORKFLOWS.form);
		const big = { ...RECEIPT, content: Buffer.alloc(16 * 1024 * 1024 + 1) };
		const label = ARABIC_LABELS;
		const broken = {
			[label.name]: '',
			[label.quantity]: 'ثلاثة',
			[label.email]: 'layla.example.com',
			[label.date]: '2026-13-45',
			[label.colour]: 'بنفسجي',
			[label.sizes]: ['كبير جداً'],
			[label.extras]: ARABIC_WORDS.extras.slice(1),
			[label.delivery]: 'المكتب',
			[label.receipt]: { ...RECEIPT, name: 'receipt.exe' },
		};
		const seen = {};
		for (const [name, value] of [...Object.entries(broken), [label.receipt, big]]) {
			const index = ARABIC_FIELDS.findIndex((field) => field.fieldLabel === name);
			const shown = await postCustomForm(link, ARABIC_FIELDS, { ...ARABIC_ANSWER, [name]: value });
			const says = new RegExp(`<p class="error" id="field-${index}-error">([^<]+)</p>`);
			seen[name] = { status: shown.status, ...pageFacts(shown.text), says: says.test(shown.text) };
		}
		const refusal = { status: 400, ...inLanguage('ar'), says: true };
		expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((label) => [label, refusal])));
		expect((await storedExecution(rest, executionId)).status).toBe('waiting');

		const page = await phonePage();
		await page.goto(link);
		expect(await factsOf(page)).toEqual(inLanguage('ar'));
		await fillArabicForm(page);
		await page.locator('button[type="submit"]').click();
		await recordedShown(page);
		await page.getByText(RECEIPT.name).waitFor();
		expect(await factsOf(page)).toEqual(inLanguage('ar'));
		const [item] = await answered(executionId);
		expect(item.json).toEqual({ data: { ...ARABIC_DATA, respondedAt: expect.any(String) } });
		// As for any label: the binary property is the label with each non-word character as `_`.
		expect(item.binary).toEqual({
			_______: expect.objectContaining({ fileName: RECEIPT.name, mimeType: RECEIPT.type }),
			_____: expect.objectContaining({ fileName: PHOTO.name, mimeType: PHOTO.type }),
		});
	});

	test("Message (Approval) in German with the builder's title and the page after the answer", async () => {
		const { link, executionId } = await ask(WORKFLOWS.texts);
		const page = await phonePage();
		await page.goto(link);
		expect(await factsOf(page)).toEqual(inLanguage('de'));
		expect(await page.title()).toBe(BUILDER.responseFormTitle);
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
			BUILDER.responseFormTitle,
		);
		await page.getByRole('button').first().tap();
		await page.getByText(BUILDER.completionMessage).waitFor();
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(BUILDER.completionTitle);
		expect(await factsOf(page)).toEqual(inLanguage('de'));
		const [item] = await answered(executionId);
		expect(item.json).toEqual({ data: { approved: true, respondedAt: expect.any(String) } });
	});
});

/** A customer fills the Arabic form as its labels name the fields. */
async function fillArabicForm(page) {
	const field = (name) => page.getByLabel(name, { exact: true });
	const [label, answer] = [ARABIC_LABELS, ARABIC_ANSWER];
	for (const name of ['name', 'comment', 'code', 'quantity', 'email', 'date'])
		await field(label[name]).fill(answer[label[name]]);
	await field(label.colour).selectOption(answer[label.colour]);
	await field(label.sizes).selectOption(answer[label.sizes]);
	for (const extra of answer[label.extras]) await field(extra).check();
	await field(answer[label.delivery]).check();
	for (const [name, file] of [
		[label.receipt, RECEIPT],
		[label.photos, PHOTO],
	])
		await field(name).setInputFiles({
			name: file.name,
			mimeType: file.type,
			buffer: Buffer.from(file.content),
		});
}

/**
 * Runs the broadcast for `customers`, each with the trigger and validity given; resolves with each
 * one's link, in order.
 */
async function broadcast(customers) {
	const before = fake.sends().length;
	const output = await callWebhook(`${server.url}/webhook/${BROADCAST.webhookPath}`, { customers });
	expect(output.map((item) => item.status)).toEqual(customers.map(() => 'ongoing'));
	const sent = fake.sends().slice(before);
	expect(sent.map((request) => request.body.customer_phone)).toEqual(
		customers.map(({ phone }) => E164(phone)),
	);
	return sent.map((request) => request.body.attributes['3']);
}

const toTrigger = (webhookId, validForMinutes) => (customer) => ({
	...customer,
	triggerUrl: `${server.url}/webhook/${webhookId}`,
	validForMinutes,
});

/** The trigger workflow's executions started after `mark`, after a moment for any to appear. */
async function startedSince(workflowId, mark) {
	await new Promise((resolve) => setTimeout(resolve, 1500));
	return (await executionMark(rest, workflowId)) > mark;
}

/**
 * A link opened in Chromium (`browserLanguage` as phonePage takes it): the Accept-Language header
 * Chromium sent, the page's status and what it says of itself.
 */
async function opened(link, browserLanguage) {
	const page = await phonePage(browserLanguage);
	const response = await page.goto(link);
	const header = (await response.request().allHeaders())['accept-language'];
	const facts = await factsOf(page);
	await page.context().close();
	return { header, status: response.status(), ...facts };
}

describe('answer links: a Page Language per customer, from their item', () => {
	let expired;

	// Sent first, valid for 3 seconds: expired by the time the others are answered.
	beforeAll(async () => {
		const soon = [
			...CUSTOMERS.map(toTrigger(TRIGGER_ID, 0.05)),
			toTrigger(TEXTS_TRIGGER_ID, 0.05)(CUSTOMERS[0]),
		];
		const sentAt = Date.now();
		expired = { links: await broadcast(soon), sentAt };
	});

	test('three links in pt-BR, ar and de: each page and the page after the answer; each answer as before', async () => {
		const links = await broadcast(CUSTOMERS.map(toTrigger(TRIGGER_ID, 7 * 24 * 60)));
		for (const link of links)
			expect(link.length - `${server.url}/webhook/${TRIGGER_ID}`.length).toBeLessThanOrEqual(160);
		for (const [index, link] of links.entries()) {
			const { locale, phone, appointment } = CUSTOMERS[index];
			const mark = await executionMark(rest, triggers.plain.id);
			const page = await phonePage();
			await page.goto(link);
			expect([locale, await factsOf(page)]).toEqual([locale, inLanguage(locale)]);
			expect(await page.getByRole('button').count()).toBe(2);
			await page.getByRole('button').first().tap();
			await recordedShown(page);
			expect([locale, await factsOf(page)]).toEqual([locale, inLanguage(locale)]);
			await page.context().close();
			const { id, status } = await executionSince(rest, triggers.plain.id, mark, {
				timeoutMs: 30_000,
			});
			expect(status).toBe('success');
			const [item] = lastOutput(await storedExecution(rest, id), 'Next');
			expect(item.json).toEqual({
				data: { approved: true, respondedAt: expect.any(String) },
				recipient: { phone: E164(phone) },
				reference: appointment,
				sentAt: expect.any(String),
				answeredAt: item.json.data.respondedAt,
				answerKey: expect.stringMatching(/^[\w-]{22}$/),
			});
		}
	});

	test("the expired links: a page in each link's language, on GET and POST; nothing starts", async () => {
		// Valid for 3 seconds, sealed in whole seconds: expired 5 seconds after sending, whatever the rounding.
		await new Promise((resolve) =>
			setTimeout(resolve, Math.max(0, expired.sentAt + 5000 - Date.now())),
		);
		const mark = await executionMark(rest, triggers.plain.id);
		for (const [index, link] of expired.links.slice(0, 3).entries()) {
			const { locale } = CUSTOMERS[index];
			expect([locale, await opened(link)]).toEqual([
				locale,
				{ header: 'en-US', status: 410, ...inLanguage(locale) },
			]);
			const posted = await fetch(link, {
				method: 'POST',
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					'user-agent': BROWSER_AGENT,
				},
				body: 'approved=true',
			});
			const facts = { status: posted.status, ...pageFacts(await posted.text()) };
			expect([locale, facts]).toEqual([locale, { status: 410, ...inLanguage(locale) }]);
		}
		expect(await startedSince(triggers.plain.id, mark)).toBe(false);
	});

	test("a changed link: the browser's language where offered, else the trigger's; nothing starts", async () => {
		const [link] = await broadcast([toTrigger(TRIGGER_ID, 60)(CUSTOMERS[1])]);
		const changed = changedToken(link);
		const mark = await executionMark(rest, triggers.plain.id);
		// Chromium sends its locale alone as Accept-Language; a phone's own list has quality values.
		const quality = 'ja,ar;q=0.5,tr;q=0.9';
		const seen = [
			await opened(changed, { locale: 'fr-FR' }),
			await opened(changed, { locale: 'ja' }),
			await opened(changed, { acceptLanguage: quality }),
		];
		const refused = (header, tag) => ({ header, status: 400, ...inLanguage(tag) });
		expect(seen).toEqual([
			refused('fr-FR', 'fr'),
			refused('ja', TRIGGER_LANGUAGE),
			refused(quality, 'tr'),
		]);
		expect(await startedSince(triggers.plain.id, mark)).toBe(false);
	});

	test("the trigger's builder texts: its title, the page after the answer, the refusal", async () => {
		const [link] = await broadcast([toTrigger(TEXTS_TRIGGER_ID, 60)(CUSTOMERS[0])]);
		const mark = await executionMark(rest, triggers.texts.id);
		const page = await phonePage();
		await page.goto(link);
		expect(await factsOf(page)).toEqual(inLanguage('pt-BR'));
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
			BUILDER.responseFormTitle,
		);
		await page.getByRole('button').first().tap();
		await page.getByText(BUILDER.completionMessage).waitFor();
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(BUILDER.completionTitle);
		await page.context().close();
		const { status } = await executionSince(rest, triggers.texts.id, mark, { timeoutMs: 30_000 });
		expect(status).toBe('success');

		const refusals = [expired.links[3], changedToken(link)];
		for (const refused of refusals) {
			const shown = await phonePage({ locale: 'de-DE' });
			await shown.goto(refused);
			await shown.getByText(BUILDER.refusalMessage).waitFor();
			await shown.context().close();
		}
	});

	test("the builder's words in ar, en and hi: each page its own question and buttons; one choice", async () => {
		const links = await broadcast(SPEAKERS.map(toTrigger(WORDS_TRIGGER_ID, 60)));
		const answers = [];
		for (const [index, link] of links.entries()) {
			const { locale } = SPEAKERS[index];
			const { question, labels } = exampleWords(locale);
			const mark = await executionMark(rest, triggers.words.id);
			const page = await phonePage();
			await page.goto(link);
			const shown = {
				lang: (await factsOf(page)).lang,
				question: await page.getByText(question, { exact: true }).count(),
				buttons: await page.getByRole('button').allInnerTexts(),
			};
			expect([locale, shown]).toEqual([locale, { lang: locale, question: 1, buttons: labels }]);
			await page.getByRole('button', { name: labels[1] }).tap();
			await recordedShown(page);
			await page.getByText(labels[1]).waitFor();
			await page.context().close();
			const { id } = await executionSince(rest, triggers.words.id, mark, { timeoutMs: 30_000 });
			const [item] = lastOutput(await storedExecution(rest, id), 'Next');
			answers.push({ data: item.json.data, reference: item.json.reference });
		}
		// Whatever the page showed, the answer is the trigger's own label: one Switch branch each.
		expect(answers).toEqual(
			SPEAKERS.map(({ appointment }) => ({
				data: { choice: exampleWords().labels[1], respondedAt: expect.any(String) },
				reference: appointment,
			})),
		);
	});
});
