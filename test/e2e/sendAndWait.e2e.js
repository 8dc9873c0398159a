'use strict';
/*
 * Send and Wait for Response in a real n8n (2.41.1, or 1.123.81 with N8N_PIN=1.x): published
 * workflows Webhook → Ask (this node) → Next, against the fake service. The message's links are
 * opened as link previews do (never an answer), with a broken signature (refused), and in Chromium
 * by a person (the page's button records the answer and n8n resumes the execution). A wait limit
 * of 3 seconds ends the wait with the input passed on and exactly one message sent.
 */
const fs = require('node:fs');
const path = require('node:path');

const { startFakeService } = require('../fake-service');
const n8n = require('../../scripts/lib/n8n');
const {
	API_KEY,
	freshUserFolder,
	credentialFor,
	createActiveWorkflow,
	waitForWebhook,
	storedExecution,
	SCREENSHOTS,
} = require('./support');
const {
	PREVIEW_AGENTS,
	WORKFLOWS,
	executionWhen,
	lastOutput,
	tampered,
	launchChromium,
	personPage: personPageIn,
} = require('./sendAndWait.support');

let fake;
let server;
let rest;
let browser;

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	const { root, userFolder } = freshUserFolder('e2e-send-and-wait');
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'warn',
	});
	const credentialsFile = path.join(root, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify([credentialFor(fake.url)]));
	await n8n.n8nCliOk(['import:credentials', `--input=${credentialsFile}`], { env });
	// A busy machine can take more than the default 90 s to migrate a fresh database.
	server = await n8n.startN8nServer({ env, timeoutMs: 240_000 });
	rest = new n8n.N8nRest(server.url);
	await rest.ownerSetupOrLogin();
	for (const workflow of Object.values(WORKFLOWS)) {
		await createActiveWorkflow(rest, workflow);
		await waitForWebhook(`${server.url}/webhook/${workflow.webhookPath}`);
	}
	browser = await launchChromium();
}, 420_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	await fake?.close();
});

/** Starts the workflow; resolves with the message the service received, its links and the execution. */
async function ask(workflow, body = {}) {
	const before = fake.sends().length;
	const started = await fetch(`${server.url}/webhook/${workflow.webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(started.status).toBe(200);
	const deadline = Date.now() + 20_000;
	while (fake.sends().length === before && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	const sent = fake.sends()[before];
	const text = String(sent.body.text ?? sent.body.attributes?.['3']);
	const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
	const executionId = new URL(links[0]).pathname.split('/')[2];
	await executionWhen(rest, executionId, (e) => e.status === 'waiting', { what: 'waiting' });
	return { sent, text, links, executionId };
}

const personPage = () => personPageIn(browser);

const finished = (id) =>
	executionWhen(rest, id, (e) => e.status === 'success', { what: 'success', timeoutMs: 30_000 });

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
