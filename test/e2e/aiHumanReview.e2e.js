'use strict';
/*
 * End-to-end, n8n 2.x: this node as the human review of an AI Agent's tool. n8n 2.x generates a
 * `…HitlTool` type for every node with a Send and Wait operation (n8n's tool-generation/hitl-tools);
 * in a workflow the gated tool connects to it (`ai_tool`) and it connects to the agent
 * (`ai_tool`, "Human review"). Webhook → AI Agent 3.1 with the scripted model (test/fake-model);
 * its tool, this node's Message → Send Text, sits behind this node's review, which sends the
 * review message to a reviewer and waits. The reviewer's answer on the page decides: after
 * Approve the tool runs and sends to the customer; after Disapprove it does not, and the model
 * is told the call was rejected. n8n 1.x generates no review type: skipped there.
 */
const { startFakeService } = require('../fake-service');
const { startFakeModel } = require('../fake-model');
const n8n = require('../../scripts/lib/n8n');
const {
	API_KEY,
	credentialFor,
	webhookTrigger,
	createActiveWorkflow,
	waitForWebhook,
	callWebhook,
	restData,
	storedExecution,
	executionMark,
	openAiCredentialFor,
	chatModelNode,
	agentNode,
	toolNode,
	omniNode,
	aiWorkflow,
	AI_TOOLS,
} = require('./support');
const { n8nWithCredentials, startServerLoggedIn } = require('./support');
const { waitingLinks, previewEveryLink, answerThroughPage } = require('../helpers/answerPage');
const { executionWhen, tampered } = require('./sendAndWait.support');

const PREFIX = '/stable/open';
const REVIEWER = '777001';
const FINAL_ANSWER = 'Done.';
const HITL_NODE_TYPE = `${n8n.NODE_TYPE}HitlTool`;
const is2x = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]) >= 2;

let fake;
let model;
let server;
let rest;
let published;

/**
 * Webhook (answers at once) → AI Agent 3.1; its tool "Send text" is connected to "Human review"
 * (this node's generated review type, reviewer 777001), which is
 * connected to the agent.
 */
function reviewedAgentWorkflow(webhookPath) {
	const review = {
		...omniNode('Human review', {
			resource: 'message',
			customerId: REVIEWER,
			// n8n's default message puts `{{ $tool.parameters }}` in a text, which reads "[object Object]".
			message: '=Allow {{ $tool.name }} with {{ JSON.stringify($tool.parameters) }}?',
			approvalOptions: { values: { approvalType: 'double' } },
			options: {},
		}),
		type: HITL_NODE_TYPE,
		webhookId: '5b0e7c1a-93f4-4d2e-8a6b-1c2d3e4f5a61',
	};
	const workflow = aiWorkflow('E2eAiReview00001', 'e2e AI Agent: tool behind human review', {
		trigger: webhookTrigger(webhookPath, { atOnce: true }),
		root: agentNode(3.1, '={{ $json.body.request }}'),
		subNodes: { ai_languageModel: [chatModelNode()], ai_tool: [review] },
	});
	const tool = {
		id: 'E2eAiReview00001-tool',
		position: [440, 480],
		...toolNode('Send text', AI_TOOLS.sendText.parameters),
	};
	workflow.nodes.push(tool);
	workflow.connections[tool.name] = {
		ai_tool: [[{ node: 'Human review', type: 'ai_tool', index: 0 }]],
	};
	return workflow;
}

const describe2x = is2x ? describe : describe.skip;

