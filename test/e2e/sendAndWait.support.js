'use strict';
/* The Send and Wait end-to-end test's workflows and readers (test/e2e/sendAndWait.e2e.js). */
const crypto = require('node:crypto');

const { ensureChromium } = require('../../scripts/lib/chromium');
const { mapperValue } = require('../helpers/mapperValue');
const { omniNode, chain, storedExecution } = require('./support');

/** The link previews of WhatsApp, Facebook/Messenger, Telegram and Slack. */
const PREVIEW_AGENTS = [
	'WhatsApp/2.23.20.0 A',
	'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
	'TelegramBot (like TwitterBot)',
	'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
];

/** A person's browser: isbot-style filters call "HeadlessChrome" a bot. */
const BROWSER_AGENT =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
	'Chrome/131.0.0.0 Mobile Safari/537.36';

/** A Webhook trigger that answers at once: the execution goes on to wait. */
function startingWebhook(webhookPath) {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
}

const next = { name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };

/** Webhook → Ask (Send and Wait with `parameters`) → Next. */
function askWorkflow(id, webhookPath, parameters) {
	const built = chain(id, `e2e send and wait ${webhookPath}`, [
		startingWebhook(webhookPath),
		omniNode('Ask', { operation: 'sendAndWait', ...parameters }),
		next,
	]);
	return { ...built, webhookPath };
}

const double = { values: { approvalType: 'double' } };
const WORKFLOWS = {
	approval: askWorkflow('E2eSawApproval01', 'saw-approval', {
		resource: 'message',
		customerId: '={{ $json.body.customer }}',
		message: 'Refund 42 EUR for order 1042?',
		approvalOptions: double,
	}),
	freeText: askWorkflow('E2eSawFreeText01', 'saw-free-text', {
		resource: 'message',
		customerId: '5001',
		message: 'What should we tell the customer?',
		responseType: 'freeText',
	}),
	limit: askWorkflow('E2eSawLimit00001', 'saw-limit', {
		resource: 'message',
		customerId: '5002',
		message: 'Approve within 3 seconds?',
		options: {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
			},
		},
	}),
	template: askWorkflow('E2eSawTemplate01', 'saw-template', {
		resource: 'whatsappTemplate',
		channelId: { __rl: true, mode: 'id', value: '12' },
		templateId: { __rl: true, mode: 'id', value: '101' },
		customerPhone: '+49 151 2345 6789',
		variablesMode: 'mapper',
		variables: mapperValue({ 1: 'Anna', 2: '1042' }),
		linkVariable: 3,
		approvalOptions: double,
	}),
};

/** Polls the execution until `done(execution)` holds. */
async function executionWhen(rest, id, done, { timeoutMs = 20_000, what = 'the state' } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await storedExecution(rest, id);
		if (done(execution)) return execution;
		if (Date.now() > deadline)
			throw new Error(
				`execution ${id} did not reach ${what} in ${timeoutMs} ms: ${execution.status}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The items a node put out in its last run. */
function lastOutput(execution, nodeName) {
	const runs = execution.data.resultData.runData[nodeName] ?? [];
	return runs.length === 0 ? undefined : runs[runs.length - 1].data?.main?.[0];
}

/** The link with one character of its signature changed. */
function tampered(link) {
	const url = new URL(link);
	const signature = url.searchParams.get('signature');
	const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
	url.searchParams.set('signature', flipped);
	return url.toString();
}

/** Headless Chromium for the person who answers (installed when missing, scripts/lib/chromium.js). */
async function launchChromium() {
	const executablePath = ensureChromium({ log: (line) => process.stderr.write(`${line}\n`) });
	const { chromium } = require('playwright-core');
	return await chromium.launch({
		executablePath,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
}

/** A page in Chromium with a phone's ordinary user agent. */
async function personPage(browser) {
	const context = await browser.newContext({ userAgent: BROWSER_AGENT });
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

module.exports = {
	PREVIEW_AGENTS,
	BROWSER_AGENT,
	launchChromium,
	personPage,
	WORKFLOWS,
	executionWhen,
	lastOutput,
	tampered,
};
