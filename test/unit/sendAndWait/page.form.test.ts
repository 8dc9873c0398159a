import { readForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import type { FormField } from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import { renderForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/page';

function form(values: unknown[]): FormField[] {
	const read = readForm('fields', '', values);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

const options = (...values: string[]) => ({ values: values.map((option) => ({ option })) });

describe("the Custom Form's fields on the page", () => {
	test('every input has a label tied to it; labels, options and defaults are escaped', () => {
		const html = renderForm(
			form([
				{
					fieldLabel: 'Name <b>',
					placeholder: 'e.g. "Anna"',
					defaultValue: '<x>',
					requiredField: true,
				},
				{ fieldLabel: 'Notes', fieldType: 'textarea', defaultValue: '</textarea><script>' },
				{
					fieldLabel: 'Pick',
					fieldType: 'dropdown',
					fieldOptions: options('a"b', 'c'),
					defaultValue: 'c',
				},
				{ fieldLabel: 'When', fieldType: 'date', defaultValue: '2026-12-24' },
			]),
			'Go',
		);
		expect(html).toContain(
			'<label for="field-0" class="required" dir="auto">Name &lt;b&gt;</label><input type="text" id="field-0" ' +
				'name="field-0" required value="&lt;x&gt;" placeholder="e.g. &quot;Anna&quot;" maxlength="10000">',
		);
		expect(html).toContain(
			'<textarea id="field-1" name="field-1" rows="4" maxlength="10000">&lt;/textarea&gt;&lt;script&gt;</textarea>',
		);
		expect(html).toContain(
			'<option value="a&quot;b" dir="auto">a&quot;b</option><option value="c" selected dir="auto">c</option>',
		);
		expect(html).toContain('<input type="date" id="field-3" name="field-3" value="2026-12-24">');
		expect(html).toMatch(/<button type="submit" class="primary" dir="auto">Go<\/button><\/form>$/);
	});

	test('checkboxes: a fieldset with a legend, one labelled box each, the defaults ticked', () => {
		const html = renderForm(
			form([
				{
					fieldLabel: 'Teams',
					fieldType: 'checkbox',
					fieldOptions: options('A', 'B'),
					defaultValue: 'B',
				},
			]),
			'Go',
		);
		expect(html).toContain(
			'<fieldset id="field-0"><legend class="" dir="auto">Teams</legend><div class="option">' +
				'<input type="checkbox" id="field-0-0" name="field-0" value="A">' +
				'<label for="field-0-0" dir="auto">A</label></div><div class="option">' +
				'<input type="checkbox" id="field-0-1" name="field-0" value="B" checked>' +
				'<label for="field-0-1" dir="auto">B</label>',
		);
	});

	test('shown again: what was entered, each message tied to its input, a password never sent back', () => {
		const html = renderForm(
			form([
				{ fieldLabel: 'Age', fieldType: 'number' },
				{ fieldLabel: 'PIN', fieldType: 'password' },
			]),
			'Go',
			[
				{ entered: 'ten', error: 'Enter a number.' },
				{ entered: 'secret', error: '' },
			],
		);
		expect(html).toContain(
			'<p class="error" id="field-0-error">Enter a number.</p><input type="text" id="field-0" name="field-0" ' +
				'aria-describedby="field-0-error" aria-invalid="true" value="ten" inputmode="decimal" pattern="',
		);
		expect(html).not.toContain('secret');
	});

	test('a hidden field has no input; its value is not on the page', () => {
		const html = renderForm(
			form([{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'crm-7' }]),
			'Go',
		);
		expect(html).toBe(
			'<form method="post" enctype="multipart/form-data">' +
				'<button type="submit" class="primary" dir="auto">Go</button></form>',
		);
	});
});
