/**
 * Template placeholders in odd shapes, and template objects in odd shapes, as a misbehaving
 * service could send them. The mapper method, the template check and the rendered message (dry
 * run with Include Rendered Message) must never crash; the table below records how each shape
 * is treated.
 */
import fc from 'fast-check';

import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { mapperFields, searchList } from '../helpers/engine';
import { getTemplates, locator } from '../helpers/parameters';
import { restartProcess } from '../helpers/process';
import { LONG_FUZZ, fuzzRuns } from './support/config';
import { checkProperty } from './support/property';
import { runBounded, watchUncaught } from './support/run';

jest.setTimeout(LONG_FUZZ ? 3_600_000 : 30_000);

const API_KEY = 'robustness-placeholders-key';
const CHANNEL = 77;

let fake: FakeService;
const uncaught = watchUncaught();
beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
});
afterAll(async () => await fake.close());
beforeEach(() => fake.reset());
afterEach(() => expect(uncaught).toEqual([]));

const credentials = () => ({ baseUrl: fake.url, apiKey: API_KEY });

function template(body: unknown, extra: Record<string, unknown> = {}) {
	return {
		id: 900,
		name: 'odd',
		body,
		header: { type: 'text', value: 'Hello' },
		footer: '',
		buttons: [],
		...extra,
	};
}

async function fieldsOf(id = 900) {
	return await mapperFields(
		'getTemplateVariables',
		{
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: CHANNEL,
			templateId: locator(id),
		},
		credentials(),
	);
}

/** A dry run with the rendered message, the variables given as JSON. */
async function dryRun(
	variables: Record<string, string>,
	options: Record<string, unknown> = {},
	id = 900,
) {
	// Every case puts a template of its own at the service: each dry run reads it as a fresh process would.
	restartProcess();
	return await runBounded({
		parameters: {
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: CHANNEL,
			templateId: locator(id),
			customerPhone: '+4915123456789',
			variablesMode: 'json',
			variablesJson: JSON.stringify(variables),
			options: { dryRun: true, includeRenderedMessage: true, ...options },
		} as never,
		credentials: credentials(),
	});
}

const value = (position: string) => `v${position}`;

/** Shapes that are no placeholder: no position, and the message shows them as typed. */
const AS_TYPED: Array<[string, string]> = [
	['letters', 'Hi {{a}} {{name}}'],
	['unclosed', 'Hi {{1 and {{'],
	['unopened', 'Hi 1}} }}'],
	['single braces', 'Hi {1} {{1}'],
	['position 0', 'Hi {{0}}'],
	['negative', 'Hi {{-1}}'],
	['decimal', 'Hi {{1.5}}'],
	['empty', 'Hi {{}} {{ }}'],
	['Arabic-Indic digit', 'Hi {{١}}'],
	['full-width digit', 'Hi {{１}}'],
];

/**
 * Observed treatment. A placeholder is "{{" + 1 to 4 digits (spaces and leading zeros allowed)
 * + "}}"; anything else stays as typed. Position 0 is not a position.
 */
const SHAPES: Array<[string, unknown, string[], string]> = [
	['spaces inside', 'Hi {{ 1 }} and {{2}}', ['1', '2'], 'Hi v1 and v2'],
	['leading zeros', 'Hi {{01}} / {{001}}', ['1'], 'Hi v1 / v1'],
	['triple braces', 'Hi {{{1}}}', ['1'], 'Hi {v1}'],
	['quadruple braces', 'Hi {{{{1}}}}', ['1'], 'Hi {{v1}}'],
	['five digits', 'Hi {{99999}} {{10000}} {{9999}}', ['9999'], 'Hi {{99999}} {{10000}} v9999'],
	['newlines inside', 'Hi {{\n1\n}}', ['1'], 'Hi v1'],
	['repeated, out of order', '{{2}} {{1}} {{2}}', ['1', '2'], 'v2 v1 v2'],
	['emoji and RTL around', '😀 {{1}} \u202Eمرحبا {{2}}', ['1', '2'], '😀 v1 \u202Eمرحبا v2'],
	['no body', null, [], ''],
	['number body', 42, [], ''],
	['object body', { text: 'Hi {{1}}' }, [], ''],
	...AS_TYPED.map(([label, body]): [string, unknown, string[], string] => [label, body, [], body]),
];

