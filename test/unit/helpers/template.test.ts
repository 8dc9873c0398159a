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
		['between words, one space stays', 'Tap {{3}} to confirm.', 'Tap to confirm.'],
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

	test.each([
		[
			'a new sentence follows: the colon ends the sentence',
			'Please confirm on this page: {{3}} See you!',
			'Please confirm on this page. See you!',
		],
		['the body ends', 'Answer here: {{3}}', 'Answer here.'],
		['punctuation follows', 'Answer here: {{3}}. Thanks', 'Answer here. Thanks'],
		['the sentence goes on', 'Open: {{3}} and tap Yes.', 'Open and tap Yes.'],
		['a sentence already ended', 'Thanks!: {{3}} Bye', 'Thanks! Bye'],
		['a space before the colon, in French', 'Confirmez ici : {{3}} Merci', 'Confirmez ici. Merci'],
		[
			'a colon before another variable stays',
			'Date: {{2}}, link: {{3}} Bye',
			'Date: {{2}}, link. Bye',
		],
	])('a colon that led to the link: %s', (_, body, shown) => {
		expect(without(body)).toBe(shown);
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
