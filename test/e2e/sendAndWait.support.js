'use strict';
/* The Send and Wait end-to-end test's workflows and readers (test/e2e/sendAndWait.e2e.js). */
const crypto = require('node:crypto');

const { checkingContext } = require('../../scripts/lib/axe');
const { ensureChromium } = require('../../scripts/lib/chromium');
const { everyTypeFields } = require('../helpers/everyTypeForm');
const { mapperValue } = require('../helpers/mapperValue');
const { PREVIEW_AGENTS, BROWSER_AGENT } = require('../helpers/userAgents');
const { omniNode, chain, workflow, storedExecution, byId, callWebhook } = require('./support');

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

/** Message → Send and Wait to customer `customerId`, asking `message`. */
const messageAsk = (customerId, message) => ({ resource: 'message', customerId, message });
const double = { values: { approvalType: 'double' } };
/** Template 101 on channel 12 to Anna, the answer link in its variable {{3}}. */
const TEMPLATE_ASK = {
	resource: 'whatsappTemplate',
	channelId: byId('12'),
	templateId: byId('101'),
	customerPhone: '+49 151 2345 6789',
	variablesMode: 'mapper',
	variables: mapperValue({ 1: 'Anna', 2: '1042' }),
	linkVariable: 3,
};
/**
 * Template 108 on channel 12 ("Hi {{1}}, please confirm your appointment on {{2}} on this page:
 * {{3}} See you soon!"), its variables from the request, the answer link in {{3}}.
 */
const QUESTION_TEMPLATE = {
	...TEMPLATE_ASK,
	templateId: byId('108'),
	variables: mapperValue({ 1: '={{ $json.body.name }}', 2: '={{ $json.body.day }}' }),
};
/** The three options of the Choice workflows: the page shows one button each, in this order. */
const CHOICE_LABELS = ['Monday 9:00', 'Tuesday 14:00', 'Friday 8:00 <early>'];
const choiceOptions = { values: CHOICE_LABELS.map((label) => ({ label })) };
const WORKFLOWS = {
	approval: askWorkflow('E2eSawApproval01', 'saw-approval', {
		...messageAsk('={{ $json.body.customer }}', 'Refund 42 EUR for order 1042?'),
		approvalOptions: double,
	}),
	freeText: askWorkflow('E2eSawFreeText01', 'saw-free-text', {
		...messageAsk('5001', 'What should we tell the customer?'),
		responseType: 'freeText',
	}),
	limit: askWorkflow('E2eSawLimit00001', 'saw-limit', {
		...messageAsk('5002', 'Approve within 3 seconds?'),
		options: {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
			},
		},
	}),
	template: askWorkflow('E2eSawTemplate01', 'saw-template', {
		...TEMPLATE_ASK,
		approvalOptions: double,
	}),
	templateQuestion: askWorkflow('E2eSawQuestion01', 'saw-question-template', {
		...QUESTION_TEMPLATE,
		approvalOptions: double,
	}),
	templateQuestionForm: askWorkflow('E2eSawQuestion02', 'saw-question-template-form', {
		...QUESTION_TEMPLATE,
		responseType: 'customForm',
		formFields: { values: [{ fieldLabel: 'Comment', fieldType: 'text' }] },
	}),
	messageQuestion: askWorkflow('E2eSawQuestion03', 'saw-question-message', {
		...messageAsk(
			'7003',
			'={{ "Refund " + $json.body.amount + " EUR to " + $json.body.name + "?" }}',
		),
		approvalOptions: double,
	}),
	choice: askWorkflow('E2eSawChoice0001', 'saw-choice', {
		...messageAsk('7005', '={{ "When can the technician come, " + $json.body.name + "?" }}'),
		responseType: 'choice',
		choiceOptions,
		options: { messageButtonLabel: 'Pick a time' },
	}),
	templateChoice: askWorkflow('E2eSawChoice0002', 'saw-choice-template', {
		...QUESTION_TEMPLATE,
		responseType: 'choice',
		choiceOptions,
	}),
	describedQuestion: askWorkflow('E2eSawQuestion04', 'saw-question-described', {
		...messageAsk('7004', 'Refund 42 EUR?'),
		approvalOptions: double,
		options: { responseFormDescription: '={{ "Refund 42 EUR to " + $json.body.name + "?" }}' },
	}),
};

/**
 * The custom form of the tests, as node parameters and (the same list) as JSON: one field of each
 * kind a person fills, a hidden field and a file.
 */
