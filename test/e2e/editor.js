'use strict';
/*
 * n8n's editor in Chromium (through playwright-core), shared by the browser tests: a real n8n with
 * the built package, the given credentials and workflows imported, and a signed-in page.
 *
 * Chromium: CHROMIUM_PATH, or Debian's /usr/bin/chromium, which scripts/lib/chromium.js installs
 * when it is missing and the test runs as root (otherwise it says what to install).
 */
const fs = require('node:fs');
const path = require('node:path');

const { ensureChromium } = require('../../scripts/lib/chromium');
const n8n = require('../../scripts/lib/n8n');
const { startFakeService } = require('../fake-service');
const { sandboxTemplates } = require('../fake-service/seed');
const { API_KEY, closeAll, credentialFor, freshUserFolder } = require('./support');
const { publishWorkflow, waitForWebhook, webhookPaths } = require('./support');

const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-quic',
];

/** Polls `read` until it returns something truthy (or the time is up, then returns the last value). */
async function until(read, timeoutMs = 10_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

async function signIn(page, serverUrl) {
	await page.goto(`${serverUrl}/signin`);
	await page
		.locator('[data-test-id="emailOrLdapLoginId"] input, input[data-test-id="emailOrLdapLoginId"]')
		.first()
		.fill(n8n.DEFAULT_OWNER.email);
	await page
		.locator('[data-test-id="password"] input, input[data-test-id="password"]')
		.first()
		.fill(n8n.DEFAULT_OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** Imports `credentials` and `workflows` (arrays as n8n's CLI takes them) into a fresh n8n folder. */
async function importInto(env, root, { credentials, workflows }) {
	const credentialsFile = path.join(root, 'credentials.json');
	fs.writeFileSync(credentialsFile, JSON.stringify(credentials));
	const workflowFile = path.join(root, 'workflows.json');
	fs.writeFileSync(workflowFile, JSON.stringify(workflows));
	await n8n.n8nCliOk(['import:credentials', `--input=${credentialsFile}`], { env });
	await n8n.n8nCliOk(['import:workflow', `--input=${workflowFile}`], { env });
}

/**
 * Starts n8n with the credentials and workflows, its REST API (`rest`) with the owner logged in,
 * and Chromium signed in to its editor. `step` runs an action and, when it fails, keeps a
 * screenshot next to the test's n8n folder.
 */
async function startEditor(name, imports) {
	const chromiumBinary = ensureChromium({ log: (line) => process.stderr.write(`${line}\n`) });
	const { root, userFolder } = freshUserFolder(name);
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'warn',
	});
	await importInto(env, root, imports);
	const server = await n8n.startN8nServer({ env });
	let browser;
	const rest = new n8n.N8nRest(server.url);
	const close = async () => {
		await browser?.close();
		await server.stop();
	};
	try {
		await rest.ownerSetupOrLogin();
		const { chromium, selectors } = require('playwright-core');
		selectors.setTestIdAttribute('data-test-id');
		browser = await chromium.launch({
			executablePath: chromiumBinary,
			headless: true,
			args: CHROMIUM_ARGS,
		});
		const page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
		const step = stepsOn(page, root);
		// A busy machine (CI, or tests side by side) draws the editor slowly, the first time most.
		page.setDefaultTimeout(90_000);
		await step('sign in', () => signIn(page, server.url));
		page.setDefaultTimeout(60_000);
		return { server, rest, browser, page, root, env, step, close };
	} catch (error) {
		await close();
		throw error;
	}
}

/**
 * The fake service (`service`: its options, by default the sandbox's templates) and the editor
 * (startEditor) with a credential for it (`credentials`: more of them) and `workflows`; then
 * `publish`'s workflows (of those) published, their webhooks served.
 */
async function startEditorWithService(
	name,
	{ service = { templates: sandboxTemplates() }, credentials = [], workflows, publish = [] },
) {
	const started = { fake: await startFakeService({ apiKey: API_KEY, ...service }) };
	try {
		started.editor = await startEditor(name, {
			credentials: [credentialFor(started.fake.url), ...credentials],
			workflows,
		});
		const { rest, server } = started.editor;
		for (const workflow of publish) {
			await publishWorkflow(rest, { id: workflow.id });
			for (const webhookPath of webhookPaths(workflow))
				await waitForWebhook(`${server.url}/webhook/${webhookPath}`);
		}
		return started;
	} catch (error) {
		await closeAll(started.editor, started.fake);
		throw error;
	}
}

/** A workflow of examples/ as shipped. */
const readExample = (file) =>
	JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', file), 'utf8'));

/** A step runs an action; when it fails, a screenshot is kept next to the test's n8n folder. */
function stepsOn(page, root) {
	return async (stepName, action) => {
		try {
			return await action();
		} catch (error) {
			const shot = path.join(root, `failed-${stepName.replace(/\W+/g, '-')}.png`);
			await page.screenshot({ path: shot }).catch(() => {});
			error.message = `${stepName}: ${error.message}\n(screenshot: ${shot})`;
			throw error;
		}
	};
}

module.exports = { startEditor, startEditorWithService, readExample, until };
