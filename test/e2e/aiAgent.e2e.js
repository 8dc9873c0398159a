'use strict';
/*
 * End-to-end: the node as an AI Agent's tool in a real n8n. One n8n server for the file; each
 * test publishes a workflow Webhook → AI Agent (2.2 or 3.1) with n8n's OpenAI Chat Model, whose
 * credential points at a scripted fake model (test/fake-model), and this node as the agent's tool
 * (its parameters from `$fromAI`). Each test scripts the model's turns (a tool call with given
 * arguments, then a final answer) and asserts on both sides: the requests the fake service got,
 * and what the model was shown (the tool's schema) and handed back (the tool's result).
 *
 * AI Agent up to 2.2 calls a tool inside its own LangChain loop, through n8n-core's tool
 * invocation; 3.x asks n8n's engine to run the tool node. Both are tested on the same cases.
 * Send and Wait for Response as a plain tool differs: 3.x waits for the person's answer (given in
 * Chromium) and hands it to the model; 2.2 sends nothing and the model reads why, as does 3.x in a
 * workflow run by `n8n execute` (Manual Trigger → AI Agent, on the server's database).
 */
const fs = require('node:fs');
const path = require('node:path');

const { startFakeService } = require('../fake-service');
const { startFakeModel } = require('../fake-model');
const n8n = require('../../scripts/lib/n8n');
const {
	API_KEY,
	n8nWithCredentials,
	startServerLoggedIn,
	credentialFor,
	trigger,
	webhookTrigger,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	restData,
	executionMark,
	executionSince,
	openAiCredentialFor,
	chatModelNode,
	agentNode,
	toolNode,
	aiWorkflow,
	AI_TOOLS: TOOLS,
	OPENAI_CREDENTIAL,
	templateSendBody,
} = require('./support');
const { executionWhen, launchChromium, personPage } = require('./sendAndWait.support');
const { until } = require('./editor');

const PREFIX = '/stable/open';
// n8n 1.x's AI Agent stops at 3 (2.x adds 3.1, its default): there the 3.x cases run at 3.
const N8N_MAJOR = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]);
const AGENT_3 = N8N_MAJOR >= 2 ? 3.1 : 3;
const AGENT_VERSIONS = [2.2, AGENT_3];
const FINAL_ANSWER = 'Done: the customer has been informed.';

let fake;
let model;
let server;
let rest;
let env;
let workflowCounter = 0;

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	model = await startFakeModel();
	const credentials = [credentialFor(fake.url), openAiCredentialFor(model.url)];
	({ env } = await n8nWithCredentials('e2e-ai-agent', credentials));
	({ server, rest } = await startServerLoggedIn(env));
}, 240_000);

afterAll(async () => {
	await server?.stop();
	await model?.close();
	await fake?.close();
});

/** The template send tool under another name, with `options` added to its own. */
const templateSendTool = (name, options) => ({
	...TOOLS.templateSend,
	name,
	parameters: {
		...TOOLS.templateSend.parameters,
		options: { ...TOOLS.templateSend.parameters.options, ...options },
	},
});

/** Publishes Webhook → AI Agent (with the model and `tool`); resolves with its id and webhook URL. */
async function publishAgent(version, tool, { streaming = false, atOnce = false } = {}) {
	workflowCounter += 1;
	const webhookPath = `e2e-ai-agent-${workflowCounter}`;
	const workflow = aiWorkflow(
		`E2eAiAgent${String(workflowCounter).padStart(6, '0')}`,
		`e2e AI Agent ${version}: ${tool.name}`,
		{
			trigger: webhookTrigger(webhookPath, { streaming, atOnce }),
			root: agentNode(version, '={{ $json.body.request }}'),
			subNodes: {
				ai_languageModel: [chatModelNode()],
				ai_tool: [toolNode(tool.name, tool.parameters)],
			},
		},
	);
	const created = await createActiveWorkflow(rest, workflow);
	const url = `${server.url}/webhook/${webhookPath}`;
	await waitForWebhook(url);
	return { id: created.id, url };
}

