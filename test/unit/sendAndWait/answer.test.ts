import { readAnswer } from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import type {
	AnswerConfig,
	AnswerRequest,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import { readAnswerConfig } from '../../../nodes/OmnichannelMessaging/sendAndWait/webhook';
import { ENGLISH } from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';

const NOW = new Date('2026-11-26T06:30:00.000Z');
const RESPONDED_AT = NOW.toISOString();

function config(parameters: Record<string, unknown>): AnswerConfig {
	const read = readAnswerConfig((name, fallback) => parameters[name] ?? fallback);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

const DOUBLE = config({
	'approvalOptions.values.approvalType': 'double',
	'approvalOptions.values.approveLabel': 'Yes',
	'approvalOptions.values.disapproveLabel': 'No',
});
const SINGLE = config({});
const FREE_TEXT = config({ responseType: 'freeText' });

const request = (method: string, query = {}, body = {}, multipart = false): AnswerRequest => ({
	method,
	query,
	body,
	multipart,
});

/** What Free Text's page posts: n8n's multipart `{ data, files }`, the text area as field-0. */
const freeTextPost = (text: unknown) =>
	request('POST', {}, { data: { 'field-0': text }, files: {} }, true);

describe('reading the configuration', () => {
	test("n8n's defaults: approval, Approve only, WhatsApp's labels", () => {
		expect(SINGLE).toEqual({
			kind: 'buttons',
			name: 'approved',
			buttons: [{ label: '✓ Approve', value: 'true', output: { approved: true }, primary: true }],
			page: { language: ENGLISH, buttonLabel: '', css: '' },
		});
	});

	test("an approval page takes the builder's words (title, description, ending), not the form's style", () => {
		const approval = config({
			'options.responseFormDescription': 'Refund 42 EUR?',
			'options.responseFormTitle': 'Refund',
			'options.completionTitle': 'Thanks',
			'options.completionMessage': 'We pay within a day.',
			'options.responseFormCustomCss': 'h1{color:red}',
		});
		expect(approval.page).toEqual({
			language: ENGLISH,
			title: 'Refund',
			description: 'Refund 42 EUR?',
			completionTitle: 'Thanks',
			completionMessage: 'We pay within a day.',
			buttonLabel: '',
			css: '',
		});
	});

	test.each([
		[
			'a response type this node does not know is refused, not guessed',
			'poll',
			'"poll" is not Approval, Choice, Free Text or Custom Form',
			'Response Type',
		],
		[
			'a Custom Form without fields is refused, naming the setting',
			'customForm',
			'the form has no fields: add at least one',
			'Form Elements',
		],
	])('%s', (_name, responseType, reason, field) => {
		expect(
			readAnswerConfig((name, fallback) => (name === 'responseType' ? responseType : fallback)),
		).toEqual({ ok: false, reason, field });
	});

	test("the form's page options, unset ones left out", () => {
		const options: Record<string, string> = {
			'options.responseFormTitle': 'Expense claim',
			'options.responseFormButtonLabel': 'Claim',
			'options.responseFormDescription': ' ',
			'options.responseFormCustomCss': 'h1{color:red}',
		};
		expect(config({ responseType: 'freeText', ...options }).page).toEqual({
			language: ENGLISH,
			title: 'Expense claim',
			buttonLabel: 'Claim',
			description: undefined,
			css: 'h1{color:red}',
		});
	});

	test('Free Text is a form of one required text area, its answer under "text"; its button says Send', () => {
		expect(FREE_TEXT).toMatchObject({
			kind: 'form',
			linkLabel: 'Respond',
			fields: [{ type: 'textarea', label: 'Your answer', key: 'text', required: true }],
			page: { buttonLabel: 'Send', css: '' },
		});
	});

	test('custom CSS over 20,000 characters is refused, naming the option', () => {
		const css = `a{color:red}${' '.repeat(20_000)}`;
		const read = readAnswerConfig((name, fallback) =>
			name === 'responseType'
				? 'freeText'
				: name === 'options.responseFormCustomCss'
					? css
					: fallback,
		);
		expect(read).toEqual({
			ok: false,
			reason: 'the CSS is longer than 20000 characters',
			field: 'Response Form Custom Styling',
		});
	});
});

describe('a GET never records', () => {
	test.each(['GET', 'HEAD', 'OPTIONS'])('%s shows the page and resumes nothing', (method) => {
		const outcome = readAnswer(request(method, { approved: 'true' }), DOUBLE, NOW);
		expect(outcome.data).toBeUndefined();
		expect(outcome.status).toBe(200);
	});

	const YES = { label: 'Yes', value: 'true', output: { approved: true }, primary: true };
	const NO = { label: 'No', value: 'false', output: { approved: false } };

	test('a link with a signed answer shows that button only', () => {
		expect(readAnswer(request('GET', { approved: 'false' }), DOUBLE, NOW).view).toEqual({
			kind: 'buttons',
			question: undefined,
			name: 'approved',
			buttons: [NO],
		});
	});

	test('a link without an answer (a template variable) shows every button, with the question', () => {
		expect(readAnswer(request('GET'), DOUBLE, NOW, 'Refund?').view).toEqual({
			kind: 'buttons',
			question: 'Refund?',
			name: 'approved',
			buttons: [YES, NO],
		});
	});

	test('a free-text link shows its form', () => {
		expect(readAnswer(request('GET'), FREE_TEXT, NOW).view).toEqual({
			kind: 'form',
			question: undefined,
			fields: FREE_TEXT.kind === 'form' ? FREE_TEXT.fields : [],
		});
	});
});

describe("the page's POST records n8n's output", () => {
	test.each([
		['true', true],
		['false', false],
	])('the answer %s from the form of a link without one', (approved, expected) => {
		const outcome = readAnswer(request('POST', {}, { approved }), DOUBLE, NOW);
		expect(outcome.data).toEqual({ approved: expected, respondedAt: RESPONDED_AT });
		expect(outcome.view).toEqual({
			kind: 'recorded',
			recorded: `Recorded: ${expected ? 'Yes' : 'No'}`,
		});
	});

	test("the link's signed answer wins over a form that says otherwise", () => {
		const outcome = readAnswer(
			request('POST', { approved: 'true' }, { approved: 'false' }),
			DOUBLE,
			NOW,
		);
		expect(outcome.data).toEqual({ approved: true, respondedAt: RESPONDED_AT });
	});

	test.each([
		['no answer', SINGLE, {}],
		['an answer that is no button', DOUBLE, { approved: 'maybe' }],
		['two answers', DOUBLE, { approved: ['true', 'false'] }],
		['Decline where only Approve is offered', SINGLE, { approved: 'false' }],
	])('%s records nothing: the buttons again, with the question', (_, answerConfig, body) => {
		const outcome = readAnswer(request('POST', {}, body), answerConfig, NOW, 'Refund?');
		expect(outcome).toEqual({
			status: 400,
			view: {
				kind: 'buttons',
				question: 'Refund?',
				name: 'approved',
				buttons: answerConfig.kind === 'buttons' ? answerConfig.buttons : [],
				alert: 'Nothing was recorded: tap one of the buttons below.',
			},
		});
	});

	test('free text: the text as typed, line ends as \\n', () => {
		const outcome = readAnswer(freeTextPost(' Ship it\r\nby Friday '), FREE_TEXT, NOW);
		expect(outcome.data).toEqual({ text: ' Ship it\nby Friday ', respondedAt: RESPONDED_AT });
		expect(outcome.view).toEqual({
			kind: 'recorded',
			recorded: 'Recorded your answer:',
			answers: [['Your answer', ' Ship it\nby Friday ']],
		});
	});

	test.each([
		['empty', '  \n ', 'Fill in this field.'],
		['missing', undefined, 'Fill in this field.'],
		['not text', { a: 1 }, 'Fill in this field.'],
		['two values', ['a', 'b'], 'Enter one value.'],
		['too long', 'x'.repeat(10_001), 'Shorten this to 10,000 characters or fewer.'],
	])(
		'a free-text answer %s is refused: the form again, its message on the field',
		(_, text, error) => {
			const outcome = readAnswer(freeTextPost(text), FREE_TEXT, NOW);
			expect(outcome.status).toBe(400);
			expect(outcome.data).toBeUndefined();
			expect(outcome.view).toMatchObject({ kind: 'form', states: [{ error }] });
		},
	);

	test('a page opened before Free Text was a form posts `text`: the form again, nothing recorded', () => {
		const outcome = readAnswer(request('POST', {}, { text: 'Ship it' }), FREE_TEXT, NOW);
		expect(outcome.status).toBe(400);
		expect(outcome.data).toBeUndefined();
		expect(outcome.view).toMatchObject({
			kind: 'form',
			alert: 'Nothing was recorded: answer with the form on this page.',
		});
	});
});
