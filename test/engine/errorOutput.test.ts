/*
 * On Error → "Continue (using error output)": n8n's own engine (n8n-core 2.41) routes every item
 * the node failed to the error output and keeps the others on the success output, in input order,
 * with the error item's json as documented ({ error, message, details }, after the input's fields,
 * which n8n merges in). The item's `error`, which n8n 1.x needs for the routing, never reaches the
 * execution data. The same workflows run on n8n 1.123.81 in test/e2e/n8n.e2e.js.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { API_KEY, broadcastSend, serializeEverything, useFakeService } from '../helpers/fixtures';
import { getTemplate } from '../helpers/parameters';

const service = useFakeService();

const contacts = [
	{ phone: '+4915100000001', name: 'Anna' },
	{ phone: '0151 234', name: 'Ben' },
	{ phone: '+4915100000003', name: 'Cara' },
	{ phone: '+4915100000004', name: 'Dan' },
];

function expectErrorItem(item: INodeExecutionData, input: object, itemIndex: number) {
	expect(Object.keys(item)).not.toContain('error');
	expect(item.pairedItem).toEqual({ item: itemIndex });
	expect(item.json).toMatchObject(input);
	expect(item.json).toEqual(
		expect.objectContaining({ error: expect.any(String), details: expect.any(Object) }),
	);
}

describe('Continue (using error output)', () => {
	test(
		'a send: bad input and a refused send on the error output, the sent items on the success ' +
			'output, in order',
		async () => {
			service.fake.addFault(
				'/whatsapp/send-template-message',
				{ status: 400, body: { error: 'Customer has blocked this channel' } },
				1,
				1,
			);
			const { output, errorOutput, run } = await service.run(broadcastSend({ concurrency: 1 }), {
				items: contacts,
				errorOutput: true,
			});
			// Every item on one output or the other before anything else.
			expect(output.length + errorOutput.length).toBe(contacts.length);
			expect(output.map((item) => item.json.status)).toEqual(['ongoing', 'ongoing']);
			expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 3 }]);
			expect(errorOutput).toHaveLength(2);
			expectErrorItem(errorOutput[0], contacts[1], 1);
			expect(errorOutput[0].json.error).toMatch(/^Customer Phone \(item 1\): /);
			expect(errorOutput[0].json.message).toBe('Nothing was sent for this item.');
			expect(errorOutput[0].json.details).toEqual({
				outcome: 'notSent',
				reason: 'invalidInput',
				field: 'Customer Phone',
			});
			expectErrorItem(errorOutput[1], contacts[2], 2);
			expect(errorOutput[1].json.error).toBe('Customer has blocked this channel');
			expect(errorOutput[1].json.details).toMatchObject({ reason: 'rejected', httpCode: '400' });
			expect(serializeEverything(run)).not.toContain(API_KEY);
		},
	);

	test(
		'a dry run and a read: checked items stay on the success output, a failed read goes to the ' +
			'error output',
		async () => {
			const dryRun = await service.run(broadcastSend({ dryRun: true }), {
				items: contacts.slice(0, 2),
				errorOutput: true,
			});
			expect(dryRun.output.map((item) => item.json.dryRun)).toEqual([true]);
			expect(dryRun.errorOutput.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);

			const read = await service.run(getTemplate(12, '={{ $json.template }}'), {
				items: [{ template: 101 }, { template: 999 }],
				errorOutput: true,
			});
			expect(read.output.map((item) => item.json.id)).toEqual([101]);
			expect(read.errorOutput).toHaveLength(1);
			expectErrorItem(read.errorOutput[0], { template: 999 }, 1);
		},
	);

	test(
		'Continue (regular output) keeps every item on the one output, error items with their ' +
			'documented json only',
		async () => {
			const { output, errorOutput } = await service.run(broadcastSend(), {
				items: contacts.slice(0, 2),
				continueOnFail: true,
			});
			expect(errorOutput).toEqual([]);
			expect(output).toHaveLength(2);
			expect(Object.keys(output[1].json).sort()).toEqual(['details', 'error', 'message']);
			expect(Object.keys(output[1])).not.toContain('error');
		},
	);
});