/** A model turn that calls the tool it was offered (by its name there) with `args`. */
const callTool =
	(...argsList) =>
	(body) => ({
		toolCalls: argsList.map((args) => ({ name: body.tools[0].function.name, arguments: args })),
	});

/**
 * Runs the published agent once with the scripted model turns; resolves with the agent's answer
 * and the execution as n8n lists it.
 */
async function runAgent(published, turns, { streaming = false } = {}) {
	fake.reset();
	model.script(...turns);
	const mark = await executionMark(rest, published.id);
	const answer = await callWebhook(
		published.url,
		{ request: 'Tell the customer about their order.' },
		{ raw: streaming },
	);
	const execution = await executionSince(rest, published.id, mark);
	return { answer, execution };
}

const sendsTo = (endpoint) =>
	fake.requests.filter((r) => r.method === 'POST' && r.path === PREFIX + endpoint);

/** The schema the model was shown for the tool: each $fromAI field, with its description. */
function expectSchemaShown(tool) {
	const offered = Object.values(model.toolsOffered());
	expect(offered).toHaveLength(1);
	const { properties } = offered[0].parameters;
	expect(Object.keys(properties).sort()).toEqual(Object.keys(tool.fromAi).sort());
	for (const [key, description] of Object.entries(tool.fromAi))
		expect(properties[key].description).toBe(description);
}

describe.each(AGENT_VERSIONS)('AI Agent %s with the node as its tool', (version) => {
	test("Message → Send Text: one send with the model's values, the result back to the model", async () => {
		const published = await publishAgent(version, TOOLS.sendText);
		const { answer, execution } = await runAgent(published, [
			callTool({ customerId: '4711', text: 'Your order has shipped.' }),
			{ text: FINAL_ANSWER },
		]);

		expect(answer).toEqual([{ output: FINAL_ANSWER }]);
		expect(execution.status).toBe('success');
		const sends = sendsTo(TOOLS.sendText.endpoint);
		expect(sends.map((r) => r.body)).toEqual([
			{ customer_id: '4711', text: 'Your order has shipped.' },
		]);
		expect(fake.requests).toHaveLength(1);

		expectSchemaShown(TOOLS.sendText);
		const results = model.toolResults();
		expect(results).toHaveLength(1);
		expect(results[0]).toContain('send_text_message');
		expect(results[0]).toMatch(/msg_\d+/);
	});

	test("Message → Send Attachment: one send with the model's URL, the type fixed in the node", async () => {
		const published = await publishAgent(version, TOOLS.sendAttachment);
		const url = 'https://cdn.example.com/files/invoice-1042.pdf';
		const { answer, execution } = await runAgent(published, [
			callTool({ customerId: '4712', documentUrl: url }),
			{ text: FINAL_ANSWER },
		]);

		expect(answer).toEqual([{ output: FINAL_ANSWER }]);
		expect(execution.status).toBe('success');
		expect(sendsTo(TOOLS.sendAttachment.endpoint).map((r) => r.body)).toEqual([
			{ customer_id: '4712', attachment_type: 'document', attachment_url: url },
		]);
		expectSchemaShown(TOOLS.sendAttachment);
		const results = model.toolResults();
		expect(results).toHaveLength(1);
		expect(results[0]).toContain('send_attachment_message');
	});

	test('WhatsApp Template → Send: channel and template fixed, phone and variables from the model', async () => {
		const published = await publishAgent(version, TOOLS.templateSend);
		const { answer, execution } = await runAgent(published, [
			callTool({ phone: '+49 151 2345 6789', variables: { 1: 'Anna', 2: '1042', 3: 'Friday' } }),
			{ text: FINAL_ANSWER },
		]);

		expect(answer).toEqual([{ output: FINAL_ANSWER }]);
		expect(execution.status).toBe('success');
		expect(sendsTo(TOOLS.templateSend.endpoint).map((r) => r.body)).toEqual([
			templateSendBody('101', '+4915123456789', { 1: 'Anna', 2: '1042', 3: 'Friday' }),
		]);
		expectSchemaShown(TOOLS.templateSend);
		const results = model.toolResults();
		expect(results).toHaveLength(1);
		expect(results[0]).toContain('send_template_message');
		expect(results[0]).toContain('+4915123456789');
	});

	/** Bad values a model may choose: [tool, arguments, field named, text that says what a good value is]. */
	const BAD_VALUES = [
		[
			'templateSend',
			{ phone: '0151 2345678', variables: { 1: 'Anna', 2: '1042', 3: 'Friday' } },
			'Customer Phone',
			'for example +4915123456789',
		],
		[
			'templateSend',
			{ phone: '+4915123456789', variables: { 1: 'Anna' } },
			'Variables',
			'needs a value for {{2}}, {{3}}',
		],
		['sendText', { customerId: '', text: 'Hi' }, 'Customer ID', 'for example 123456'],
		[
			'sendAttachment',
			{ customerId: '4712', documentUrl: 'invoice.pdf' },
			'Attachment URL',
			'for example https://example.com/file.pdf',
		],
	];

	test.each(BAD_VALUES)(
		'%s with %j from the model: nothing sent, the model reads what to fix (%s), the execution succeeds',
		async (toolKey, args, field, fix) => {
			const published = await publishAgent(version, TOOLS[toolKey]);
			const apology = 'That value was not valid; I did not send anything.';
			const { answer, execution } = await runAgent(published, [callTool(args), { text: apology }]);

			expect(answer).toEqual([{ output: apology }]);
			expect(execution.status).toBe('success');
			expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
			const results = model.toolResults();
			expect(results).toHaveLength(1);
			expect(results[0]).toContain(field);
			expect(results[0]).toContain(fix);
		},
	);
});