const options = (...names) => ({ values: names.map((option) => ({ option })) });
const FORM_FIELDS = [
	{ fieldLabel: 'Name', fieldType: 'text', placeholder: 'e.g. Anna', requiredField: true },
	{ fieldLabel: 'Quantity', fieldType: 'number' },
	{ fieldLabel: 'Colour', fieldType: 'dropdown', fieldOptions: options('Red', 'Green', 'Blue') },
	{
		fieldLabel: 'Extras',
		fieldType: 'checkbox',
		fieldOptions: options('Gift wrap', 'Card', 'Express'),
		limitSelection: 'range',
		minSelections: 1,
		maxSelections: 2,
	},
	{ fieldLabel: 'Delivery date', fieldType: 'date' },
	{ fieldLabel: 'E-mail', fieldType: 'email' },
	{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'sms' },
	{ fieldLabel: 'Receipt', fieldType: 'file', acceptFileTypes: '.pdf, .png', multipleFiles: false },
];

/** What a person answers, by field label; the file as a browser sends it. */
const RECEIPT = {
	name: 'receipt.pdf',
	type: 'application/pdf',
	content: '%PDF-1.4 receipt 1042\n',
};
const FORM_ANSWER = {
	Name: 'Anna K',
	Quantity: '3',
	Colour: 'Green',
	Extras: ['Gift wrap', 'Card'],
	'Delivery date': '2026-12-24',
	'E-mail': 'anna@example.com',
	Receipt: RECEIPT,
};

/**
 * n8n's output of that answer: numbers as numbers, checkboxes as a list, the hidden field by its
 * name, the file's name, type and size (the file itself is a binary property).
 */
const FORM_DATA = {
	Name: 'Anna K',
	Quantity: 3,
	Colour: 'Green',
	Extras: ['Gift wrap', 'Card'],
	'Delivery date': '2026-12-24',
	'E-mail': 'anna@example.com',
	source: 'sms',
	Receipt: { filename: RECEIPT.name, mimetype: RECEIPT.type, size: RECEIPT.content.length },
	respondedAt: expect.any(String),
};

const formOptions = (title) => ({
	messageButtonLabel: 'Open the form',
	responseFormTitle: title,
	responseFormDescription: 'Tell us what to send back.',
	responseFormButtonLabel: 'Send request',
});

/**
 * HTML and CSS that would, if their script ran, rename the page and leave it for `watchUrl`
 * (a navigation, which no Content-Security-Policy directive stops).
 */
function hostileMarkup(watchUrl) {
	const script = (from) => `document.title='script ran';location.href='${watchUrl}/${from}'`;
	return {
		html: `<p>Read this first.</p><img src=x onerror="${script('img')}">`,
		css: `</style><script>${script('css')}</script><style>`,
	};
}

/**
 * One workflow of several Webhook → Ask → Next chains, each asking with a custom form: the form
 * of fields, the same as JSON, on the WhatsApp template, one of every field type, one that cannot
 * be built, and one whose HTML and CSS try to run a script that would call `watchUrl`.
 */
