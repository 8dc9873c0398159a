import { readAnswer } from '../../../../nodes/OmnichannelMessaging/helpers/sendAndWait/answer';
import type { AnswerRequest } from '../../../../nodes/OmnichannelMessaging/helpers/sendAndWait/answer';
import { readAnswerConfig } from '../../../../nodes/OmnichannelMessaging/helpers/sendAndWait/config';
import type { AnswerConfig } from '../../../../nodes/OmnichannelMessaging/helpers/sendAndWait/config';

const NOW = new Date('2026-11-26T06:30:00.000Z');
const RESPONDED_AT = NOW.toISOString();

function config(parameters: Record<string, unknown>): AnswerConfig {
	const read = readAnswerConfig((name, fallback) => parameters[name] ?? fallback);
	if ('problem' in read) throw new Error(read.problem);
	return read;
}

const DOUBLE = config({
	'approvalOptions.values.approvalType': 'double',
	'approvalOptions.values.approveLabel': 'Yes',
	'approvalOptions.values.disapproveLabel': 'No',
});
const SINGLE = config({});
const FREE_TEXT = config({ responseType: 'freeText' });

const request = (method: string, query = {}, body = {}): AnswerRequest => ({ method, query, body });

describe('reading the configuration', () => {
	test("n8n's defaults: approval, Approve only, WhatsApp's labels", () => {
		expect(SINGLE).toEqual({
			responseType: 'approval',
			approvalType: 'single',
			approveLabel: '✓ Approve',
			disapproveLabel: '✗ Decline',
			respondLabel: 'Respond',
			page: { css: '' },
			fields: [],
		});
	});

	test('a response type this node does not know is refused, not guessed', () => {
		expect(
			readAnswerConfig((name, fallback) => (name === 'responseType' ? 'poll' : fallback)),
		).toEqual({
			problem: '"poll" is not Approval, Free Text or Custom Form',
			field: 'Response Type',
		});
	});

	test('a Custom Form without fields is refused, naming the setting', () => {
		expect(
			readAnswerConfig((name, fallback) => (name === 'responseType' ? 'customForm' : fallback)),
		).toEqual({ problem: 'the form has no fields: add at least one', field: 'Form Elements' });
	});

	test("the form's page options, unset ones left out", () => {
		const options: Record<string, string> = {
			'options.responseFormTitle': 'Expense claim',
			'options.responseFormButtonLabel': 'Claim',
			'options.responseFormDescription': ' ',
			'options.responseFormCustomCss': 'h1{color:red}',
		};
		expect(config({ responseType: 'freeText', ...options }).page).toEqual({
			title: 'Expense claim',
			buttonLabel: 'Claim',
			description: undefined,
			css: 'h1{color:red}',
		});
	});
});

describe('a GET never records', () => {
	test.each(['GET', 'HEAD', 'OPTIONS'])('%s shows the page and resumes nothing', (method) => {
		const outcome = readAnswer(request(method, { approved: 'true' }), DOUBLE, NOW);
		expect(outcome.data).toBeUndefined();
		expect(outcome.status).toBe(200);
	});

	test('a link with a signed choice shows that choice only', () => {
		expect(readAnswer(request('GET', { approved: 'false' }), DOUBLE, NOW).view).toEqual({
			kind: 'approval',
			question: undefined,
			choices: [{ label: 'No', approved: 'false' }],
		});
	});

	test('a link without a choice (a template variable) shows every choice, with the question', () => {
		expect(readAnswer(request('GET'), DOUBLE, NOW, 'Refund?').view).toEqual({
			kind: 'approval',
			question: 'Refund?',
			choices: [
				{ label: 'Yes', approved: 'true' },
				{ label: 'No', approved: 'false' },
			],
		});
	});

	test('a free-text link shows the text box', () => {
		expect(readAnswer(request('GET'), FREE_TEXT, NOW).view).toEqual({ kind: 'freeText' });
	});
});

describe("the page's POST records n8n's output", () => {
	test.each([
		['true', true],
		['false', false],
	])('the choice %s from the form of a link without one', (approved, expected) => {
		const outcome = readAnswer(request('POST', {}, { approved }), DOUBLE, NOW);
		expect(outcome.data).toEqual({ approved: expected, respondedAt: RESPONDED_AT });
		expect(outcome.view).toEqual({
			kind: 'recorded',
			recorded: `Recorded: ${expected ? 'Yes' : 'No'}`,
		});
	});

	test("the link's signed choice wins over a form that says otherwise", () => {
		const outcome = readAnswer(
			request('POST', { approved: 'true' }, { approved: 'false' }),
			DOUBLE,
			NOW,
		);
		expect(outcome.data).toEqual({ approved: true, respondedAt: RESPONDED_AT });
	});

	test.each([
		['no choice', SINGLE, {}],
		['a choice that is not one', DOUBLE, { approved: 'maybe' }],
		['Decline where only Approve is offered', SINGLE, { approved: 'false' }],
	])('%s is refused, and nothing is recorded', (_, answerConfig, body) => {
		const outcome = readAnswer(request('POST', {}, body), answerConfig, NOW);
		expect(outcome).toEqual({
			status: 400,
			view: { kind: 'refused', reason: 'No choice was made. Open the link again.' },
		});
	});

	test('free text: the text as typed, line ends as \\n', () => {
		const outcome = readAnswer(
			request('POST', {}, { text: ' Ship it\r\nby Friday ' }),
			FREE_TEXT,
			NOW,
		);
		expect(outcome.data).toEqual({ text: ' Ship it\nby Friday ', respondedAt: RESPONDED_AT });
		expect(outcome.view).toEqual({
			kind: 'recorded',
			recorded: 'Recorded your answer:',
			text: ' Ship it\nby Friday ',
		});
	});

	test.each([
		['empty', { text: '  \n ' }, 'The answer was empty. Open the link again.'],
		['missing', {}, 'The answer was empty. Open the link again.'],
		['not text', { text: ['a', 'b'] }, 'The answer was empty. Open the link again.'],
		[
			'too long',
			{ text: 'x'.repeat(10_001) },
			'The answer is longer than 10000 characters. Open the link again.',
		],
	])('a free-text answer %s is refused', (_, body, reason) => {
		expect(readAnswer(request('POST', {}, body), FREE_TEXT, NOW)).toEqual({
			status: 400,
			view: { kind: 'refused', reason },
		});
	});
});