describe(`AI Agent ${AGENT_3}, streamed to the caller`, () => {
	test('the model streams (SSE): the template send goes out once and the answer streams back', async () => {
		const published = await publishAgent(AGENT_3, TOOLS.templateSend, { streaming: true });
		const { answer, execution } = await runAgent(
			published,
			[
				callTool({ phone: '+4915100000042', variables: { 1: 'Ben', 2: '2001', 3: 'Monday' } }),
				{ text: FINAL_ANSWER },
			],
			{ streaming: true },
		);

		// Both turns (the tool call, then the answer) were asked for as a stream and streamed back.
		expect(model.completions().map((r) => r.body.stream)).toEqual([true, true]);
		expect(execution.status).toBe('success');
		const streamed = answer
			.split('\n')
			.filter((line) => line.trim())
			.map((line) => JSON.parse(line))
			.filter((chunk) => chunk.type === 'item')
			.map((chunk) => chunk.content)
			.join('');
		expect(streamed).toBe(FINAL_ANSWER);
		expect(sendsTo(TOOLS.templateSend.endpoint).map((r) => r.body.customer_phone)).toEqual([
			'+4915100000042',
		]);
		expect(model.toolResults()[0]).toContain('send_template_message');
	});
});

describe('send once per key across tool calls', () => {
	test.each(AGENT_VERSIONS)(
		'AI Agent %s calling the template send twice with the same order: one send',
		async (version) => {
			const tool = templateSendTool('Send shipping notice once', {
				sendOnceKey: "={{ $fromAI('orderNumber', 'The order number', 'string') }}-shipped",
			});
			const published = await publishAgent(version, tool);
			const args = {
				phone: '+4915100000077',
				variables: { 1: 'Cara', 2: '3003', 3: 'Tuesday' },
				orderNumber: `3003-v${version}`,
			};
			const { execution } = await runAgent(published, [
				callTool(args),
				callTool(args),
				{ text: FINAL_ANSWER },
			]);

			expect(execution.status).toBe('success');
			expect(sendsTo(tool.endpoint).map((r) => r.body.customer_phone)).toEqual(['+4915100000077']);
			const results = model.toolResults();
			expect(results).toHaveLength(2);
			expect(results[0]).toContain('send_template_message');
			expect(results[1]).toContain('alreadySent');
		},
	);
});

