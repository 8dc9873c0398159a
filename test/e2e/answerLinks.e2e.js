'use strict';
/*
 * Answer links in a real n8n (2.41.1, or 1.123.81 with N8N_PIN=1.x), against the fake service:
 * a published workflow sends WhatsApp Template → Send with an Answer Link to 3 customers, and a
 * published Omnichannel Messaging Trigger workflow (trigger → Remove Duplicates on answerKey →
 * Next) receives the answers. Every link is opened by link previews and a browser (nothing
 * starts), then answered through its page (exactly one execution each, with its recipient and
 * reference); the same link answered again starts an execution that Remove Duplicates ends; an
 * answer in the link's query alone starts nothing (the trigger reads only the form); a tampered
 * link, an expired one and one sealed under another API key get a page that says so, and start
 * nothing. The service answers after 100 ms with 10 requests in flight, as at scale: then the
 * same checks on a few dozen customers, or on 5,000 under `npm run bench:answer-links`
 * (test/helpers/answerLinksAtScale.js); junk sent to a trigger (test/helpers/junkLinks.js) and
 * what each page costs to serve (test/helpers/answerPageCosts.js).
 */
const crypto = require('node:crypto');

const path = require('node:path');

const { startFakeService } = require('../fake-service');
const { sandboxTemplates } = require('../fake-service/seed');
const n8n = require('../../scripts/lib/n8n');
const {
	API_KEY,
	credentialFor,
	publishWithWebhooks,
	startN8nWithService,
	closeAll,
	callWebhook,
	webhookTrigger,
	codeNode,
	omniNode,
	chain,
	templateSend,
	executionMark,
	executionSince,
	storedExecution,
	CREDENTIAL,
} = require('./support');
const { PREVIEW_AGENTS, BROWSER_AGENT, lastOutput } = require('./sendAndWait.support');
const { answerThroughPage } = require('../helpers/answerPage');
const scale = require('../helpers/answerLinksAtScale');
const junk = require('../helpers/junkLinks');
const pages = require('../helpers/answerPageCosts');

const TRIGGER_ID = crypto.randomUUID();
const CUSTOMERS = [
	{ phone: '+49 151 2345 6701', name: 'Anna', appointment: 'appointment-981' },
	{ phone: '+49 151 2345 6702', name: 'Bo', appointment: 'appointment-982' },
	{ phone: '+49 151 2345 6703', name: 'Cy', appointment: 'appointment-983' },
];
const E164 = (phone) => phone.replace(/\s/g, '');

// The same service under another API key, and a credential for it.
const OTHER_KEY = { id: 'OmniOtherKeyCred', name: 'Omnichannel Messaging (another key)' };
const ctx = { figures: {} };

let fake;
let otherFake;
let server;
let rest;
let answers;

