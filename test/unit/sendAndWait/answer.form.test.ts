import { readForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import type { FormField } from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import { readFormAnswer } from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';

function form(values: unknown[]): FormField[] {
	const read = readForm('fields', '', values);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

const options = (...values: string[]) => ({ values: values.map((option) => ({ option })) });
const file = (originalFilename: string, mimetype: string, size = 10) => ({
	filepath: `/tmp/${originalFilename}`,
	originalFilename,
	mimetype,
	size,
});

describe('reading a Custom Form answer', () => {
	test('optional fields left empty: text as empty text, a number, date or choice as null, checkboxes as []', () => {
		const fields = form([
			{ fieldLabel: 'Text' },
			{ fieldLabel: 'Notes', fieldType: 'textarea' },
			{ fieldLabel: 'Number', fieldType: 'number' },
			{ fieldLabel: 'Date', fieldType: 'date' },
			{ fieldLabel: 'Pick', fieldType: 'dropdown', fieldOptions: options('a') },
			{ fieldLabel: 'Radio', fieldType: 'radio', fieldOptions: options('a') },
			{ fieldLabel: 'Boxes', fieldType: 'checkbox', fieldOptions: options('a') },
		]);
		const answer = readFormAnswer(fields, { data: { 'field-0': '', 'field-4': '' }, files: {} });
		expect(answer).toEqual({
			ok: true,
			json: { Text: '', Notes: '', Number: null, Date: null, Pick: null, Radio: null, Boxes: [] },
			uploads: [],
		});
	});

	test('a text area keeps its lines; one checkbox picked is still an array; a multiple dropdown too', () => {
		const fields = form([
			{ fieldLabel: 'Notes', fieldType: 'textarea' },
			{ fieldLabel: 'Boxes', fieldType: 'checkbox', fieldOptions: options('a', 'b') },
			{
				fieldLabel: 'Many',
				fieldType: 'dropdown',
				multiselect: true,
				fieldOptions: options('a', 'b'),
			},
		]);
		const answer = readFormAnswer(fields, {
			data: { 'field-0': 'one\r\ntwo', 'field-1': 'b', 'field-2': ['a', 'b'] },
		});
		expect(answer.ok && answer.json).toEqual({ Notes: 'one\ntwo', Boxes: ['b'], Many: ['a', 'b'] });
	});

	test('a refused answer is shown again capped: text at 10,000 characters, only options offered', () => {
		const fields = form([
			{ fieldLabel: 'Notes', fieldType: 'textarea' },
			{ fieldLabel: 'Boxes', fieldType: 'checkbox', fieldOptions: options('a', 'b') },
		]);
		const answer = readFormAnswer(fields, {
			data: { 'field-0': 'x'.repeat(20_000), 'field-1': ['b', ...Array(5000).fill('zz')] },
		});
		expect(answer.ok).toBe(false);
		expect(!answer.ok && answer.entered).toEqual(['x'.repeat(10_000), ['b']]);
	});

	test("only n8n's multipart `{ data, files }` is read: a flat body's fields are not", () => {
		const answer = readFormAnswer(form([{ fieldLabel: 'Age', fieldType: 'number' }]), {
			'field-0': '7',
		});
		expect(answer.ok && answer.json).toEqual({ Age: null });
	});

	test('files: accepted by extension or media type; an empty file input (n8n 1.x) is no file', () => {
		const fields = form([
			{ fieldLabel: 'Photo', fieldType: 'file', acceptFileTypes: 'image/*', multipleFiles: false },
			{ fieldLabel: 'Other', fieldType: 'file' },
		]);
		const answer = readFormAnswer(fields, {
			data: { 'form-end': '1' },
			files: {
				'field-0': file('me.JPG', 'image/jpeg'),
				'field-1': file('', 'application/octet-stream', 0),
			},
		});
		expect(answer.ok && answer.json).toEqual({
			Photo: { filename: 'me.JPG', mimetype: 'image/jpeg', size: 10 },
			Other: null,
		});
		expect(answer.ok && answer.uploads.map((upload) => upload.property)).toEqual(['Photo']);
	});

	test.each([
		[
			{ fieldType: 'file', multipleFiles: false },
			[file('a.pdf', 'application/pdf'), file('b.pdf', 'application/pdf')],
			'Choose one file only.',
		],
		[{ fieldType: 'file', requiredField: true }, [], 'Choose a file.'],
		[
			{ fieldType: 'file', acceptFileTypes: '.pdf' },
			[file('a.pdf.exe', 'application/pdf')],
			'Choose a file of these types: .pdf.',
		],
		[
			{ fieldType: 'file', acceptFileTypes: 'application/pdf' },
			[file('a.pdf', 'text/plain')],
			'Choose a file of these types: application/pdf.',
		],
		[
			{ fieldType: 'file', acceptFileTypes: '.pdf, image/*, .docx' },
			[file('a.txt', 'text/plain')],
			'Choose a file of these types: .pdf, image/*, .docx.',
		],
	])('%j with %j: %s', (definition, files, message) => {
		const fields = form([{ fieldLabel: 'F', ...definition }]);
		const answer = readFormAnswer(fields, {
			data: { 'form-end': '1' },
			files: { 'field-0': files },
		});
		expect(answer.ok ? undefined : answer.errors).toEqual([message]);
	});

	test.each([
		[
			{
				fieldType: 'checkbox',
				fieldOptions: options('a', 'b'),
				limitSelection: 'exact',
				numberOfSelections: 2,
			},
			['a'],
			'Choose exactly 2.',
		],
		[
			{ fieldType: 'checkbox', fieldOptions: options('a', 'b'), requiredField: true },
			[],
			'Choose at least 1.',
		],
		[
			{
				fieldType: 'checkbox',
				fieldOptions: options('a', 'b', 'c'),
				limitSelection: 'range',
				minSelections: 0,
				maxSelections: 2,
			},
			['a', 'b', 'c'],
			'Choose at most 2.',
		],
		[
			{
				fieldType: 'checkbox',
				fieldOptions: options('a', 'b', 'c'),
				limitSelection: 'range',
				minSelections: 1,
				maxSelections: 2,
			},
			['a', 'b', 'c'],
			'Choose between 1 and 2.',
		],
		[
			{ fieldType: 'checkbox', fieldOptions: options('a', 'b') },
			['a', 'a'],
			'Choose each option once.',
		],
		[
			{ fieldType: 'dropdown', fieldOptions: options('a', 'b'), requiredField: true },
			[''],
			'Choose an option.',
		],
		[
			{ fieldType: 'radio', fieldOptions: options('a'), requiredField: true },
			[],
			'Choose an option.',
		],
		[{ fieldType: 'text' }, ['a', 'b'], 'Enter one value.'],
		[{ fieldType: 'text', requiredField: true }, ['   '], 'Fill in this field.'],
		[{ fieldType: 'number' }, ['1e400'], 'Enter a number.'],
		[{ fieldType: 'number' }, ['0x10'], 'Enter a number.'],
		[{ fieldType: 'text' }, ['x'.repeat(10_001)], 'Shorten this to 10,000 characters or fewer.'],
	])('%j with %j: %s', (definition, given, message) => {
		const fields = form([{ fieldLabel: 'F', ...definition }]);
		const answer = readFormAnswer(fields, { data: { 'field-0': given } });
		expect(answer.ok ? undefined : answer.errors).toEqual([message]);
	});

	test('a hidden value and Custom HTML come from the node, whatever the page posts', () => {
		const fields = form([
			{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'crm' },
			{ fieldType: 'html', elementName: 'terms', html: '<b>Terms</b>' },
		]);
		const answer = readFormAnswer(fields, { data: { 'field-0': 'forged', 'field-1': '<script>' } });
		expect(answer.ok && answer.json).toEqual({ source: 'crm', terms: '<b>Terms</b>' });
	});
});
