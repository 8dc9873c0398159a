/**
 * The node as a tool, called through n8n-core's own tool invocation (getInputConnectionData →
 * createNodeAsTool → makeHandleToolInvocation → nodeType.execute): the path of AI Agent up to
 * 2.2, the Tools Agent and the MCP Server Trigger. The node types resolve as n8n's registry
 * resolves them, so a node that left its operations to routing or customOperations fails here
 * as it fails in n8n. (test/e2e/ proves the same in a real n8n with its real agents.)
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode, runToolCalls } from '../helpers/engine';
import { locator, useFakeService } from '../helpers/fixtures';
import { getTemplates, sendTextTo } from '../helpers/parameters';
import { useProcessedDataStore } from '../helpers/processedDataStore';
import type { InMemoryProcessedDataStore } from '../helpers/processedDataStore';

const service = useFakeService();
let store: InMemoryProcessedDataStore;
beforeAll(async () => {
	store = await useProcessedDataStore();
});
beforeEach(() => store.reset());

const TEMPLATE_SEND: INodeParameters = {
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId: 12,
	templateId: locator(101),
	customerPhone: "={{ $fromAI('phone', 'Phone number with country code', 'string') }}",
	variablesMode: 'json',
	variablesJson: "={{ $fromAI('variables', 'Template variables by position', 'json') }}",
	options: { sendOnceKey: "={{ $fromAI('orderId', 'The order id', 'string') }}-shipped" },
};
const GOOD = {
	phone: '+4915123456789',
	variables: { '1': 'Anna', '2': '1042', '3': 'Friday' },
	orderId: '1042',
};

describe("as a tool called through n8n-core's tool invocation", () => {
	test('Send Text sends once with the values the model chose, and the answer reaches the agent', async () => {
		const { answers, error } = await runToolCalls({
			parameters: sendTextTo(
				"={{ $fromAI('customerId', 'The customer ID', 'string') }}",
				"={{ $fromAI('text', 'The message', 'string') }}",
			),
			credentials: service.credentials,
			calls: [{ customerId: '1042', text: 'Your order has shipped' }],
		});
		expect(error).toBeUndefined();
		expect(service.fake.sends().map((r) => r.body)).toEqual([
			{ customer_id: '1042', text: 'Your order has shipped' },
		]);
		expect(JSON.parse(answers[0])).toEqual([
			expect.objectContaining({ status: 'sent', function_name: 'send_text_message' }),
		]);
	});

	test('Template Send: two calls with the same key send once; the second answer says alreadySent', async () => {
		const { answers, error } = await runToolCalls({
			parameters: TEMPLATE_SEND,
			credentials: service.credentials,
			calls: [GOOD, GOOD],
		});
		expect(error).toBeUndefined();
		expect(service.fake.sends('/whatsapp/send-template-message').map((r) => r.body)).toEqual([
			{
				template_id: '101',
				channel_id: '12',
				customer_phone: '+4915123456789',
				attributes: GOOD.variables,
			},
		]);
		expect(JSON.parse(answers[0])).toEqual([expect.objectContaining({ status: 'ongoing' })]);
		expect(JSON.parse(answers[1])).toEqual([
			{ skipped: true, reason: 'alreadySent', sendOnceKey: '1042-shipped' },
		]);
	});

	test('a bad phone: nothing sent, the agent reads the field and a good example, the execution goes on', async () => {
		const { answers, error, run } = await runToolCalls({
			parameters: TEMPLATE_SEND,
			credentials: service.credentials,
			calls: [{ ...GOOD, phone: '0151 2345678' }],
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(service.fake.sends()).toHaveLength(0);
		const [answer] = JSON.parse(answers[0]) as Array<{
			error: string;
			details: Record<string, unknown>;
		}>;
		expect(answer.error).toMatch(/^Customer Phone .*"0151 2345678".*for example \+4915123456789/);
		expect(answer.details).toMatchObject({
			outcome: 'notSent',
			reason: 'invalidInput',
			field: 'Customer Phone',
		});
	});

	test('bad variables from the model: the answer names Variables (JSON), nothing sent', async () => {
		const { answers } = await runToolCalls({
			parameters: TEMPLATE_SEND,
			credentials: service.credentials,
			calls: [{ ...GOOD, variables: { '1': 'Anna' } }],
		});
		expect(service.fake.sends()).toHaveLength(0);
		const [answer] = JSON.parse(answers[0]) as Array<{
			error: string;
			details: Record<string, unknown>;
		}>;
		expect(answer.details).toMatchObject({
			outcome: 'notSent',
			field: expect.stringMatching(/^Variables/),
		});
		expect(answer.error).toMatch(/\{\{2\}\}/);
	});

	test(
		'with a Default Country, a national number from the model goes out in E.164; one that is ' +
			'no German number is the answer',
		async () => {
			const parameters = {
				...TEMPLATE_SEND,
				options: { ...(TEMPLATE_SEND.options as object), defaultCountry: 'DE' },
			};
			const { answers, error } = await runToolCalls({
				parameters,
				credentials: service.credentials,
				calls: [
					{ ...GOOD, phone: '0151 2345 6789' },
					{ ...GOOD, phone: '0151 234', orderId: '1043' },
				],
			});
			expect(error).toBeUndefined();
			expect(service.fake.sends().map((r) => r.body.customer_phone)).toEqual(['+4915123456789']);
			expect(JSON.parse(answers[0])).toEqual([expect.objectContaining({ status: 'ongoing' })]);
			const [refused] = JSON.parse(answers[1]) as Array<{
				error: string;
				details: Record<string, unknown>;
			}>;
			expect(refused.error).toContain('not a number of Germany (DE, +49)');
			expect(refused.details).toMatchObject({ outcome: 'notSent', field: 'Customer Phone' });
		},
	);

	test('Get Many as a tool reads the channel the model names', async () => {
		const { answers } = await runToolCalls({
			parameters: getTemplates("={{ $fromAI('channel', 'The channel number', 'number') }}", {
				returnAll: true,
			}),
			credentials: service.credentials,
			calls: [{ channel: 12 }],
		});
		const templates = JSON.parse(answers[0]) as Array<{ id: number }>;
		expect(templates.map((template) => template.id)).toContain(101);
		expect(
			service.fake.requests
				.filter((r) => r.path.endsWith('/get-template-list'))
				.map((r) => r.query),
		).toEqual([{ platform_id: '12' }]);
	});
});

describe('as a tool run by the engine (AI Agent 3.x engine requests)', () => {
	test("a bad phone is the tool's answer, not a failed execution", async () => {
		const { output, error, run } = await service.run(TEMPLATE_SEND, {
			items: [{ ...GOOD, phone: '0151 2345678', toolCallId: 'call_1' }],
			asAgentTool: true,
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(service.fake.sends()).toHaveLength(0);
		expect(output[0].json).toMatchObject({
			error: expect.stringMatching(/^Customer Phone/),
			details: { field: 'Customer Phone' },
		});
	});
});

describe('in a workflow run (not a tool)', () => {
	test('a bad phone still fails the execution, nothing sent', async () => {
		const { error } = await runNode({
			parameters: {
				...TEMPLATE_SEND,
				customerPhone: '0151 2345678',
				variablesJson: JSON.stringify(GOOD.variables),
				options: {},
			},
			credentials: service.credentials,
		});
		expect(error?.message).toMatch(/^Customer Phone/);
		expect(service.fake.sends()).toHaveLength(0);
	});
});

/** Send and Wait as a plain tool, its question and recipient from the model. */
const ASK: INodeParameters = {
	resource: 'message',
	operation: 'sendAndWait',
	customerId: "={{ $fromAI('customerId', 'The customer ID', 'string') }}",
	message: "={{ $fromAI('question', 'The question', 'string') }}",
	responseType: 'freeText',
};
const QUESTION = { customerId: '4801', question: 'May we refund 42 EUR?' };

