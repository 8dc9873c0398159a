import { readForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import type { FormField } from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import {
	calendarDate,
	decimalNumber,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import { testEachReturns } from '../../helpers/table';

const fields = (values: unknown[]): FormField[] => {
	const form = readForm('fields', '', values);
	if (!form.ok) throw new Error(form.reason);
	return form.value;
};

const problem = (values: unknown[]) => {
	const form = readForm('fields', '', values);
	return form.ok ? undefined : form.reason;
};

const options = (...values: string[]) => ({ values: values.map((option) => ({ option })) });

describe("a Custom Form's definition", () => {
	test("n8n's defaults: a text field, optional, keyed by its label", () => {
		expect(fields([{ fieldLabel: ' Name ' }])[0]).toMatchObject({
			type: 'text',
			label: 'Name',
			key: 'Name',
			required: false,
			multiple: false,
		});
	});

	test('a hidden field is keyed by its Field Name; Custom HTML by its Element Name, or not at all', () => {
		const [hidden, html, anonymous] = fields([
			{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'crm' },
			{ fieldType: 'html', elementName: 'terms', html: '<b>Terms</b>', requiredField: true },
			{ fieldType: 'html', html: '<i>x</i>' },
		]);
		expect(hidden).toMatchObject({ key: 'source', value: 'crm' });
		expect(html).toMatchObject({ key: 'terms', html: '<b>Terms</b>', required: false });
		expect(anonymous.key).toBeUndefined();
	});

	test('selection limits: exact, a range capped at the options, required meaning at least one', () => {
		const [exact, range, required] = fields([
			{
				fieldLabel: 'A',
				fieldType: 'checkbox',
				fieldOptions: options('x', 'y'),
				limitSelection: 'exact',
				numberOfSelections: 2,
			},
			{
				fieldLabel: 'B',
				fieldType: 'checkbox',
				fieldOptions: options('x', 'y'),
				limitSelection: 'range',
				minSelections: 0,
				maxSelections: 5,
			},
			{ fieldLabel: 'C', fieldType: 'checkbox', fieldOptions: options('x'), requiredField: true },
		]);
		expect([exact.minSelections, exact.maxSelections]).toEqual([2, 2]);
		expect([range.minSelections, range.maxSelections]).toEqual([0, 2]);
		expect([required.minSelections, required.maxSelections]).toEqual([1, Infinity]);
	});

	test('JSON options may be a bare array, as n8n-workflow accepts; file types are kept in lower case', () => {
		const form = readForm(
			'json',
			JSON.stringify([
				{
					fieldLabel: 'Pick',
					fieldType: 'radio',
					fieldOptions: [{ option: 'a' }, { option: 'b' }],
				},
				{
					fieldLabel: 'Scan',
					fieldType: 'file',
					acceptFileTypes: '.PDF, image/*',
					multipleFiles: false,
				},
			]),
			undefined,
		);
		expect(
			form.ok && form.value.map((field) => [field.options, field.accept, field.multiple]),
		).toEqual([
			[['a', 'b'], [], false],
			[[], ['.pdf', 'image/*'], false],
		]);
	});

	test('an array an expression gave is taken as it is', () => {
		const form = readForm('json', [{ fieldLabel: 'Name' }], undefined);
		expect(form.ok && form.value[0].key).toBe('Name');
	});

	testEachReturns('%j is refused: %s', problem, [
		[
			[{ fieldLabel: 'R', fieldType: 'radio', fieldOptions: options('a', '') }],
			'field 1 ("R"): option 2 is empty',
		],
		[
			[{ fieldLabel: 'R', fieldType: 'radio', fieldOptions: options('a', 'a') }],
			'field 1 ("R"): two options are the same',
		],
		[
			[{ fieldLabel: 'R', fieldType: 'dropdown', fieldOptions: options('a'), defaultValue: 'b' }],
			'field 1 ("R"): a default value is not one of the options',
		],
		[
			[
				{
					fieldLabel: 'C',
					fieldType: 'checkbox',
					fieldOptions: options('a', 'b'),
					defaultValue: 'a, c',
				},
			],
			'field 1 ("C"): a default value is not one of the options',
		],
		[
			[
				{
					fieldLabel: 'C',
					fieldType: 'checkbox',
					fieldOptions: options('a'),
					limitSelection: 'range',
					minSelections: 2,
					maxSelections: 1,
				},
			],
			'field 1 ("C"): the selection range 2–1 cannot be met with 1 checkboxes',
		],
		[
			[
				{
					fieldLabel: 'C',
					fieldType: 'checkbox',
					fieldOptions: options('a'),
					limitSelection: 'some',
				},
			],
			'field 1 ("C"): Limit Selection "some" is not exact, range or unlimited',
		],
		[
			[{ fieldLabel: 'N', fieldType: 'number', defaultValue: 'ten' }],
			'field 1 ("N"): the default value is not a number',
		],
		[
			[{ fieldLabel: 'D', fieldType: 'date', defaultValue: '31/12/2026' }],
			'field 1 ("D"): the default value is not a date (YYYY-MM-DD)',
		],
		[
			[{ fieldLabel: 'F', fieldType: 'file', acceptFileTypes: 'pdf' }],
			'field 1 ("F"): "pdf" is not a file type: use e.g. .pdf, .png',
		],
		[[{ fieldLabel: 'A' }, 'text'], 'field 2 is not an object'],
		[
			[{ fieldType: 'html', html: 'x'.repeat(50_001) }],
			'field 1: its HTML is longer than 50000 characters',
		],
		[
			[{ fieldLabel: '__proto__' }],
			'field 1 ("__proto__"): __proto__ cannot name an answer; use another label',
		],
		[
			[{ fieldType: 'hiddenField', fieldName: 'constructor' }],
			'field 1 ("constructor"): constructor cannot name an answer; use another label',
		],
		[
			[{ fieldType: 'html', elementName: 'prototype' }],
			'field 1: prototype cannot name an answer; use another label',
		],
		[
			[
				{ fieldLabel: 'Фото', fieldType: 'file' },
				{ fieldLabel: 'Скан', fieldType: 'file' },
			],
			'field 2 ("Скан"): its files\' binary property (____) could be field 1\'s; change one label',
		],
		[
			[
				{ fieldLabel: 'A b', fieldType: 'file', multipleFiles: false },
				{ fieldLabel: 'A_b', fieldType: 'file', multipleFiles: false },
			],
			'field 2 ("A_b"): its files\' binary property (A_b) could be field 1\'s; change one label',
		],
		[
			[
				{ fieldLabel: 'Receipt_0', fieldType: 'file', multipleFiles: false },
				{ fieldLabel: 'Receipt', fieldType: 'file' },
			],
			'field 2 ("Receipt"): its files\' binary property (Receipt) could be field 1\'s; change one label',
		],
	]);

	test('a file field takes several files by default in the editor, in JSON only when asked, as in n8n', () => {
		const file = { fieldLabel: 'F', fieldType: 'file' };
		const json = (value: unknown[]) => readForm('json', JSON.stringify(value), undefined);
		expect(fields([file])[0].multiple).toBe(true);
		expect(json([file])).toMatchObject({ value: [{ multiple: false }] });
		expect(json([{ ...file, multipleFiles: true }])).toMatchObject({
			value: [{ multiple: true }],
		});
	});

	test("the editor's date-time default becomes the day", () => {
		expect(
			fields([{ fieldLabel: 'D', fieldType: 'date', defaultValue: '2026-12-31T00:00:00' }])[0]
				.defaultValue,
		).toBe('2026-12-31');
	});
});

describe('calendarDate', () => {
	testEachReturns('%s → %s', calendarDate, [
		['2026-02-28', '2026-02-28'],
		['2028-02-29', '2028-02-29'],
		['2026-02-29', undefined],
		['2026-13-01', undefined],
		['26-01-01', undefined],
		['', undefined],
		['2024-01-01Tjunk<>', undefined],
		['2024-01-01T10:00', undefined],
		// Typed in a text field with Arabic-Indic, Urdu or Devanagari digits (a date picker sends 0-9).
		['٢٠٢٦-١٢-٠٦', '2026-12-06'],
		['۲۰۲۶-۱۲-۰۶', '2026-12-06'],
		['२०२६-१२-०६', '2026-12-06'],
		['٢٠٢٦-٠٢-٣٠', undefined],
	]);

	test("a default value may be the editor's date-time, nothing else after the day", () => {
		expect(calendarDate('2026-12-31T00:00:00.000+01:00', true)).toBe('2026-12-31');
		expect(calendarDate('2026-12-31Tjunk', true)).toBeUndefined();
	});
});

describe('decimalNumber', () => {
	testEachReturns('%j → %s', decimalNumber, [
		[' 42.5 ', 42.5],
		['-1.5', -1.5],
		['.5', 0.5],
		['2e3', 2000],
		['0x10', undefined],
		['0b11', undefined],
		['0o7', undefined],
		['Infinity', undefined],
		['1e400', undefined],
		['', undefined],
		// As a customer types it on an Arabic, Persian or Urdu, or Hindi keyboard.
		['٣', 3],
		['٣٫٥', 3.5],
		['۱۲', 12],
		['१२', 12],
		['१२.५', 12.5],
		['-٣٫٥', -3.5],
		['−٣', -3],
		// As Intl writes a negative number for ar-EG, a letter mark before the minus.
		['\u061c-٣٫٥', -3.5],
		['١٬٢٥٠', 1250],
		['١٬٢٥٠٫٥', 1250.5],
		['١٢٬٣٤٥٬٦٧٨', 12345678],
		['١٬٢٥', undefined],
		['١٢٣٤٬٥٦٧', undefined],
		['٬١٢٣', undefined],
		['١٬٢٥٠٬', undefined],
		['٣٫٥٫٥', undefined],
		['٣,٥', undefined],
		['1,250', undefined],
	]);
});
