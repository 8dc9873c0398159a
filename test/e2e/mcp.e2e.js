'use strict';
/*
 * End-to-end: the node offered to MCP clients through n8n's MCP Server Trigger, in a published
 * workflow on a running n8n, called by the official MCP TypeScript SDK's client over Streamable
 * HTTP (MCP's HTTP transport; the trigger at version 2 serves it at /mcp/<path>). Asserted on both
 * sides: what the client
 * lists and reads back, and what the fake service received.
 *
 * The MCP Server Trigger reaches its tools through `getInputConnectionData` (n8n-core's tool
 * invocation), not through the engine: the path AI Agent up to 2.2 takes as well. There Send and
 * Wait for Response cannot wait for an answer: it sends nothing and says so.
 */
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { startFakeService } = require('../fake-service');
const {
	API_KEY,
	n8nWithCredentials,
	startServerLoggedIn,
	credentialFor,
	createActiveWorkflow,
	aiWorkflow,
	toolNode,
	AI_TOOLS,
	templateSendBody,
} = require('./support');

const PREFIX = '/stable/open';
const MCP_PATH = 'e2e-omnichannel-tools';

let fake;
let server;
let client;
let rest;
const toolNames = {};

/** Connects an MCP client; the route can come a moment after the workflow is published. */
async function connectClient(url, { timeoutMs = 30_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const mcp = new Client({ name: 'omnichannel-e2e', version: '1.0.0' });
		try {
			await mcp.connect(new StreamableHTTPClientTransport(new URL(url)));
			return mcp;
		} catch (error) {
			await mcp.close().catch(() => {});
			if (Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

/** Publishes an MCP Server Trigger at /mcp/<mcpPath> offering `tools`; resolves with a connected client. */
async function publishMcpServer(id, mcpPath, tools) {
	await createActiveWorkflow(
		rest,
		aiWorkflow(id, `e2e MCP server ${mcpPath}`, {
			root: {
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				webhookId: `e2e-${mcpPath}`,
				parameters: { authentication: 'none', path: mcpPath },
			},
			subNodes: { ai_tool: tools },
		}),
	);
	return await connectClient(`${server.url}/mcp/${mcpPath}`);
}

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	const { env } = await n8nWithCredentials('e2e-mcp', [credentialFor(fake.url)]);
	({ server, rest } = await startServerLoggedIn(env));

	const tools = Object.values(AI_TOOLS).map((tool) => toolNode(tool.name, tool.parameters));
	client = await publishMcpServer('E2eMcpServer0001', MCP_PATH, tools);
}, 240_000);

afterAll(async () => {
	await client?.close();
	await server?.stop();
	await fake?.close();
});

const sends = () => fake.requests.filter((r) => r.method === 'POST');
const textOf = (result) => result.content.map((part) => part.text ?? '').join('');

test('lists the three sends, each with its $fromAI fields and their descriptions', async () => {
	const { tools } = await client.listTools();
	expect(tools).toHaveLength(3);
	for (const [key, tool] of Object.entries(AI_TOOLS)) {
		const listed = tools.find((t) => t.name === tool.name.replace(/ /g, '_'));
		expect(listed).toBeDefined();
		toolNames[key] = listed.name;
		expect(listed.description).toMatch(/Omnichannel Messaging/);
		expect(Object.keys(listed.inputSchema.properties).sort()).toEqual(
			Object.keys(tool.fromAi).sort(),
		);
		for (const [field, description] of Object.entries(tool.fromAi)) {
			expect(listed.inputSchema.properties[field].description).toBe(description);
		}
	}
});

test("calls the template send: one send with the client's values, the result read back", async () => {
	fake.reset();
	const result = await client.callTool({
		name: toolNames.templateSend,
		arguments: { phone: '+49 151 2345 6789', variables: { 1: 'Anna', 2: '1042', 3: 'Friday' } },
	});
	expect(result.isError).toBeFalsy();
	const text = textOf(result);
	expect(text).toContain('send_template_message');
	expect(text).toContain('+4915123456789');
	expect(sends().map((r) => [r.path, r.body])).toEqual([
		[
			`${PREFIX}${AI_TOOLS.templateSend.endpoint}`,
			templateSendBody('101', '+4915123456789', { 1: 'Anna', 2: '1042', 3: 'Friday' }),
		],
	]);
});

test('calls it with a bad phone: nothing sent, the error names the field and a good example', async () => {
	fake.reset();
	const result = await client.callTool({
		name: toolNames.templateSend,
		arguments: { phone: '0151 2345678', variables: { 1: 'Anna', 2: '1042', 3: 'Friday' } },
	});
	const text = textOf(result);
	expect(text).toContain('Customer Phone');
	expect(text).toContain('0151 2345678');
	expect(text).toContain('for example +4915123456789');
	expect(sends()).toEqual([]);
});

test('Send Text and Send Attachment through the same server: one send each', async () => {
	fake.reset();
	const text = await client.callTool({
		name: toolNames.sendText,
		arguments: { customerId: '4711', text: 'Your order has shipped.' },
	});
	expect(textOf(text)).toContain('send_text_message');
	const url = 'https://cdn.example.com/files/invoice-1042.pdf';
	const attachment = await client.callTool({
		name: toolNames.sendAttachment,
		arguments: { customerId: '4712', documentUrl: url },
	});
	expect(textOf(attachment)).toContain('send_attachment_message');
	expect(sends().map((r) => [r.path, r.body])).toEqual([
		[
			`${PREFIX}${AI_TOOLS.sendText.endpoint}`,
			{ customer_id: '4711', text: 'Your order has shipped.' },
		],
		[
			`${PREFIX}${AI_TOOLS.sendAttachment.endpoint}`,
			{ customer_id: '4712', attachment_type: 'document', attachment_url: url },
		],
	]);
});

test('Send and Wait for Response as a tool: nothing is sent, the client reads why and what to use', async () => {
	const asker = await publishMcpServer('E2eMcpServerAsk1', 'e2e-omnichannel-ask', [
		toolNode('Ask the customer', {
			resource: 'message',
			operation: 'sendAndWait',
			customerId: "={{ $fromAI('customerId', 'The customer ID', 'string') }}",
			message: "={{ $fromAI('question', 'The question to ask', 'string') }}",
			options: {},
		}),
	]);
	try {
		fake.reset();
		const result = await asker.callTool({
			name: 'Ask_the_customer',
			arguments: { customerId: '4801', question: 'May we refund 42 EUR?' },
		});
		const text = textOf(result);
		expect(text).toContain('Send and Wait for Response cannot wait for an answer');
		expect(text).toContain('Human review');
		expect(sends()).toEqual([]);
	} finally {
		await asker.close();
	}
});
