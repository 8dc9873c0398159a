/**
 * The node as an AI agent's tool (usableAsTool). The same validation applies to what the agent
 * passes, and since the agent reads only the error message (not the description), the message
 * itself must say what to fix.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { LONG_FUZZ, fuzzRuns } from './support/config';
import { anyHostile, oddPhone } from './support/hostile';
import { checkProperty } from './support/property';
import { findSecret } from './support/secrets';
import { specProblems } from './support/spec';
import { runAsTool } from './support/toolRunner';

jest.setTimeout(LONG_FUZZ ? 3_600_000 : 30_000);

const API_KEY = 'robustness-ai-tool-key';

let fake: FakeService;
beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
});
afterAll(async () => await fake.close());
beforeEach(() => fake.reset());

const credentials = () => ({ baseUrl: fake.url, apiKey: API_KEY });

const TOOLS: Record<string, INodeParameters> = {
	'Send Text': {
		resource: 'message',
		operation: 'sendText',
		customerId: "={{ $fromAI('customerId', 'The customer ID', 'string') }}",
		text: "={{ $fromAI('text', 'The message', 'string') }}",
	},
	'Template Send': {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: { __rl: true, mode: 'id', value: '101' } as never,
		customerPhone: "={{ $fromAI('phone', 'Phone number with country code', 'string') }}",
		variablesMode: 'json',
		variablesJson: "={{ $fromAI('variables', 'Template variables by position', 'json') }}",
	},
};

/** Words that tell the agent what a good value is. */
const SAYS_WHAT_TO_FIX = new RegExp(
	[
		...['for example', 'must', 'use ', 'give ', 'choose', 'map ', 'turn on', 'enter ', 'is empty'],
		...['needs a value', 'has no variable', 'whole number', 'not text', 'leave the field'],
	].join('|'),
	'i',
);
function expectSaysWhatToFix(message: unknown) {
	expect(message).toMatch(SAYS_WHAT_TO_FIX);
}

describe("as an AI agent's tool", () => {
	test('a good call sends once and hands the result back', async () => {
		const { output } = await runAsTool(TOOLS['Send Text'], credentials(), {
			customerId: 1042,
			text: 'Your order has shipped',
		});
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({ status: 'sent', function_name: 'send_text_message' });
		expect(fake.sends().map((r) => r.body)).toEqual([
			{ customer_id: '1042', text: 'Your order has shipped' },
		]);
	});

	test('a template send from the agent: phone with spaces and numbers as variables', async () => {
		const { output } = await runAsTool(TOOLS['Template Send'], credentials(), {
			phone: '+49 151 2345 6789',
			variables: { '1': 'Anna', '2': 1042, '3': 'Monday' },
		});
		expect(output[0].json).toMatchObject({ status: 'ongoing' });
		expect(fake.sends()[0].body).toEqual({
			template_id: '101',
			channel_id: '12',
			customer_phone: '+4915123456789',
			attributes: { '1': 'Anna', '2': '1042', '3': 'Monday' },
		});
	});

	test.each([
		['Send Text', { customerId: '', text: 'hi' }, /^Customer ID \(item 0\): it is empty/],
		['Send Text', { customerId: { id: 5 }, text: 'hi' }, /^Customer ID \(item 0\): /],
		['Send Text', { customerId: '5', text: '   ' }, /^Text \(item 0\): it is empty/],
		[
			'Template Send',
			{ phone: '0151 2345678', variables: { '1': 'a', '2': 'b', '3': 'c' } },
			/^Customer Phone \(item 0\): .*must start with \+ and the country code/,
		],
		[
			'Template Send',
			{ phone: '+4915123456789', variables: { '1': 'Anna' } },
			/^Variables \(item 0\): template "order_shipped" needs a value for \{\{2\}\}, \{\{3\}\}/,
		],
		[
			'Template Send',
			{ phone: '+4915123456789', variables: { name: 'Anna' } },
			/^Variables \(JSON\) \(item 0\): "name" is not a variable position: use "1" for \{\{1\}\}/,
		],
		[
			'Template Send',
			{ phone: '+4915123456789', variables: 'Anna' },
			/^Variables \(JSON\) \(item 0\): it is not valid JSON, for example/,
		],
	] as Array<[string, IDataObject, RegExp]>)(
		'%s with %j: the agent reads what to fix, nothing is sent',
		async (tool, args, expected) => {
			const { output, run } = await runAsTool(TOOLS[tool], credentials(), args);
			expect(output).toHaveLength(1);
			expect(output[0].json.error).toMatch(expected);
			expectSaysWhatToFix(output[0].json.error);
			expect(fake.sends()).toHaveLength(0);
			expect(findSecret(run, API_KEY)).toEqual([]);
		},
	);

	test('an argument the agent left out', async () => {
		const { output } = await runAsTool(TOOLS['Send Text'], credentials(), { text: 'hi' });
		expect(output).toHaveLength(1);
		// $fromAI of a missing argument is undefined: the usual "empty" refusal.
		expect(output[0].json.error).toBe(
			"Customer ID (item 0): it is empty: give the customer's ID as text or a number, for example 123456",
		);
		expect(fake.sends()).toHaveLength(0);
	});

	test('property: whatever the agent passes, the tool sends a valid request or says what to fix', async () => {
		const hostile = anyHostile('https://cdn.example.com/a.png');
		const args = fc.oneof(
			fc.record({
				tool: fc.constant('Send Text'),
				args: fc.record({
					customerId: fc.oneof(hostile, fc.constantFrom('1042', 7)),
					text: fc.oneof(hostile, fc.constant('hello')),
				}),
			}),
			fc.record({
				tool: fc.constant('Template Send'),
				args: fc.record({
					phone: fc.oneof(oddPhone, hostile),
					variables: fc.oneof(
						hostile,
						fc.constant({ '1': 'a', '2': 'b', '3': 'c' }),
						fc.dictionary(fc.constantFrom('1', '2', '3', '4', 'x'), hostile, { maxKeys: 4 }),
					),
				}),
			}),
		);
		await checkProperty(
			fc.asyncProperty(args, async ({ tool, args: toolArgs }) => {
				fake.reset();
				const { output, run } = await runAsTool(
					TOOLS[tool],
					credentials(),
					toolArgs as IDataObject,
				);
				expect(output).toHaveLength(1);
				for (const request of fake.requests) expect(specProblems(request, API_KEY)).toEqual([]);
				const error = output[0].json.error;
				if (typeof error === 'string' && /\(item 0\)/.test(error)) {
					expectSaysWhatToFix(error);
					expect(fake.sends()).toHaveLength(0);
				} else if (typeof error !== 'string') {
					expect(fake.sends()).toHaveLength(1);
				}
				expect(findSecret(run, API_KEY)).toEqual([]);
			}),
			fuzzRuns(40),
		);
	});
});