describe('placeholder shapes: mapper, template check and rendered message', () => {
	test.each(SHAPES)('%s', async (_label, body, positions, rendered) => {
		fake.setTemplates(CHANNEL, [template(body)]);
		const fields = await fieldsOf();
		expect(fields.fields.map((f) => f.id)).toEqual(positions);
		for (const field of fields.fields) expect(typeof field.displayName).toBe('string');
		if (positions.length === 0) expect(fields.emptyFieldsNotice).toBeTruthy();

		const filled = await dryRun(Object.fromEntries(positions.map((p) => [p, value(p)])));
		expect(filled.error).toBeUndefined();
		expect((filled.output[0].json.rendered as { body: string }).body).toBe(rendered);
		expect(fake.sends()).toHaveLength(0);

		const unfilled = await dryRun({});
		if (positions.length === 0) expect(unfilled.error).toBeUndefined();
		else
			expect(unfilled.error?.message).toBe(
				`Variables (item 0): template "odd" needs a value for ${positions.map((p) => `{{${p}}}`).join(', ')}`,
			);
	});

	test('attributes list is the authority; odd entries fall back to the body', async () => {
		const cases: Array<[unknown, string[]]> = [
			[[{ attribute: 1 }], ['1']],
			[[{ attribute: '01' }], ['1']],
			[[{ attribute: 'a' }], ['1']],
			[[null, {}, 'x', 5], ['1']],
			[[{ attribute: { toString: 'x' } }], ['1']],
			[null, ['1']],
			['x', ['1']],
			[
				[{ attribute: '1' }, { attribute: '2' }],
				['1', '2'],
			],
			[
				[{ attribute: '2' }, { attribute: '1' }, { attribute: '2' }],
				['1', '2'],
			],
		];
		for (const [attributes, positions] of cases) {
			fake.setTemplates(CHANNEL, [template('Hi {{1}}', { attributes })]);
			expect((await fieldsOf()).fields.map((f) => f.id)).toEqual(positions);
			const run = await dryRun(Object.fromEntries(positions.map((p) => [p, value(p)])));
			expect(run.error).toBeUndefined();
		}
	});

	test('a 1 MB body with 200,000 placeholders: mapper shows one field and the rendered message is whole', async () => {
		const body = 'x{{1}}'.repeat(200_000);
		fake.setTemplates(CHANNEL, [template(body)]);
		const start = Date.now();
		const fields = await fieldsOf();
		const mapperMs = Date.now() - start;
		expect(fields.fields.map((f) => f.id)).toEqual(['1']);
		expect(fields.fields[0].displayName.length).toBeLessThan(200);
		const renderStart = Date.now();
		const run = await dryRun({ '1': 'A' });
		const renderMs = Date.now() - renderStart;
		expect((run.output[0].json.rendered as { body: string }).body).toBe('xA'.repeat(200_000));
		// How fast is the benchmarks' to say; the figures are logged. The test's own timeout bounds a quadratic pass.
		console.log(
			`1 MB template body: mapper ${mapperMs} ms, dry run with rendered message ${renderMs} ms`,
		);
	});

	test('property: any body text never crashes the mapper, the check or the rendering', async () => {
		const piece = fc.oneof(
			fc.string({ maxLength: 8 }),
			fc.constantFrom(
				'{{',
				'}}',
				'{',
				'}',
				'{{1}}',
				'{{ 2 }}',
				'{{01}}',
				'{{0}}',
				'{{a}}',
				'{{{3}}}',
				'\n',
				'😀',
				'\u202E',
			),
			fc.integer({ min: 0, max: 100_000 }).map((n) => `{{${n}}}`),
		);
		await checkProperty(
			fc.asyncProperty(
				fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')),
				async (body) => {
					fake.setTemplates(CHANNEL, [template(body)]);
					const fields = await fieldsOf();
					const positions = fields.fields.map((f) => f.id);
					for (const p of positions) expect(p).toMatch(/^[1-9]\d{0,3}$/);
					const run = await dryRun(Object.fromEntries(positions.map((p) => [p, value(p)])));
					expect(run.error).toBeUndefined();
					const rendered = (run.output[0].json.rendered as { body: string }).body;
					for (const p of positions)
						expect(rendered).not.toMatch(new RegExp(`\\{\\{\\s*0*${p}\\s*\\}\\}`));
				},
			),
			fuzzRuns(40),
		);
	});
});

describe('template objects in odd shapes from the service', () => {
	const odd: Array<[string, Record<string, unknown>]> = [
		['name is an object', { name: { toString: 'x' } }],
		['name missing', { name: undefined }],
		['header is a string', { header: 'image' }],
		['header type is a number', { header: { type: 5 } }],
		[
			'header type in capitals',
			{ header: { type: 'IMAGE', value: 'https://cdn.example.com/a.png' } },
		],
		['buttons is a string', { buttons: 'x' }],
		['buttons hold null', { buttons: [null, 5, { type: 'url' }] }],
		['footer is a number', { footer: 5 }],
		['unknown extra fields', { status: 'APPROVED', language: { code: 'de' } }],
	];

	test.each(odd)('%s: mapper, dry run and real send end without a crash', async (_label, extra) => {
		fake.setTemplates(CHANNEL, [template('Hi {{1}}', extra)]);
		const fields = await fieldsOf();
		expect(fields.fields.map((f) => f.id)).toEqual(['1']);
		for (const options of [
			{},
			{ dryRun: false },
			{ validateTemplate: false, includeRenderedMessage: true, dryRun: false },
		]) {
			const run = await dryRun({ '1': 'Anna' }, options);
			// Either it works, or it says what is wrong with the template in words.
			if (run.error) expect(run.error.message).toMatch(/template|header/i);
		}
	});

	test.each([
		['an entry is null', [null]],
		['an entry is a string', ['template']],
		['an id is an object', [{ id: { toString: 'x' }, name: 'x' }]],
		['a name is an object', [{ id: 5, name: { toString: 'x' } }]],
		['a name is a number', [{ id: 5, name: 42 }]],
	])('template list where %s: the dropdown and Get Many do not crash', async (_label, list) => {
		fake.setTemplates(CHANNEL, [...(list as never[]), template('Hi {{1}}')]);
		const search = await searchList('searchTemplates', { channelId: CHANNEL }, credentials(), 'o');
		expect(
			search.results.every((r) => typeof r.name === 'string' && typeof r.value === 'string'),
		).toBe(true);
		const many = await runBounded({
			parameters: getTemplates(CHANNEL, { returnAll: true }),
			credentials: credentials(),
		});
		if (many.error) expect(many.error.message).toMatch(/template/i);
	});
});
