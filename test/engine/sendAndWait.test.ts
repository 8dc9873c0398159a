import { createHmac } from 'node:crypto';

import { WAIT_INDEFINITELY } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import type { RunResult } from '../helpers/engine';
import {
	API_KEY,
	mapped,
	serializeEverything,
	useFakeService,
	waitingMessage,
	waitingTemplate,
} from '../helpers/fixtures';
import { useProcessedDataStore } from '../helpers/processedDataStore';
import type { InMemoryProcessedDataStore } from '../helpers/processedDataStore';

// n8n signs the links with its instance's secret; this one lets the test check the signatures.
const SECRET = 'send-and-wait-test-secret';
process.env.N8N_HMAC_SIGNATURE_SECRET = SECRET;

const service = useFakeService();
const WAITING = 'http://127.0.0.1:5678/webhook-waiting/exec-saw/node-1';

const ask = waitingMessage('Refund 42 EUR for order 1042?');

const DOUBLE = { values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' } };

async function run(parameters: INodeParameters, more: Partial<Parameters<typeof runNode>[0]> = {}) {
	return await runNode({
		parameters,
		credentials: service.credentials,
		executionId: 'exec-saw',
		items: [{ order: 1042 }],
		...more,
	});
}

/** Whether n8n's waiting webhook would accept the link: HMAC of its path and query, signature aside. */
function signedByN8n(link: string): boolean {
	const url = new URL(link);
	const signature = url.searchParams.get('signature');
	url.searchParams.delete('signature');
	const expected = createHmac('sha256', SECRET)
		.update(`${url.pathname}${url.search}`)
		.digest('hex');
	return signature === expected;
}

function waitTillOf(result: RunResult): Date | undefined {
	return result.run.waitTill ?? undefined;
}

describe('Message → Send and Wait for Response', () => {
	test('sends the message with an Approve and a Decline link, each signed, then waits', async () => {
		const result = await run(ask({ approvalOptions: DOUBLE }));
		expect(result.error).toBeUndefined();
		expect(service.fake.sends()).toHaveLength(1);
		const { body } = service.fake.sends()[0];
		expect(body.customer_id).toBe('123456');
		const links = [...String(body.text).matchAll(/(Yes|No): (\S+)/g)].map((match) => match[2]);
		expect(body.text).toBe(`Refund 42 EUR for order 1042?\n\nYes: ${links[0]}\n\nNo: ${links[1]}`);
		expect(links[0]).toMatch(new RegExp(`^${WAITING}\\?approved=true&signature=[0-9a-f]{64}$`));
		expect(links[1]).toMatch(new RegExp(`^${WAITING}\\?approved=false&signature=[0-9a-f]{64}$`));
		expect(links.every(signedByN8n)).toBe(true);
		expect(result.run.status).toBe('waiting');
		expect(waitTillOf(result)).toEqual(WAIT_INDEFINITELY);
		// While waiting the node shows its input, as n8n's own nodes do.
		expect(result.output.map((item) => item.json)).toEqual([{ order: 1042 }]);
	});

	test("as n8n's human review calls it (message and approval, nothing else): one Approve link", async () => {
		const result = await run({
			resource: 'message',
			operation: 'sendAndWait',
			responseType: 'approval',
			customerId: '123456',
			message: 'The agent wants to run this tool: refund\n\nInput:\n{"amount":42}',
		});
		expect(result.error).toBeUndefined();
		const text = String(service.fake.sends()[0].body.text);
		expect(text).toMatch(
			/^The agent wants to run this tool: refund\n\nInput:\n\{"amount":42\}\n\n✓ Approve: \S+$/,
		);
		expect(text).not.toContain('approved=false');
		expect(result.run.status).toBe('waiting');
	});

	test('free text: one link to the answer page, after the Message Button Label', async () => {
		await run(ask({ responseType: 'freeText', options: { messageButtonLabel: 'Answer here' } }));
		const text = String(service.fake.sends()[0].body.text);
		expect(text).toMatch(new RegExp(`\\n\\nAnswer here: ${WAITING}\\?signature=[0-9a-f]{64}$`));
		expect(signedByN8n(text.split('Answer here: ')[1])).toBe(true);
	});

	test('Limit Wait Time at a date: the execution waits until then', async () => {
		const limitWaitTime = {
			values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2099-01-02T03:04:05.000Z' },
		};
		const result = await run(ask({ options: { limitWaitTime } }));
		expect(waitTillOf(result)).toEqual(new Date('2099-01-02T03:04:05.000Z'));
	});

	test('a limit that cannot be kept stops the node before anything is sent', async () => {
		const limitWaitTime = {
			values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2001-01-01T00:00:00Z' },
		};
		const result = await run(ask({ options: { limitWaitTime } }));
		expect(result.error?.message).toBe('Limit Wait Time: the max date and time has passed');
		expect(service.fake.requests).toHaveLength(0);
		expect(waitTillOf(result)).toBeUndefined();
	});

	test('more than one item: an error naming the count and the way out, nothing sent', async () => {
		const result = await run(ask(), { items: [{ order: 1 }, { order: 2 }] });
		expect(result.error?.message).toBe(
			'Send and Wait for Response takes one item per execution, and received 2',
		);
		expect(result.error?.description).toBe(
			'One execution waits for one answer. To ask many people at once, call a sub-workflow per ' +
				'item with Execute Workflow (Wait For Sub-Workflow Completion off); see "Asking many ' +
				'people at once" in the docs. Nothing was sent.',
		);
		expect(service.fake.requests).toHaveLength(0);
		expect(waitTillOf(result)).toBeUndefined();
	});

	test('a send that fails throws as every send does, and nothing waits', async () => {
		service.fake.addFault('/customers/send-text-message', {
			status: 400,
			body: { error: 'Unknown customer' },
		});
		const result = await run(ask());
		expect(result.error?.message).toContain('Unknown customer');
		expect(result.run.status).not.toBe('waiting');
		expect(waitTillOf(result)).toBeUndefined();
		// The node's own words name no customer, message or link (n8n adds its copy of the node).
		const words = `${result.error?.message} ${result.error?.description}`;
		expect(words).not.toMatch(/123456|signature=|Refund 42/);
	});

	test('with the error output the failure is an item there, and nothing waits', async () => {
		service.fake.addFault('/customers/send-text-message', {
			status: 401,
			body: { error: 'bad key' },
		});
		const result = await run(ask(), { errorOutput: true });
		expect(result.output).toEqual([]);
		expect(result.errorOutput[0].json.details).toMatchObject({
			outcome: 'notSent',
			reason: 'unauthorized',
		});
		expect(result.run.status).not.toBe('waiting');
		expect(serializeEverything(result.run)).not.toContain(API_KEY);
	});

	test('with Continue on Fail the error item comes out, and nothing waits', async () => {
		const result = await run(ask({ customerId: '={{ $json.id }}' }), { continueOnFail: true });
		expect(result.output[0].json.error).toMatch(/^Customer ID \(item 0\): it is empty/);
		expect(service.fake.requests).toHaveLength(0);
		expect(result.run.status).not.toBe('waiting');
	});
});

describe('a workflow step run by `n8n execute` (mode cli)', () => {
	test('fails before sending: the run ends, nothing waits, the error says where to run it', async () => {
		const { error, run: execution } = await run(ask({ responseType: 'freeText' }), { mode: 'cli' });
		expect(error?.message).toMatch(
			/^Send and Wait for Response cannot wait for an answer in a run of n8n execute .*nothing was sent/,
		);
		expect(error?.message).toContain('running n8n');
		expect(execution.status).toBe('error');
		expect(execution.waitTill).toBeUndefined();
		expect(service.fake.requests).toEqual([]);
	});
});

describe('WhatsApp Template → Send and Wait for Response', () => {
	test('the link to the page (every choice on it) goes into the Link Variable', async () => {
		const result = await run(waitingTemplate({ approvalOptions: DOUBLE }));
		expect(result.error).toBeUndefined();
		const posts = service.fake.sends('/whatsapp/send-template-message');
		expect(posts).toHaveLength(1);
		const { attributes } = posts[0].body;
		expect(attributes).toEqual({ '1': 'Anna', '2': '1042', '3': expect.any(String) });
		expect(attributes['3']).toMatch(new RegExp(`^${WAITING}\\?signature=[0-9a-f]{64}$`));
		expect(signedByN8n(attributes['3'])).toBe(true);
		expect(posts[0].body.customer_phone).toBe('+4915123456789');
		expect(result.run.status).toBe('waiting');
	});

	test('the item is still checked against the template: a missing variable stops it unsent', async () => {
		const result = await run(waitingTemplate({ variables: mapped({ '1': 'Anna' }) }));
		expect(result.error?.message).toMatch(/^Variables \(item 0\): .*\{\{2\}\}/);
		expect(service.fake.sends()).toHaveLength(0);
		expect(result.run.status).not.toBe('waiting');
	});

	test('a Link Variable the template does not have is caught by the check', async () => {
		const result = await run(
			waitingTemplate({ linkVariable: 4, variables: mapped({ '1': 'A', '2': 'B', '3': 'C' }) }),
		);
		expect(result.error?.message).toMatch(/\{\{4\}\}/);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('a value the JSON gives the Link Variable too is an error, not overwritten', async () => {
		const result = await run(
			waitingTemplate({
				variablesMode: 'json',
				variablesJson: '{"1": "A", "2": "B", "3": "C"}',
			}),
		);
		expect(result.error?.message).toBe(
			'Variables (JSON) (item 0): {{3}} receives the answer link (Link Variable): leave it empty',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});
});

describe('when the wait time ends without an answer', () => {
	test("n8n passes the node's input on and does not run it again: one message, no second send", async () => {
		const waiting = await run(ask({ approvalOptions: DOUBLE }));
		expect(waiting.run.status).toBe('waiting');
		const resumed = await run(ask({ approvalOptions: DOUBLE }), { resumeFrom: waiting.run.data });
		expect(resumed.error).toBeUndefined();
		expect(resumed.run.status).toBe('success');
		expect(resumed.output.map((item) => item.json)).toEqual([{ order: 1042 }]);
		expect(service.fake.sends()).toHaveLength(1);
	});
});

describe('Send Once per Key: a question asked before is not asked again, and nothing waits', () => {
	let store: InMemoryProcessedDataStore;
	beforeAll(async () => {
		store = await useProcessedDataStore();
	});
	beforeEach(() => store.reset());

	const once = { sendOnceKey: '={{ $json.order }}-refund' };
	const SKIPPED = { skipped: true, reason: 'alreadySent', sendOnceKey: '1042-refund' };
	const other = (executionId: string) => ({ executionId });

	test.each([
		['Message', ask({ options: once })],
		['WhatsApp Template', waitingTemplate({ options: once })],
	])(
		'%s: a second execution with the key sends nothing, does not wait and outputs the skipped item',
		async (_resource, parameters) => {
			const first = await run(parameters);
			expect(first.error).toBeUndefined();
			expect(first.run.status).toBe('waiting');
			expect(service.fake.sends()).toHaveLength(1);
			service.fake.reset();
			const second = await run(parameters, other('exec-saw-2'));
			expect(second.error).toBeUndefined();
			// Not even the template check's read reaches the service.
			expect(service.fake.requests).toEqual([]);
			expect(second.run.status).toBe('success');
			expect(waitTillOf(second)).toBeUndefined();
			expect(second.output).toEqual([{ json: SKIPPED, pairedItem: { item: 0 } }]);
		},
	);

	test('two executions at once with the same key: one message, one wait, one skipped item', async () => {
		await service.withLatency(30, async () => {
			const results = await Promise.all([
				run(waitingTemplate({ options: once })),
				run(waitingTemplate({ options: once }), other('exec-saw-2')),
			]);
			expect(service.fake.sends('/whatsapp/send-template-message')).toHaveLength(1);
			const statuses = results.map((result) => result.run.status).sort();
			expect(statuses).toEqual(['success', 'waiting']);
			const skipped = results.find((result) => result.run.status === 'success');
			expect(skipped?.output.map((item) => item.json)).toEqual([SKIPPED]);
		});
	});

	test('a send the service refused releases the key: the retry asks and waits', async () => {
		service.fake.addFault('/customers/send-text-message', {
			status: 400,
			body: { error: 'Unknown customer' },
		});
		const failed = await run(ask({ options: once }));
		expect(failed.error?.message).toContain('Unknown customer');
		expect(waitTillOf(failed)).toBeUndefined();
		const retry = await run(ask({ options: once }), other('exec-saw-2'));
		expect(retry.error).toBeUndefined();
		expect(retry.run.status).toBe('waiting');
		expect(service.fake.sends().filter((send) => send.status === 200)).toHaveLength(1);
		const third = await run(ask({ options: once }), other('exec-saw-3'));
		expect(third.output.map((item) => item.json)).toEqual([SKIPPED]);
	});

	test('the waiting execution still ends as before: at its limit it outputs its input', async () => {
		const first = await run(ask({ options: once }));
		await run(ask({ options: once }), other('exec-saw-2'));
		const resumed = await run(ask({ options: once }), { resumeFrom: first.run.data });
		expect(resumed.run.status).toBe('success');
		expect(resumed.output.map((item) => item.json)).toEqual([{ order: 1042 }]);
		expect(service.fake.sends()).toHaveLength(1);
	});
});