describe2x("n8n 2.x: AI Agent 3.1 whose tool is gated by this node's human review", () => {
	beforeAll(async () => {
		fake = await startFakeService({ apiKey: API_KEY });
		model = await startFakeModel();
		const { env } = await n8nWithCredentials('e2e-ai-review', [
			credentialFor(fake.url),
			openAiCredentialFor(model.url),
		]);
		// A machine shared with other runs may take longer than the default 90 s to start n8n.
		({ server, rest } = await startServerLoggedIn(env, { timeoutMs: 240_000 }));
		const created = await createActiveWorkflow(rest, reviewedAgentWorkflow('e2e-ai-review'));
		published = { id: created.id, url: `${server.url}/webhook/e2e-ai-review` };
		await waitForWebhook(published.url);
	}, 360_000);

	afterAll(async () => {
		await server?.stop();
		await model?.close();
		await fake?.close();
	});

	const sends = (customerId) =>
		fake.requests.filter(
			(r) =>
				r.method === 'POST' &&
				r.path === `${PREFIX}/customers/send-text-message` &&
				r.body.customer_id === customerId,
		);

	/**
	 * The execution this test's request started (an id above `mark`, taken before the request), once
	 * it waits for the reviewer: never one an earlier test left waiting.
	 */
	async function waitingExecution(mark, timeoutMs = 120_000) {
		const filter = encodeURIComponent(
			JSON.stringify({ workflowId: published.id, status: ['waiting'] }),
		);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			// A busy machine may reset a polling connection: the next round asks again.
			const listed = await rest
				.request('GET', `/rest/executions?filter=${filter}`)
				.then((response) => restData(response, 'GET /rest/executions'))
				.catch(() => ({ results: [] }));
			const found = (listed.results ?? listed).find(({ id }) => Number(id) > mark);
			if (found) return await storedExecution(rest, found.id);
			if (Date.now() > deadline) throw new Error(`no execution waiting after ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/**
	 * The agent asks to send `text` to customer `customerId`; resolves when the review message is
	 * out and the execution waits, with the execution and the review message's links.
	 */
	async function askForReview(customerId, text) {
		fake.reset();
		model.script(
			(body) => ({
				toolCalls: [
					{
						name: body.tools[0].function.name,
						arguments: { toolParameters: { customerId, text }, hitlParameters: {} },
					},
				],
			}),
			{ text: FINAL_ANSWER },
		);
		const mark = await executionMark(rest, published.id);
		await callWebhook(published.url, {
			request: 'Tell customer 4711 that the refund is on its way.',
		});
		const waiting = await waitingExecution(mark);
		const reviews = sends(REVIEWER);
		return { waiting, reviews, links: waitingLinks(reviews[0]?.body.text ?? '') };
	}

	const agentOutput = (stored) =>
		stored.data.resultData.runData['AI Agent'].at(-1).data.main[0][0].json.output;

	test.each([
		['Approve', 0, 1],
		['Disapprove', 1, 0],
	])(
		'%s: the review message reaches the reviewer, previews answer nothing, the tool runs only after Approve',
		async (choice, linkIndex, toolSends) => {
			const text = `Your refund is on its way (${choice}).`;
			const { waiting, reviews, links } = await askForReview('4711', text);
			// The review message names the tool and the input the model gave it.
			expect(reviews).toHaveLength(1);
			expect(reviews[0].body.text).toContain('Send_text');
			expect(reviews[0].body.text).toContain(text);
			expect(links).toHaveLength(2);
			expect(sends('4711')).toEqual([]);
			await previewEveryLink(links);
			expect((await storedExecution(rest, waiting.id)).status).toBe('waiting');
			const forged = await fetch(tampered(links[linkIndex]), { method: 'POST' });
			expect(forged.status).toBe(401);

			const page = await answerThroughPage(links[linkIndex]);
			expect(page.status).toBe(200);
			expect(page.text).toContain('Answer recorded');
			const done = await executionWhen(
				rest,
				waiting.id,
				(stored) => !['new', 'running', 'waiting'].includes(stored.status),
				{ timeoutMs: 120_000, what: 'its end' },
			);

			const error = done.data.resultData.error;
			expect({
				status: done.status,
				error: error && `${error.message} ${error.description}`,
			}).toEqual({ status: 'success', error: undefined });
			expect(agentOutput(done)).toBe(FINAL_ANSWER);
			expect(sends(REVIEWER)).toHaveLength(1);
			expect(sends('4711').map((r) => r.body.text)).toEqual(toolSends ? [text] : []);
			const [result] = model.toolResults();
			if (toolSends) expect(result).toContain('send_text_message');
			else expect(result).toContain('User rejected the tool call');
		},
		240_000,
	);
});

if (!is2x) {
	test.skip('n8n 1.x has no generated human-review type (…HitlTool): nothing to test', () => {});
}