describe('Send and Wait for Response as a tool', () => {
	test("called in the agent's own loop: nothing sent, nothing waits, the model reads why", async () => {
		const { answers, error, run } = await runToolCalls({
			parameters: ASK,
			credentials: service.credentials,
			calls: [QUESTION],
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(run.waitTill).toBeUndefined();
		expect(service.fake.requests).toEqual([]);
		const [answer] = JSON.parse(answers[0]) as Array<{ error: string; details: object }>;
		expect(answer.error).toMatch(
			/^Send and Wait for Response cannot wait for an answer .*nothing was sent/,
		);
		expect(answer.error).toContain('Human review');
		expect(answer.details).toEqual({ outcome: 'notSent', reason: 'invalidInput' });
	});

	test('run by `n8n execute` (mode cli) in AI Agent 3+: nothing sent, nothing waits, the model reads why', async () => {
		const { output, error, run } = await service.run(ASK, {
			items: [{ ...QUESTION, toolCallId: 'call_1' }],
			asAgentTool: true,
			mode: 'cli',
			executionId: 'exec-cli',
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('success');
		expect(run.waitTill).toBeUndefined();
		expect(service.fake.requests).toEqual([]);
		expect(output.map((item) => item.json)).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(
					/^Send and Wait for Response cannot wait for an answer in a run of n8n execute .*nothing was sent/,
				),
				details: { outcome: 'notSent', reason: 'invalidInput' },
			}),
		]);
	});

	test('run by the engine as a step (AI Agent 3+): the question goes out, the execution waits', async () => {
		const { output, error, run } = await service.run(ASK, {
			items: [{ ...QUESTION, toolCallId: 'call_1' }],
			asAgentTool: true,
			executionId: 'exec-tool',
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('waiting');
		expect(run.waitTill).toBeInstanceOf(Date);
		expect(service.fake.sends().map((r) => r.body.customer_id)).toEqual(['4801']);
		expect(String(service.fake.sends()[0].body.text)).toMatch(
			/^May we refund 42 EUR\?\n\nRespond: /,
		);
		expect(output).toHaveLength(1);

		// When Limit Wait Time passes without an answer, n8n passes the tool's input on as its result.
		const resumed = await service.run(ASK, {
			asAgentTool: true,
			executionId: 'exec-tool',
			resumeFrom: run.data,
		});
		expect(resumed.run.status).toBe('success');
		expect(resumed.output.map((item) => item.json)).toEqual([
			{ ...QUESTION, toolCallId: 'call_1' },
		]);
		expect(service.fake.sends()).toHaveLength(1);
	});
});