function formWorkflow(watchUrl) {
	const customForm = { operation: 'sendAndWait', responseType: 'customForm' };
	const onMessage = (customerId, more) => ({
		resource: 'message',
		customerId,
		message: 'Please fill in the return form.',
		...customForm,
		...more,
	});
	const hostile = hostileMarkup(watchUrl);
	const askers = {
		fields: onMessage('6001', {
			defineForm: 'fields',
			formFields: { values: FORM_FIELDS },
			options: formOptions('Return request'),
		}),
		json: onMessage('6002', {
			defineForm: 'json',
			jsonOutput: JSON.stringify(FORM_FIELDS),
			options: formOptions('Return request (JSON)'),
		}),
		template: {
			...TEMPLATE_ASK,
			...customForm,
			defineForm: 'fields',
			formFields: { values: FORM_FIELDS },
			options: formOptions('Return request (template)'),
		},
		// As JSON: a dropdown of several choices is JSON's only, as on n8n's Form node.
		everyType: onMessage('6005', {
			defineForm: 'json',
			jsonOutput: JSON.stringify(everyTypeFields()),
			options: formOptions('Return request (every type)'),
		}),
		broken: onMessage('6003', { defineForm: 'json', jsonOutput: '[{"fieldLabel": "Name", ' }),
		hostile: onMessage('6004', {
			defineForm: 'fields',
			formFields: {
				values: [
					{
						fieldType: 'html',
						elementName: 'note',
						html: hostile.html,
					},
					{ fieldLabel: 'Comment', fieldType: 'text' },
				],
			},
			options: {
				...formOptions('Safe form'),
				responseFormCustomCss: hostile.css,
			},
		}),
	};
	const nodes = [];
	const connections = {};
	for (const [key, parameters] of Object.entries(askers)) {
		const row = nodes.length / 3;
		const names = ['Webhook', 'Ask', 'Next'].map((name) => `${name} ${key}`);
		const chainNodes = [
			{ ...startingWebhook(`saw-form-${key}`), name: names[0] },
			omniNode(names[1], parameters),
			{ ...next, name: names[2] },
		];
		chainNodes.forEach((node, index) =>
			nodes.push({ ...node, id: `E2eSawForm-${key}-${index}`, position: [index * 220, row * 200] }),
		);
		for (const index of [0, 1])
			connections[names[index]] = { main: [[{ node: names[index + 1], type: 'main', index: 0 }]] };
	}
	const built = workflow('E2eSawForms00001', 'e2e send and wait custom forms', nodes, connections);
	const paths = Object.fromEntries(Object.keys(askers).map((key) => [key, `saw-form-${key}`]));
	return { ...built, paths };
}

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

/**
 * Starts a Send and Wait workflow through its webhook (with `body`) on `n8n`'s server; resolves,
 * once its execution waits, with the message `n8n.fake` received, its text, its links (`link`: the
 * first) and the execution's ID.
 */
async function askAndWait({ fake, server, rest }, workflow, body = {}) {
	const before = fake.sends().length;
	await callWebhook(`${server.url}/webhook/${workflow.webhookPath}`, body);
	const deadline = Date.now() + 20_000;
	while (fake.sends().length === before && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	const sent = fake.sends()[before];
	const text = String(sent.body.text ?? sent.body.attributes?.['3']);
	const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
	const executionId = new URL(links[0]).pathname.split('/')[2];
	await executionWhen(rest, executionId, (e) => e.status === 'waiting', { what: 'waiting' });
	return { sent, text, links, link: links[0], executionId };
}

/**
 * The execution once it succeeded and `nextNode` ran: n8n writes an execution's status and its run
 * data in two steps, so a status of success can come a moment before the data.
 */
const finishedExecution = (rest, id, nextNode = 'Next') =>
	executionWhen(rest, id, (e) => e.status === 'success' && lastOutput(e, nextNode) !== undefined, {
		what: `success with ${nextNode} run`,
		timeoutMs: 30_000,
	});

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

/**
 * A page 320 pixels wide with a phone's user agent, where axe-core can run (scripts/lib/axe.js);
 * dates are typed as in the United States (month, day, year).
 */
async function checkingPage(browser) {
	const context = await checkingContext(browser, {
		screen: '320',
		userAgent: BROWSER_AGENT,
		locale: 'en-US',
	});
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

/**
 * Presses Tab (Shift+Tab with `back`) until the element with id `id` (or the page's submit
 * button, for `button`) has the focus: as a person does who uses the keyboard only.
 */
async function tabTo(page, id, { back = false } = {}) {
	for (let presses = 0; presses < 40; presses++) {
		const at = await page.evaluate(
			() => globalThis.document.activeElement?.id || globalThis.document.activeElement?.localName,
		);
		if (at === id) return;
		await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
	}
	throw new Error(`Tab did not reach ${id}`);
}

/** A page in Chromium with a phone's ordinary user agent (and `viewport`, e.g. a phone's screen). */
async function personPage(browser, viewport) {
	const context = await browser.newContext({ userAgent: BROWSER_AGENT, viewport });
	const page = await context.newPage();
	page.setDefaultTimeout(20_000);
	return page;
}

/** A page in Chromium as on a phone: its user agent, a 390 × 844 screen and touch. */
async function phonePage(browser) {
	const context = await browser.newContext({
		userAgent: BROWSER_AGENT,
		viewport: { width: 390, height: 844 },
		isMobile: true,
		hasTouch: true,
	});
	return await context.newPage();
}

module.exports = {
	askWorkflow,
	CHOICE_LABELS,
	PREVIEW_AGENTS,
	BROWSER_AGENT,
	launchChromium,
	personPage,
	phonePage,
	checkingPage,
	tabTo,
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
};
