import { readAnswer } from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import type {
	AnswerConfig,
	AnswerRequest,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import { readAnswerConfig } from '../../../nodes/OmnichannelMessaging/sendAndWait/webhook';
import { ENGLISH } from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';

const NOW = new Date('2026-11-26T06:30:00.000Z');

const choices = (...labels: unknown[]) => ({ values: labels.map((label) => ({ label })) });

const read = (parameters: Record<string, unknown>) =>
	readAnswerConfig(
		(name, fallback) => ({ responseType: 'choice', ...parameters })[name] ?? fallback,
	);

function config(parameters: Record<string, unknown>): AnswerConfig {
	const checked = read(parameters);
	if (!checked.ok) throw new Error(checked.reason);
	return checked.value;
}

const SLOTS = config({ 'choiceOptions.values': choices('Monday', ' Tuesday ', 'Friday').values });

const BUTTONS = [
	{ label: 'Monday', value: '0', output: { choice: 'Monday' } },
	{ label: 'Tuesday', value: '1', output: { choice: 'Tuesday' } },
	{ label: 'Friday', value: '2', output: { choice: 'Friday' } },
];

const request = (method: string, body = {}, query = {}): AnswerRequest => ({
	method,
	query,
	body,
});

describe('Choice: reading the options', () => {
	test("one button per option, in order, posting its index under 'choice'; its label trimmed", () => {
		expect(SLOTS).toEqual({
			kind: 'buttons',
			name: 'choice',
			buttons: BUTTONS,
			linkLabel: 'Respond',
			page: { language: ENGLISH, buttonLabel: '', css: '' },
		});
	});

	test("the message's one link takes Message Button Label; the page, the builder's words", () => {
		const read = config({
			'choiceOptions.values': choices('A').values,
			'options.messageButtonLabel': 'Pick a slot',
			'options.responseFormDescription': 'When can we come?',
			'options.responseFormTitle': 'Slots',
			'options.responseFormCustomCss': 'h1{color:red}',
		});
		expect(read).toMatchObject({
			linkLabel: 'Pick a slot',
			page: { description: 'When can we come?', buttonLabel: '', css: '' },
		});
		expect(read.page).toMatchObject({ title: 'Slots', language: ENGLISH });
	});

	test('a number an expression gave is a label', () => {
		const read = config({ 'choiceOptions.values': choices(1, 2).values });
		expect(read.kind === 'buttons' && read.buttons.map((button) => button.output)).toEqual([
			{ choice: '1' },
			{ choice: '2' },
		]);
	});

	test.each([
		['no options', undefined, 'add at least one choice'],
		['an empty list', [], 'add at least one choice'],
		[
			'11 options',
			choices(...Array.from({ length: 11 }, (_, n) => `Slot ${n}`)).values,
			'11 choices are too many: keep 10 at most',
		],
		['an empty label', choices('Monday', '  ').values, 'choice 2 has no label'],
		['a label that is no text', choices('Monday', { a: 1 }).values, 'choice 2 has no label'],
		['an option that is no object', ['Monday'], 'choice 1 has no label'],
		[
			'two options with one label',
			choices('Monday', 'Friday', 'Monday ').values,
			'choices 1 and 3 have the same label',
		],
	])('%s is refused, naming Choices and no label', (_, values, reason) => {
		expect(read({ 'choiceOptions.values': values })).toEqual({
			ok: false,
			reason,
			field: 'Choices',
		});
	});

	test('10 options are taken', () => {
		const ten = choices(...Array.from({ length: 10 }, (_, n) => `Slot ${n}`)).values;
		expect(read({ 'choiceOptions.values': ten }).ok).toBe(true);
	});
});

describe('Choice: the answer', () => {
	test('a GET, a link preview included, shows every option and records nothing', () => {
		const outcome = readAnswer(request('GET'), SLOTS, NOW, 'When can we come?');
		expect(outcome).toEqual({
			status: 200,
			view: { kind: 'buttons', question: 'When can we come?', name: 'choice', buttons: BUTTONS },
		});
	});

	test("the page's POST of an index records that option's label", () => {
		const outcome = readAnswer(request('POST', { choice: '2' }), SLOTS, NOW);
		expect(outcome).toEqual({
			status: 200,
			view: { kind: 'recorded', recorded: 'Recorded: Friday' },
			data: { choice: 'Friday', respondedAt: NOW.toISOString() },
		});
	});

	test.each([
		['no value', {}],
		['an index past the options', { choice: '3' }],
		['a negative index', { choice: '-1' }],
		['an index written otherwise', { choice: '02' }],
		['an index with spaces', { choice: ' 1' }],
		["an option's label", { choice: 'Friday' }],
		['two values', { choice: ['0', '2'] }],
		["Approval's field", { approved: 'true' }],
		['a prototype name', { choice: 'constructor' }],
	])('%s records nothing: the options again, with the question', (_, body) => {
		const outcome = readAnswer(request('POST', body), SLOTS, NOW, 'When?');
		expect(outcome).toEqual({
			status: 400,
			view: {
				kind: 'buttons',
				question: 'When?',
				name: 'choice',
				buttons: BUTTONS,
				alert: 'Nothing was recorded: tap one of the buttons below.',
			},
		});
	});
});
