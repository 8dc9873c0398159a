/**
 * Template variables: numbers, booleans and dates (JS Date and Luxon DateTime from `{{ $now }}`)
 * become strings, dates in ISO 8601; a missing value stops the item, unless Allow Empty
 * Variables is on. Both Variables Input modes, with the template check on and off.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { LONG_FUZZ, fuzzRuns } from './support/config';
import { templateSendParameters } from './support/params';
import { checkProperty } from './support/property';
import { runBounded } from './support/run';
import { specProblems } from './support/spec';

jest.setTimeout(LONG_FUZZ ? 3_600_000 : 30_000);

const API_KEY = 'robustness-variables-key';
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

let fake: FakeService;
beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
});
afterAll(async () => await fake.close());
beforeEach(() => fake.reset());

/** A template send of template 101 ({{1}} {{2}} {{3}}), with the variables given as `variables`. */
function templateSend(variables: IDataObject, options: IDataObject) {
	return templateSendParameters(
		{ customerPhone: '+4915123456789', ...variables },
		options,
	) as never;
}

/** Variable 1 from the expression given, through the mapper. */
function mapperSend(first: string, options: IDataObject = {}) {
	return templateSend(
		{
			variablesMode: 'mapper',
			variables: {
				mappingMode: 'defineBelow',
				value: { '1': first, '2': 'order 1042', '3': 'Monday' },
			},
		},
		options,
	);
}

function jsonSend(expression: string, options: IDataObject = {}) {
	return templateSend({ variablesMode: 'json', variablesJson: expression }, options);
}

async function sentAttributes(parameters: never, items: IDataObject[] = [{}]) {
	const result = await runBounded({
		parameters,
		credentials: { baseUrl: fake.url, apiKey: API_KEY },
		items,
		continueOnFail: true,
	});
	for (const request of fake.requests) expect(specProblems(request, API_KEY)).toEqual([]);
	return {
		result,
		attributes: fake.sends().map((r) => r.body.attributes as Record<string, string>),
	};
}

describe('variable values become strings', () => {
	test.each([
		['a number', '={{ 1042 }}', '1042'],
		['a negative decimal', '={{ -3.5 }}', '-3.5'],
		['a boolean', '={{ true }}', 'true'],
		['false', '={{ false }}', 'false'],
		['zero', '={{ 0 }}', '0'],
		['a JS Date', '={{ new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }}', '2026-01-02T03:04:05.000Z'],
		[
			'a Luxon DateTime',
			'={{ DateTime.fromISO("2026-01-02T03:04:05", { zone: "utc" }) }}',
			'2026-01-02T03:04:05.000Z',
		],
		['text with emoji and RTL', '={{ "Anna 😀 \u202Eمرحبا" }}', 'Anna 😀 \u202Eمرحبا'],
	])('%s', async (_label, expression, expected) => {
		const { attributes } = await sentAttributes(mapperSend(expression));
		expect(attributes).toEqual([{ '1': expected, '2': 'order 1042', '3': 'Monday' }]);
	});

	test.each(['={{ $now }}', '={{ $today }}', '={{ $now.plus({ days: 3 }) }}', '={{ $json.when }}'])(
		'%s is sent as ISO 8601 text',
		async (expression) => {
			const { attributes } = await sentAttributes(mapperSend(expression), [
				{ when: new Date() as never },
			]);
			expect(attributes[0]['1']).toMatch(ISO_8601);
		},
	);

	test('the same values through Variables (JSON) from an expression', async () => {
		const { attributes } = await sentAttributes(
			jsonSend('={{ { "1": 7, "2": false, "3": $now } }}'),
		);
		expect(attributes[0]['1']).toBe('7');
		expect(attributes[0]['2']).toBe('false');
		expect(attributes[0]['3']).toMatch(ISO_8601);
	});

	test('property: any number, boolean or date from the input item arrives as its text', async () => {
		const value = fc.oneof(
			fc.integer(),
			fc.double({ noNaN: true, noDefaultInfinity: true }),
			fc.boolean(),
			fc.date({ noInvalidDate: true, min: new Date(-8.64e15 + 1), max: new Date(8.64e15 - 1) }),
		);
		await checkProperty(
			fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 3 }), async (values) => {
				fake.reset();
				const items = values.map((v) => ({ v })) as IDataObject[];
				const { result, attributes } = await sentAttributes(mapperSend('={{ $json.v }}'), items);
				expect(result.output.map((o) => o.json.error)).toEqual(values.map(() => undefined));
				expect(attributes.map((a) => a['1'])).toEqual(
					values.map((v) => (v instanceof Date ? v.toISOString() : String(v))),
				);
			}),
			fuzzRuns(30),
		);
	});
});

describe('a missing value stops the item unless Allow Empty Variables is on', () => {
	const missing = ['={{ $json.nothing }}', '={{ null }}', '={{ "" }}', '={{ "   " }}'];
	const modes = [
		['mapper', (e: string, o: IDataObject) => mapperSend(e, o)],
		[
			'json',
			(e: string, o: IDataObject) =>
				jsonSend(`={{ { "1": ${e.slice(3, -2)}, "2": "x", "3": "y" } }}`, o),
		],
	] as const;

	describe.each(modes)('Variables Input: %s', (_mode, build) => {
		test.each(missing)(
			'%s, template check on: refused by name, nothing sent',
			async (expression) => {
				const { result } = await sentAttributes(build(expression, {}));
				expect(result.output[0].json.error).toMatch(
					/^Variables( \(JSON\))? \(item 0\): .*\{\{1\}\}/,
				);
				expect(fake.sends()).toHaveLength(0);
			},
		);

		test.each(missing)(
			'%s, template check off: still refused, nothing sent',
			async (expression) => {
				const { result } = await sentAttributes(build(expression, { validateTemplate: false }));
				expect(result.output[0].json.error).toMatch(
					/^Variables( \(JSON\))? \(item 0\): \{\{1\}\} has no value/,
				);
				expect(result.output[0].json.error).toContain('Allow Empty Variables');
				expect(fake.sends()).toHaveLength(0);
			},
		);

		test.each([true, false])(
			'Allow Empty Variables on (template check %s): sent as empty text',
			async (validateTemplate) => {
				const { result, attributes } = await sentAttributes(
					build('={{ $json.nothing }}', { allowEmptyVariables: true, validateTemplate }),
				);
				expect(result.output[0].json.error).toBeUndefined();
				expect(attributes[0]['1']).toBe('');
			},
		);
	});

	test('a variable the template needs but nobody mapped is an error naming it', async () => {
		const { result } = await sentAttributes(jsonSend('{"1": "Anna", "3": "Monday"}'));
		// The template check names the field "Variables" in both input modes.
		expect(result.output[0].json.error).toBe(
			'Variables (item 0): template "order_shipped" needs a value for {{2}}',
		);
		expect(fake.sends()).toHaveLength(0);
	});

	test('per item: only the item with the missing value is stopped', async () => {
		const { result, attributes } = await sentAttributes(mapperSend('={{ $json.name }}'), [
			{ name: 'Anna' },
			{},
			{ name: 0 },
		]);
		expect(result.output.map((o) => o.json.error)).toEqual([
			undefined,
			expect.stringMatching(/^Variables \(item 1\)/),
			undefined,
		]);
		expect(attributes.map((a) => a['1'])).toEqual(['Anna', '0']);
	});
});