describe('Default Country for a number the model gives as dialled', () => {
	test.each(AGENT_VERSIONS)(
		'AI Agent %s: the model gives 0151 2345 6789, the tool with Default Country DE sends +4915123456789',
		async (version) => {
			const tool = templateSendTool('Send template to German customers', { defaultCountry: 'DE' });
			const published = await publishAgent(version, tool);
			const args = { phone: '0151 2345 6789', variables: { 1: 'Dana', 2: '4004', 3: 'Sunday' } };
			const { execution } = await runAgent(published, [callTool(args), { text: FINAL_ANSWER }]);

			expect(execution.status).toBe('success');
			expect(sendsTo(tool.endpoint).map((r) => r.body.customer_phone)).toEqual(['+4915123456789']);
			const results = model.toolResults();
			expect(results).toHaveLength(1);
			expect(results[0]).toContain('send_template_message');
		},
	);
});

describe('examples/ai-agent-follow-up.json', () => {
	test("a shipped order's CRM event: the agent's tool call sends the shipping notice once", async () => {
		const example = JSON.parse(
			fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', 'ai-agent-follow-up.json'), 'utf8'),
		);
		// As a user would: their own OpenAI credential (here the fake model's) on the chat model;
		// on n8n 1.x the agent at 3, as docs/ai-agents.md tells (1.x has no 3.1).
		const nodes = example.nodes.map((node) => {
			if (node.credentials?.openAiApi)
				return { ...node, credentials: { openAiApi: OPENAI_CREDENTIAL } };
			if (node.type === '@n8n/n8n-nodes-langchain.agent') return { ...node, typeVersion: AGENT_3 };
			return node;
		});
		await createActiveWorkflow(rest, { ...example, nodes });
		const webhook = example.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
		const url = `${server.url}/webhook/${webhook.parameters.path}`;
		await waitForWebhook(url);

		fake.reset();
		model.script(
			callTool({
				phone: '+49 170 1234567',
				variables: { 1: 'Jonas', 2: 'A-7731', 3: 'Thursday' },
				orderNumber: 'A-7731',
			}),
			{
				text: 'Sent the shipping notice for order A-7731.',
			},
		);
		const event = {
			event: 'order.shipped',
			orderId: 'A-7731',
			trackingNumber: '1Z999',
			customer: { firstName: 'Jonas', phone: '+49 170 1234567' },
		};
		const answer = await callWebhook(url, event);

		expect(answer).toEqual({ output: 'Sent the shipping notice for order A-7731.' });
		expect(model.completions()[0].body.messages.at(-1).content).toContain(
			'"trackingNumber": "1Z999"',
		);
		expect(sendsTo('/whatsapp/send-template-message').map((r) => r.body)).toEqual([
			templateSendBody('101', '+491701234567', { 1: 'Jonas', 2: 'A-7731', 3: 'Thursday' }),
		]);
		expect(model.toolResults()[0]).toContain('send_template_message');
	});
});

