'use strict';
/*
 * Browser test: the node in n8n's editor (Chromium through playwright-core), against the fake
 * service. Opens a workflow holding the node, sets the channel, opens the template dropdown
 * (the list comes from the node's searchTemplates method), picks order_shipped, fills the three
 * variable fields the resource mapper shows (getTemplateVariables), executes the node and checks
 * the result. Saves template-dropdown.png and node-panel.png to .tmp/screenshots/ (git-ignored);
 * `npm run docs:screenshots` runs it with E2E_SCREENSHOT_DIR=docs to refresh the README's images.
 *
 * Needs Chromium at /usr/bin/chromium (Debian: apt-get install -y chromium) or CHROMIUM_PATH.
 */
const fs = require('node:fs');
const path = require('node:path');

const { startFakeService } = require('../fake-service');
const n8n = require('../../scripts/lib/n8n');
const { API_KEY, CREDENTIAL, freshUserFolder, credentialFor, trigger, omniNode, chain } = require('./support');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// A test run must leave tracked files alone: docs/*.png change only through `npm run docs:screenshots`.
const SCREENSHOTS = path.resolve(n8n.REPO_ROOT, process.env.E2E_SCREENSHOT_DIR || path.join('.tmp', 'screenshots'));
const WORKFLOW = chain('E2eBrowserWf0001', 'Browser test: WhatsApp template', [
	trigger(),
	omniNode('Send WhatsApp template', {
		resource: 'whatsappTemplate',
		operation: 'send',
		customerPhone: '+49 151 2345 6789',
	}),
]);
const BODY_PREVIEWS = {
	order_shipped: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}.',
	spring_offer: 'Hello {{1}}, enjoy {{2}}% off this week only.',
	invoice_ready: 'Dear {{1}}, your invoice is attached.',
	opening_hours: 'We are open Monday to Friday, 9:00 to 18:00.',
	appointment_reminder: 'Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. See you, {{1}}.',
	product_video: 'Watch how {{1}} works.',
	voice_note: 'A message from {{1}}.',
};

let fake;
let server;
let browser;
let page;
let root;

beforeAll(async () => {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`Chromium is not installed at ${CHROMIUM}. Install it with \`apt-get update && apt-get install -y chromium\` (Debian; .ci/run does this) or set CHROMIUM_PATH to a Chromium binary.`,
		);
	}
	fake = await startFakeService({ apiKey: API_KEY });
	const folder = freshUserFolder('e2e-browser');
	root = folder.root;
	const env = n8n.n8nEnv({
		userFolder: folder.userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'warn',
	});
	const credentialsFile = path.join(root, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify([credentialFor(fake.url)]));
	const workflowFile = path.join(root, 'workflow.json');
	fs.writeFileSync(workflowFile, JSON.stringify(WORKFLOW));
	await n8n.n8nCliOk(['import:credentials', `--input=${credentialsFile}`], { env });
	await n8n.n8nCliOk(['import:workflow', `--input=${workflowFile}`], { env });

	server = await n8n.startN8nServer({ env });
	await new n8n.N8nRest(server.url).ownerSetupOrLogin();

	const { chromium, selectors } = require('playwright-core');
	selectors.setTestIdAttribute('data-test-id');
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			'--disable-quic',
		],
	});
	page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
	page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	await fake?.close();
});