/** The trigger's workflow: On Answer → Remove Duplicates on answerKey → Next. */
function answerWorkflow() {
	return chain('E2eAnswerLinks01', 'e2e answer links: the answers', [
		{
			name: 'On Answer',
			type: `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`,
			typeVersion: 1,
			webhookId: TRIGGER_ID,
			parameters: {
				responseType: 'approval',
				approvalOptions: { values: { approvalType: 'double' } },
				options: { responseFormDescription: 'Can you come on Tuesday at 10:00?' },
			},
			credentials: { [n8n.CREDENTIAL_TYPE]: { ...CREDENTIAL } },
		},
		{
			name: 'First Answer Only',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: '={{ $json.answerKey }}',
				options: {},
			},
		},
		{ name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/** A workflow that sends the appointment template to `customers`, the link in {{3}}. */
function sendWorkflow(id, webhookPath, customers, validFor, credential) {
	const built = chain(id, `e2e answer links: send ${webhookPath}`, [
		webhookTrigger(webhookPath),
		codeNode('Customers', customers),
		omniNode(
			'Send',
			templateSend(
				'101',
				{ 1: '={{ $json.name }}', 2: '1042' },
				{
					answerLink: {
						values: {
							triggerUrl: `${server.url}/webhook/${TRIGGER_ID}`,
							reference: '={{ $json.appointment }}',
							...validFor,
							linkVariable: 3,
						},
					},
				},
			),
			{ credential },
		),
	]);
	return { ...built, webhookPath };
}

/** Runs a send workflow; resolves with the link each customer's message carries, in order. */
async function send(workflow, count, service = fake) {
	const before = service.sends().length;
	const output = await callWebhook(`${server.url}/webhook/${workflow.webhookPath}`, {});
	expect(output.map((item) => item.status)).toEqual(Array(count).fill('ongoing'));
	const sent = service.sends().slice(before);
	expect(sent).toHaveLength(count);
	return sent.map((request) => ({
		phone: request.body.customer_phone,
		link: request.body.attributes['3'],
	}));
}

/** The trigger workflow's executions started after `mark`, after a moment for any to appear. */
async function startedSince(mark) {
	await new Promise((resolve) => setTimeout(resolve, 1500));
	return (await executionMark(rest, answers.id)) > mark;
}

beforeAll(async () => {
	const service = { latencyMs: 100, concurrencyLimit: 10, templates: sandboxTemplates() };
	otherFake = await startFakeService({ apiKey: `${API_KEY}-other`, ...service });
	const started = await startN8nWithService(`e2e-answer-links-${n8n.installedVersion()}`, {
		service,
		credentials: [credentialFor(otherFake.url, { ...OTHER_KEY, apiKey: `${API_KEY}-other` })],
		workflows: [answerWorkflow()],
		envOptions: { logLevel: 'warn' },
		// A shared machine under load can take minutes to start n8n.
		timeoutMs: 300_000,
	});
	({ fake, server, rest } = started);
	[answers] = started.workflows;
	Object.assign(ctx, {
		rest,
		fake,
		baseUrl: server.url,
		n8nPid: server.child.pid,
		database: path.join(started.root, 'user', '.n8n', 'database.sqlite'),
	});
}, 420_000);

afterAll(async () => {
	await closeAll(server, fake, otherFake);
	process.stderr.write(
		`\nanswer links (n8n ${n8n.installedVersion()}): ${JSON.stringify(ctx.figures)}\n`,
	);
});

describe('answer links: a template broadcast and the Omnichannel Messaging Trigger', () => {
	let links;

	test('the broadcast sends 3 messages, each with its own link to the trigger, nothing readable in it', async () => {
		const workflow = sendWorkflow('E2eAnswerLinks02', 'al-send', CUSTOMERS, {
			validFor: 7,
			validForUnit: 'days',
		});
		await publishWithWebhooks(rest, server.url, workflow);
		links = await send(workflow, 3);
		expect(links.map(({ phone }) => phone)).toEqual(CUSTOMERS.map(({ phone }) => E164(phone)));
		const prefix = `${server.url}/webhook/${TRIGGER_ID}?a=`;
		for (const [index, { link }] of links.entries()) {
			expect(link.startsWith(prefix)).toBe(true);
			expect(link.length - `${server.url}/webhook/${TRIGGER_ID}`.length).toBeLessThanOrEqual(160);
			expect(link).not.toContain(E164(CUSTOMERS[index].phone).slice(1));
			expect(link).not.toContain('appointment');
		}
		expect(new Set(links.map(({ link }) => link)).size).toBe(3);
	});

	test('a GET of each link, by link previews and by a browser, shows the page and starts nothing', async () => {
		const mark = await executionMark(rest, answers.id);
		for (const userAgent of [...PREVIEW_AGENTS, BROWSER_AGENT]) {
			for (const { link } of links) {
				const response = await fetch(link, { headers: { 'user-agent': userAgent } });
				expect(response.status).toBe(200);
				expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
				const page = await response.text();
				expect(page).toContain('Can you come on Tuesday at 10:00?');
				expect(page).toContain('<form method="post">');
			}
		}
		expect(await startedSince(mark)).toBe(false);
	});

	test("each link's page answers once: one execution each, with its recipient and reference", async () => {
		for (const [index, { link, phone }] of links.entries()) {
			const mark = await executionMark(rest, answers.id);
			const answered = await answerThroughPage(link, { button: index === 1 ? 1 : 0 });
			expect(answered.status).toBe(200);
			expect(answered.text).toContain(index === 1 ? 'Recorded: ✗ Decline' : 'Recorded: ✓ Approve');
			const { id, status } = await executionSince(rest, answers.id, mark);
			expect(status).toBe('success');
			const execution = await storedExecution(rest, id);
			const [item] = lastOutput(execution, 'Next');
			expect(item.json).toEqual({
				data: { approved: index !== 1, respondedAt: expect.any(String) },
				recipient: { phone },
				reference: CUSTOMERS[index].appointment,
				sentAt: expect.any(String),
				answeredAt: item.json.data.respondedAt,
				answerKey: expect.stringMatching(/^[\w-]{22}$/),
			});
			expect(lastOutput(execution, 'On Answer')).toHaveLength(1);
		}
	});

	test('the same link answered again starts one execution, which Remove Duplicates ends', async () => {
		const mark = await executionMark(rest, answers.id);
		const again = await answerThroughPage(links[0].link, { button: 1 });
		expect(again.status).toBe(200);
		const { id } = await executionSince(rest, answers.id, mark);
		const execution = await storedExecution(rest, id);
		const [item] = lastOutput(execution, 'On Answer');
		expect(item.json.recipient).toEqual({ phone: links[0].phone });
		expect(lastOutput(execution, 'First Answer Only')).toEqual([]);
		expect(lastOutput(execution, 'Next')).toBeUndefined();
	});

	// The trigger's query is not signed: only the page's form answers there.
	test("an answer in the link's query, none in the form, gets the page again and starts nothing", async () => {
		const mark = await executionMark(rest, answers.id);
		for (const answer of ['approved=true', 'approved=false', 'choice=0']) {
			const response = await fetch(`${links[2].link}&${answer}`, {
				method: 'POST',
				headers: {
					'user-agent': BROWSER_AGENT,
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: '',
			});
			expect(response.status).toBe(400);
			const page = await response.text();
			expect(page).toContain('<form method="post">');
			expect(page).not.toContain('Recorded');
		}
		expect(await startedSince(mark)).toBe(false);
	});

	test('a tampered link gets a page that says so, on GET and POST, and starts nothing', async () => {
		const { link } = links[2];
		const position = link.indexOf('?a=') + 20;
		const tampered =
			link.slice(0, position) + (link[position] === 'A' ? 'B' : 'A') + link.slice(position + 1);
		await expectRefused(tampered, 400, 'This link is not valid');
	});

	test('an expired link gets a page that says so, on GET and POST, and starts nothing', async () => {
		const workflow = sendWorkflow('E2eAnswerLinks03', 'al-send-short', [CUSTOMERS[0]], {
			validFor: 0.05,
			validForUnit: 'minutes',
		});
		await publishWithWebhooks(rest, server.url, workflow);
		const [{ link }] = await send(workflow, 1);
		// Valid for 3 seconds, sealed in whole seconds: expired 5 seconds later whatever the rounding.
		await new Promise((resolve) => setTimeout(resolve, 5000));
		await expectRefused(link, 410, 'This link has expired');
	});

	test('a link sealed under another API key is refused as not valid, and starts nothing', async () => {
		const workflow = sendWorkflow(
			'E2eAnswerLinks04',
			'al-send-other-key',
			[CUSTOMERS[1]],
			{ validFor: 7, validForUnit: 'days' },
			OTHER_KEY,
		);
		await publishWithWebhooks(rest, server.url, workflow);
		const [{ link }] = await send(workflow, 1, otherFake);
		expect(link.startsWith(`${server.url}/webhook/${TRIGGER_ID}?a=`)).toBe(true);
		await expectRefused(link, 400, 'This link is not valid');
	});
});

/** A GET and a POST of `link` get a page with `status` that says `refusal`, no form; nothing starts. */
async function expectRefused(link, status, refusal) {
	const mark = await executionMark(rest, answers.id);
	for (const method of ['GET', 'POST']) {
		const response = await fetch(link, {
			method,
			headers: {
				'user-agent': BROWSER_AGENT,
				'content-type': 'application/x-www-form-urlencoded',
			},
			body: method === 'POST' ? 'approved=true' : undefined,
		});
		expect(response.status).toBe(status);
		const page = await response.text();
		expect(page).toContain(refusal);
		expect(page).not.toContain('<form');
	}
	expect(await startedSince(mark)).toBe(false);
}

scale.answerLinksAtScaleTests(ctx, scale.answerLinksSizes());
junk.junkLinksTests(ctx, junk.junkLinksSizes());
pages.answerPagesTests(ctx, pages.answerPagesSizes());