describe('Send and Wait for Response as a plain tool', () => {
	const QUESTION = 'May we refund 42 EUR for order 1042?';
	const REFUSAL = 'Send and Wait for Response cannot wait for an answer';
	const askTool = {
		name: 'Ask the customer',
		parameters: {
			resource: 'message',
			operation: 'sendAndWait',
			customerId: "={{ $fromAI('customerId', 'The customer ID from the CRM', 'string') }}",
			message: "={{ $fromAI('question', 'The question to ask', 'string') }}",
			responseType: 'freeText',
			options: {},
		},
	};
	let browser;
	beforeAll(async () => {
		browser = await launchChromium();
	}, 120_000);
	afterAll(async () => await browser?.close());

	/** Starts the agent (its webhook answers at once), whose model asks customer 4801 once. */
	async function startAgent(version) {
		const published = await publishAgent(version, askTool, { atOnce: true });
		fake.reset();
		model.script(callTool({ customerId: '4801', question: QUESTION }), { text: FINAL_ANSWER });
		const mark = await executionMark(rest, published.id);
		await callWebhook(published.url, { request: 'Ask customer 4801 about the refund.' });
		return { ...published, mark };
	}

	test(`AI Agent ${AGENT_3}: the question goes out, the model waits, then gets the person's answer`, async () => {
		await startAgent(AGENT_3);
		expect(await until(() => fake.sends().length > 0, 60_000)).toBe(true);
		const [sent] = fake.sends();
		expect(sent.body.customer_id).toBe('4801');
		const [link] = String(sent.body.text).match(/https?:\/\/\S+/) ?? [];
		expect(sent.body.text).toBe(`${QUESTION}\n\nRespond: ${link}`);
		const executionId = new URL(link).pathname.split('/')[2];
		await executionWhen(rest, executionId, (e) => e.status === 'waiting', { what: 'waiting' });
		// The model asked once and has been handed nothing yet.
		expect(model.completions()).toHaveLength(1);
		expect(model.toolResults()).toEqual([]);

		const page = await personPage(browser);
		await page.goto(link);
		await page.getByLabel('Your answer').fill('Yes, refund it to my card.');
		await page.getByRole('button', { name: 'Send' }).click();
		await page.getByText('Recorded your answer:').waitFor();
		await page.context().close();

		const done = await executionWhen(rest, executionId, (e) => e.status === 'success', {
			what: 'success',
			timeoutMs: 60_000,
		});
		const agentRuns = done.data.resultData.runData['AI Agent'];
		expect(agentRuns.at(-1).data.main[0][0].json.output).toBe(FINAL_ANSWER);
		expect(model.toolResults().map((result) => JSON.parse(result))).toEqual([
			[{ data: { text: 'Yes, refund it to my card.', respondedAt: expect.any(String) } }],
		]);
		expect(fake.sends()).toHaveLength(1);
	}, 180_000);

	test(`AI Agent ${AGENT_3} run by \`n8n execute\`: nothing is sent, the model reads why, the run ends`, async () => {
		// Manual Trigger → AI Agent, saved unpublished: the CLI runs it from its trigger.
		const workflow = aiWorkflow('E2eAiAgentCli0001', `e2e AI Agent ${AGENT_3}: n8n execute`, {
			trigger: trigger(),
			root: agentNode(AGENT_3, 'Ask customer 4801 about the refund.'),
			subNodes: {
				ai_languageModel: [chatModelNode()],
				ai_tool: [toolNode(askTool.name, askTool.parameters)],
			},
		});
		const { name, nodes, connections, settings } = workflow;
		const legacy = N8N_MAJOR < 2 ? { active: false } : {};
		const created = restData(
			await rest.request('POST', '/rest/workflows', {
				name,
				nodes,
				connections,
				settings,
				...legacy,
			}),
			'POST /rest/workflows',
		);
		fake.reset();
		model.script(callTool({ customerId: '4801', question: QUESTION }), { text: FINAL_ANSWER });

		// `n8n execute` starts its own task broker: another port than the running server's.
		const cliEnv = { ...env, N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()) };
		const { code, stdout, stderr, result } = await n8n.executeWorkflow(created.id, {
			env: cliEnv,
			timeoutMs: 120_000,
		});
		expect({ code, stderr: code === 0 ? '' : `${stdout}\n${stderr}` }).toEqual({
			code: 0,
			stderr: '',
		});
		expect(result.status).toBe('success');
		expect(result.waitTill).toBeUndefined();
		expect(result.data.resultData.runData['AI Agent'].at(-1).data.main[0][0].json.output).toBe(
			FINAL_ANSWER,
		);

		expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const [toolResult] = model.toolResults();
		expect(toolResult).toContain(REFUSAL);
		expect(toolResult).toContain('n8n execute');
		expect(model.completions()).toHaveLength(2);
		// n8n stored the run as ended: no execution is left waiting for an answer. The workflow is
		// new, so its one execution is the one this run started.
		const execution = await executionSince(rest, created.id, 0, { timeoutMs: 30_000 });
		expect(execution.status).toBe('success');
	}, 180_000);

	test('AI Agent 2.2: nothing is sent, the model reads why and what to use, the execution ends', async () => {
		const published = await startAgent(2.2);
		const execution = await executionSince(rest, published.id, published.mark, {
			timeoutMs: 60_000,
		});
		expect(execution.status).toBe('success');
		expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const [result] = model.toolResults();
		expect(result).toContain(REFUSAL);
		expect(result).toContain('Human review');
		expect(model.completions()).toHaveLength(2);
	}, 120_000);
});
