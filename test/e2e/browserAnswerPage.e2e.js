'use strict';
/*
 * Browser test: Send and Wait's answer page in Chromium at a phone's size, as the person sees it.
 * A published workflow (Webhook → Ask for approval) sends the question with its links to the fake
 * service and waits; Chromium opens the Approve link with an ordinary phone browser's user agent,
 * the page is saved as answer-page.png (.tmp/screenshots/, or docs/ with `npm run
 * docs:screenshots`), and a click on its button resumes the execution with `approved: true`.
 * No editor: n8n's server, the fake service and one Chromium page.
 */
const fs = require('node:fs');
const path = require('node:path');

const { startFakeService } = require('../fake-service');
const { ensureChromium } = require('../../scripts/lib/chromium');
const n8n = require('../../scripts/lib/n8n');
const { waitingLinks } = require('../helpers/answerPage');
const { BROWSER_AGENT, executionWhen } = require('./sendAndWait.support');
const {
	API_KEY,
	freshUserFolder,
	credentialFor,
	omniNode,
	chain,
	webhookTrigger,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	latestExecution,
} = require('./support');

// A test run must leave tracked files alone: docs/*.png change only through `npm run docs:screenshots`.
const SCREENSHOTS = path.resolve(
	n8n.REPO_ROOT,
	process.env.E2E_SCREENSHOT_DIR || path.join('.tmp', 'screenshots'),
);
const WEBHOOK_PATH = 'e2e-answer-page';
const WORKFLOW = chain('E2eAnswerPage001', 'Browser test: send and wait', [
	webhookTrigger(WEBHOOK_PATH, { atOnce: true }),
	omniNode('Ask for approval', {
		resource: 'message',
		operation: 'sendAndWait',
		customerId: '777001',
		message: '=Refund 42 EUR for order {{ $json.body.orderId }}?',
		approvalOptions: { values: { approvalType: 'double' } },
		options: {},
	}),
]);

let fake;
let server;
let rest;
let browser;

beforeAll(async () => {
	const chromiumBinary = ensureChromium({ log: (line) => process.stderr.write(`${line}\n`) });
	fake = await startFakeService({ apiKey: API_KEY });
	const { root, userFolder } = freshUserFolder('e2e-answer-page');
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'warn',
	});
	const credentialsFile = path.join(root, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify([credentialFor(fake.url)]));
	await n8n.n8nCliOk(['import:credentials', `--input=${credentialsFile}`], { env });
	// A machine shared with other runs may take longer than the default 90 s to start n8n.
	server = await n8n.startN8nServer({ env, timeoutMs: 240_000 });
	rest = new n8n.N8nRest(server.url);
	await rest.ownerSetupOrLogin();
	const { chromium } = require('playwright-core');
	browser = await chromium.launch({
		executablePath: chromiumBinary,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
}, 360_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	await fake?.close();
});

test('the answer page at a phone size; its Approve button resumes the execution with approved: true', async () => {
	const created = await createActiveWorkflow(rest, WORKFLOW);
	const url = `${server.url}/webhook/${WEBHOOK_PATH}`;
	await waitForWebhook(url);
	fake.reset();
	await callWebhook(url, { orderId: '1042' });
	const waiting = await latestExecution(rest, created.id, { timeoutMs: 60_000 });
	expect(waiting.status).toBe('waiting');
	const reviews = fake.requests.filter((r) => r.method === 'POST');
	expect(reviews).toHaveLength(1);
	const [approve] = waitingLinks(reviews[0].body.text);

	// An ordinary phone browser: a user agent n8n's own send and wait would not take for a bot.
	const phone = await browser.newPage({
		viewport: { width: 390, height: 240 },
		userAgent: BROWSER_AGENT,
	});
	phone.setDefaultTimeout(30_000);
	try {
		await phone.goto(approve);
		await phone.getByText('Refund 42 EUR for order 1042?').waitFor();
		fs.mkdirSync(SCREENSHOTS, { recursive: true });
		await phone.screenshot({ path: path.join(SCREENSHOTS, 'answer-page.png') });
		await phone.getByRole('button', { name: 'Approve' }).click();
		await phone.getByText('Answer recorded').waitFor();
	} finally {
		await phone.close();
	}
	// n8n 1.x stores an execution's status a moment before its data: wait for the answer in both.
	const answered = (stored) =>
		!['new', 'running', 'waiting'].includes(stored.status) &&
		stored.data.resultData.runData['Ask for approval']?.at(-1)?.data !== undefined;
	const done = await executionWhen(rest, waiting.id, answered, {
		timeoutMs: 120_000,
		what: 'the answer',
	});
	expect(done.status).toBe('success');
	const [item] = done.data.resultData.runData['Ask for approval'].at(-1).data.main[0];
	expect(item.json.data).toMatchObject({ approved: true });
	expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
}, 180_000);
