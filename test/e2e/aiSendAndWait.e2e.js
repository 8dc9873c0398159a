'use strict';
/*
 * End-to-end: Send and Wait for Response as a plain tool (`…Tool`, not the Human review) of an AI
 * Agent and of the MCP Server Trigger, in a real n8n with the scripted model (test/fake-model).
 *
 * Where n8n's engine runs the tool as a step of the execution (AI Agent 3.1 on n8n 2.x, 3 on
 * 1.x), the question goes out, the execution waits with the model not yet answered, and after the
 * person answers in Chromium the model gets the answer as the tool's result. Where the agent calls
 * the tool inside its own loop (AI Agent 2.2, the MCP Server Trigger), nothing is sent and the
 * model reads why and what to use instead.
 */
const { startFakeService } = require('../fake-service');
const { startFakeModel } = require('../fake-model');
const n8n = require('../../scripts/lib/n8n');
const {
	API_KEY,
	n8nWithCredentials,
	startServerLoggedIn,
	credentialFor,
	webhookTrigger,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	latestExecution,
	openAiCredentialFor,
	chatModelNode,
	agentNode,
	toolNode,
	aiWorkflow,
	connectMcpClient,
} = require('./support');
const { executionWhen, launchChromium, personPage } = require('./sendAndWait.support');
const { until } = require('./editor');

const N8N_MAJOR = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]);
// n8n 1.x's AI Agent stops at 3 (2.x adds 3.1, its default).
const AGENT_3 = N8N_MAJOR >= 2 ? 3.1 : 3;
const FINAL_ANSWER = 'The person answered; I passed it on.';
const QUESTION = 'May we refund 42 EUR for order 1042?';
const REFUSAL = 'Send and Wait for Response cannot wait for an answer';

/** The tool: a question to customer 4801 with a free-text answer, both chosen by the model. */
const ASK_TOOL = toolNode('Ask the customer', {
	resource: 'message',
	operation: 'sendAndWait',
	customerId: "={{ $fromAI('customerId', 'The customer ID from the CRM', 'string') }}",
	message: "={{ $fromAI('question', 'The question to ask', 'string') }}",
	responseType: 'freeText',
	options: {},
});

let fake;
let model;
let server;
let rest;
let browser;
let mcp;

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	model = await startFakeModel();
	const credentials = [credentialFor(fake.url), openAiCredentialFor(model.url)];
	const { env } = await n8nWithCredentials('e2e-ai-send-and-wait', credentials);
	({ server, rest } = await startServerLoggedIn(env));
	browser = await launchChromium();
}, 240_000);

afterAll(async () => {
	await mcp?.close();
	await browser?.close();
	await server?.stop();
	await model?.close();
	await fake?.close();
});

/** Publishes Webhook (answers at once) → AI Agent `version` with the model and the tool. */
async function publishAgent(version) {
	const id = `E2eAiSaw${String(version).replace('.', '')}`.padEnd(16, '0');
	const webhookPath = `e2e-ai-send-and-wait-${id}`;
	const created = await createActiveWorkflow(
		rest,
		aiWorkflow(id, `e2e AI Agent ${version}: Send and Wait as a tool`, {
			trigger: webhookTrigger(webhookPath, { atOnce: true }),
			root: agentNode(version, '={{ $json.body.request }}'),
			subNodes: { ai_languageModel: [chatModelNode()], ai_tool: [ASK_TOOL] },
		}),
	);
	const url = `${server.url}/webhook/${webhookPath}`;
	await waitForWebhook(url);
	return { id: created.id, url };
}

/** Starts the agent, whose model calls the tool once, then gives its final answer. */
async function startAgent(published) {
	fake.reset();
	model.script(
		(body) => ({
			toolCalls: [
				{
					name: body.tools[0].function.name,
					arguments: { customerId: '4801', question: QUESTION },
				},
			],
		}),
		{ text: FINAL_ANSWER },
	);
	await callWebhook(published.url, { request: 'Ask customer 4801 about the refund.' });
}

const agentOutput = (stored) =>
	stored.data.resultData.runData['AI Agent'].at(-1).data.main[0][0].json.output;

test(`AI Agent ${AGENT_3}: the question goes out, the model waits, then gets the person's answer`, async () => {
	const published = await publishAgent(AGENT_3);
	await startAgent(published);
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
	expect(agentOutput(done)).toBe(FINAL_ANSWER);
	const results = model.toolResults().map((result) => JSON.parse(result));
	expect(results).toEqual([
		[{ data: { text: 'Yes, refund it to my card.', respondedAt: expect.any(String) } }],
	]);
	expect(fake.sends()).toHaveLength(1);
}, 180_000);

test.each([2.2])(
	'AI Agent %s: nothing is sent, the model reads why and what to use, the execution ends',
	async (version) => {
		const published = await publishAgent(version);
		await startAgent(published);
		const execution = await latestExecution(rest, published.id, { timeoutMs: 60_000 });
		expect(execution.status).toBe('success');
		expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const [result] = model.toolResults();
		expect(result).toContain(REFUSAL);
		expect(result).toContain('Human review');
		expect(model.completions()).toHaveLength(2);
	},
	120_000,
);

test('MCP Server Trigger: nothing is sent, the client reads why and what to use', async () => {
	const mcpPath = 'e2e-ai-send-and-wait-mcp';
	await createActiveWorkflow(
		rest,
		aiWorkflow('E2eAiSawMcp00001', 'e2e MCP server with Send and Wait as a tool', {
			root: {
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				webhookId: 'e2e-ai-send-and-wait-mcp',
				parameters: { authentication: 'none', path: mcpPath },
			},
			subNodes: { ai_tool: [ASK_TOOL] },
		}),
	);
	mcp = await connectMcpClient(`${server.url}/mcp/${mcpPath}`);
	fake.reset();
	const { tools } = await mcp.listTools();
	const result = await mcp.callTool({
		name: tools[0].name,
		arguments: { customerId: '4801', question: QUESTION },
	});
	const text = result.content.map((part) => part.text ?? '').join('');
	expect(text).toContain(REFUSAL);
	expect(text).toContain('Human review');
	expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([]);
}, 60_000);