/** Polls `read` until it returns something truthy (or the time is up, then returns the last value). */
async function until(read, timeoutMs = 10_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** On a failed step, keep a screenshot next to the test's n8n folder for debugging. */
async function step(name, action) {
	try {
		return await action();
	} catch (error) {
		const shot = path.join(root, `failed-${name.replace(/\W+/g, '-')}.png`);
		await page?.screenshot({ path: shot }).catch(() => {});
		error.message = `${name}: ${error.message}\n(screenshot: ${shot})`;
		throw error;
	}
}

test('template dropdown, variable fields and execution in the node panel', async () => {
	fs.mkdirSync(SCREENSHOTS, { recursive: true });

	await step('sign in', async () => {
		await page.goto(`${server.url}/signin`);
		await page.locator('[data-test-id="emailOrLdapLoginId"] input, input[data-test-id="emailOrLdapLoginId"]').first().fill(n8n.DEFAULT_OWNER.email);
		await page.locator('[data-test-id="password"] input, input[data-test-id="password"]').first().fill(n8n.DEFAULT_OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	});

	const ndv = page.getByTestId('ndv');
	await step('open the node', async () => {
		await page.goto(`${server.url}/workflow/${WORKFLOW.id}`);
		await page.getByTestId('canvas-node').filter({ hasText: 'Send WhatsApp template' }).dblclick();
		await ndv.getByTestId('parameter-input-channelId').waitFor();
		// The credential imported for the node is preselected.
		const credential = ndv.getByTestId('node-credentials-select').locator('input').first();
		await expect(credential.inputValue()).resolves.toBe(CREDENTIAL.name);
	});

	await step('set the channel', async () => {
		const channel = ndv.getByTestId('parameter-input-channelId').locator('input');
		await channel.fill('12');
		await channel.press('Tab');
	});

	const listing = await step('open the template dropdown', async () => {
		const response = page.waitForResponse((r) => r.url().includes('/rest/dynamic-node-parameters/resource-locator-results'));
		await ndv.getByTestId('resource-locator-templateId').getByTestId('rlc-input').click();
		const body = await (await response).json();
		await page.getByTestId('rlc-item').nth(6).waitFor();
		return body.data.results;
	});

	await step('see the templates with their body preview', async () => {
		const items = page.getByTestId('rlc-item');
		await expect(items.count()).resolves.toBe(7);
		const shown = (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
		// Each entry: the template's name, then the start of its body (searchTemplates puts the
		// preview into the name, since n8n's list draws only names).
		expect(shown.map((text) => text.split(' ')[0])).toEqual(Object.keys(BODY_PREVIEWS));
		Object.values(BODY_PREVIEWS).forEach((body, index) => {
			expect(shown[index]).toContain(body.slice(0, 30));
		});
		expect(listing.map(({ value }) => value)).toEqual(['101', '102', '103', '104', '105', '106', '107']);
		listing.forEach(({ name, description }, index) => {
			const [template, body] = Object.entries(BODY_PREVIEWS)[index];
			expect(name.startsWith(template)).toBe(true);
			expect(description).toContain(body.slice(0, 30));
		});
		const sandboxRequests = fake.requests.filter((r) => r.path.endsWith('/whatsapp/get-template-list'));
		expect(sandboxRequests.map((r) => r.query)).toEqual([{ platform_id: '12' }]);
		await page.screenshot({ path: path.join(SCREENSHOTS, 'template-dropdown.png') });
	});

	const mapper = ndv.getByTestId('resource-mapper-container');
	await step('pick order_shipped and see one field per placeholder', async () => {
		await page.getByTestId('rlc-item').filter({ hasText: 'order_shipped' }).click();
		const locatorInputs = ndv.getByTestId('resource-locator-templateId').locator('input');
		const picked = await until(async () => {
			const values = await locatorInputs.evaluateAll((inputs) => inputs.map((input) => input.value));
			return values.find((value) => value.startsWith('order_shipped'));
		});
		expect(picked).toMatch(/^order_shipped/);
		await mapper.getByTestId('parameter-input-3').waitFor();
		// One field container per placeholder: value["1"], value["2"], value["3"].
		const fields = mapper.locator('[data-test-id^="value["][data-test-id$="-parameter-input-options-container"]');
		await expect(fields.count()).resolves.toBe(3);
		for (const position of ['1', '2', '3']) {
			await expect(mapper.getByTestId(`parameter-input-${position}`).count()).resolves.toBe(1);
		}
		await expect(mapper.getByTestId('parameter-input-4').count()).resolves.toBe(0);
		const labels = await mapper.locator('label, [data-test-id="input-label"]').allInnerTexts();
		for (const position of ['1', '2', '3']) {
			expect(labels.join('\n')).toContain(`{{${position}}}`);
		}
	});

	await step('fill the variables', async () => {
		const values = { 1: 'Anna', 2: '1042', 3: 'Friday' };
		for (const [position, value] of Object.entries(values)) {
			const field = mapper.getByTestId(`parameter-input-${position}`).locator('input, textarea').first();
			await field.fill(value);
			await field.press('Tab');
		}
	});

	await step('execute the node and see the result', async () => {
		fake.reset();
		await ndv.getByTestId('node-execute-button').click();
		const output = ndv.getByTestId('output-panel');
		await output.getByText('ongoing').first().waitFor({ timeout: 45_000 });
		await output.getByText('send_template_message').first().waitFor();
		await output.getByTestId('radio-button-json').click();
		await output.getByText('"ongoing"').first().waitFor();
		await mapper.scrollIntoViewIfNeeded();
		await page.screenshot({ path: path.join(SCREENSHOTS, 'node-panel.png') });
	});

	const sends = fake.requests.filter((r) => r.method === 'POST');
	expect(sends.map((r) => [r.path, r.body])).toEqual([
		[
			'/stable/open/whatsapp/send-template-message',
			{
				template_id: '101',
				channel_id: '12',
				customer_phone: '+4915123456789',
				attributes: { 1: 'Anna', 2: '1042', 3: 'Friday' },
			},
		],
	]);
}, 240_000);
