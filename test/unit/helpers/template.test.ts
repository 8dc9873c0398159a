import {
	bodyWithout,
	describePosition,
	fillPlaceholders,
	findPlaceholders,
	getVariablePositions,
	renderTemplate,
} from '../../../nodes/OmnichannelMessaging/helpers/template';

describe('template placeholders', () => {
	test('positions come from attributes, deduplicated and in order', () => {
		expect(
			getVariablePositions({
				id: 1,
				name: 't',
				body: 'x',
				attributes: [{ attribute: '2' }, { attribute: '1' }, { attribute: '2' }],
			}),
		).toEqual(['1', '2']);
	});

	test('without attributes the body placeholders are used', () => {
		expect(
			getVariablePositions({ id: 1, name: 't', body: 'Hi {{2}} and {{1}} and {{2}}' }),
		).toEqual(['1', '2']);
	});

	test('odd shapes: spaces and leading zeros count, names and broken braces are text', () => {
		expect(findPlaceholders('{{ 1 }} {{02}} {{a}} {{ }} {{3} {4}} {{{5}}}')).toEqual([
			'1',
			'2',
			'5',
		]);
		expect(findPlaceholders(undefined)).toEqual([]);
	});

	test('filling keeps a placeholder with no value visible', () => {
		expect(fillPlaceholders('Hi {{1}}, {{ 1 }}: {{2}} {{a}}', { '1': 'Anna' })).toBe(
			'Hi Anna, Anna: {{2}} {{a}}',
		);
	});

	test('replacement text is taken literally', () => {
		expect(fillPlaceholders('Pay {{1}}', { '1': '$& $1 {{2}}' })).toBe('Pay $& $1 {{2}}');
	});

	test('describePosition shows the text around the placeholder', () => {
		expect(
			describePosition('Hi {{1}}, your order {{2}} has shipped and arrives soon, thanks', '2'),
		).toBe('…{{1}}, your order ___ has shipped and…');
	});

	test('renderTemplate gives header, body, footer and buttons as the customer sees them', () => {
		expect(
			renderTemplate(
				{
					id: 3,
					name: 'x',
					body: 'Hello {{1}}',
					header: { type: 'image', value: 'https://sample' },
					footer: 'Bye',
					buttons: [{ id: 1, type: 'url', title: 'Go', value: 'https://go' }],
				},
				{ '1': 'Bo' },
				'https://real.jpg',
			),
		).toEqual({
			header: { type: 'image', url: 'https://real.jpg' },
			body: 'Hello Bo',
			footer: 'Bye',
			buttons: [{ type: 'url', title: 'Go', value: 'https://go' }],
		});
	});
});

describe('the body without the answer link (the page repeats the question)', () => {
	const without = (body: string, values: Record<string, string> = {}) =>
		bodyWithout({ id: 1, body } as never, values, '3');

	test.each([
		[
			'between words, one space stays',
			'Please tap {{3}} to confirm your appointment.',
			'Please tap to confirm your appointment.',
		],
		['before punctuation', 'It arrives on {{ 03 }}. Track it.', 'It arrives on. Track it.'],
		[
			'alone on a line, the blank lines closed up',
			'Confirm:\n\n{{3}}\n\nSee you!',
			'Confirm.\n\nSee you!',
		],
		['at a line end', 'Confirm here: {{3}}\nSee you!', 'Confirm here.\nSee you!'],
	])('%s', (_, body, shown) => {
		expect(without(body)).toBe(shown);
	});

	/** What the page shows where a colon led to the link, by what follows the link. */
	const afterColon: Record<string, { body: string; shown: string }> = {
		'a new sentence: the colon ends the sentence': {
			body: 'Please confirm on this page: {{3}} See you!',
			shown: 'Please confirm on this page. See you!',
		},
		'the end of the body': { body: 'Answer here: {{3}}', shown: 'Answer here.' },
		punctuation: { body: 'Answer here: {{3}}. Thanks', shown: 'Answer here. Thanks' },
		'the same sentence': { body: 'Open: {{3}} and tap Yes.', shown: 'Open and tap Yes.' },
		'a sentence already ended': { body: 'Thanks!: {{3}} Bye', shown: 'Thanks! Bye' },
		'French, a space before the colon': {
			body: 'Confirmez ici : {{3}} Merci',
			shown: 'Confirmez ici. Merci',
		},
		'another variable, whose colon stays': {
			body: 'Date: {{2}}, link: {{3}} Bye',
			shown: 'Date: {{2}}, link. Bye',
		},
	};
	test.each(Object.entries(afterColon))('a colon that led to the link, then %s', (_, c) => {
		expect(without(c.body)).toBe(c.shown);
	});

	test("the other variables are filled in, and a value's own text is never touched", () => {
		expect(without('Hi {{1}}, use {{3}} on {{2}}.', { '1': 'A  {{3}} B', '2': 'Monday' })).toBe(
			'Hi A  {{3}} B, use on Monday.',
		);
	});

	test('a template without a body has no question', () => {
		expect(bodyWithout({ id: 1 } as never, {}, '3')).toBe('');
	});
});
