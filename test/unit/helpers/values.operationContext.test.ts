import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { OperationContext } from '../../../nodes/OmnichannelMessaging/helpers/values';

/** n8n's execute functions, as far as the context uses them; `evaluate` gives an expression's value per item. */
function functionsFor(
	parameters: IDataObject,
	evaluate: (value: string, itemIndex: number) => unknown = (value) => value,
) {
	const reads: string[] = [];
	let copies = 0;
	const get = (name: string) =>
		name
			.split('.')
			.reduce<unknown>((value, part) => (value as IDataObject | undefined)?.[part], parameters);
	const functions = {
		getNode: () => ((copies += 1), { parameters: structuredClone(parameters) } as unknown as INode),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			reads.push(`${name}@${itemIndex}`);
			const value = get(name);
			if (value === undefined) return fallback;
			return typeof value === 'string' && value.startsWith('=')
				? evaluate(value, itemIndex)
				: value;
		},
	} as unknown as IExecuteFunctions;
	return { functions, reads, copies: () => copies };
}

describe('OperationContext', () => {
	test('a fixed value is read once for every item; the node is copied once', () => {
		const { functions, reads, copies } = functionsFor({
			text: 'Hello',
			options: { timeout: 5000 },
		});
		const context = new OperationContext(functions);
		expect([0, 1, 2].map((item) => context.get('text', item))).toEqual(['Hello', 'Hello', 'Hello']);
		expect(context.get('options.timeout', 1)).toBe(5000);
		expect(context.get('options.timeout', 2)).toBe(5000);
		expect(reads).toEqual(['text@0', 'options.timeout@1']);
		expect(context.node.parameters.text).toBe('Hello');
		expect(copies()).toBe(1);
	});

	test('an expression, also one inside an object or a collection, is read for each item', () => {
		const { functions, reads } = functionsFor(
			{
				phone: '={{ $json.phone }}',
				templateId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				options: { sendOnceKey: '={{ $json.key }}' },
			},
			(value, itemIndex) => `${value}#${itemIndex}`,
		);
		const context = new OperationContext(functions);
		for (const item of [0, 1]) {
			context.get('phone', item);
			context.get('templateId', item);
			context.get('options.sendOnceKey', item);
		}
		expect(reads).toEqual([
			'phone@0',
			'templateId@0',
			'options.sendOnceKey@0',
			'phone@1',
			'templateId@1',
			'options.sendOnceKey@1',
		]);
		expect(context.get('phone', 1)).toBe('={{ $json.phone }}#1');
	});

	test('a fallback given on a later read counts: values are kept by name and fallback', () => {
		const { functions } = functionsFor({});
		const context = new OperationContext(functions);
		expect(context.get('limit', 0, 50)).toBe(50);
		expect(context.get('limit', 1, 10)).toBe(10);
		expect(context.get('limit', 2)).toBeUndefined();
	});

	test('a collection is read option by option for the execution, without the options read per item', () => {
		const { functions, reads } = functionsFor({
			options: { concurrency: 5, sendOnceKey: '={{ $json.key }}', dryRun: true },
		});
		const context = new OperationContext(functions);
		expect(context.collection('options', new Set(['sendOnceKey']))).toEqual({
			concurrency: 5,
			dryRun: true,
		});
		expect(reads).toEqual(['options.concurrency@0', 'options.dryRun@0']);
		expect(context.collection('requestOptions')).toEqual({});
	});
});
