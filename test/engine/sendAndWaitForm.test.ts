import type { INodeParameters } from 'n8n-workflow';

import { useSendAndWait, waitingMessage, waitingTemplate } from '../helpers/fixtures';

const {
	service,
	run,
	waiting: WAITING,
	expectAsksWithLink,
} = useSendAndWait('exec-form', 'send-and-wait-form-secret');

const FIELDS = {
	values: [
		{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
		{
			fieldLabel: 'Reason',
			fieldType: 'dropdown',
			fieldOptions: { values: [{ option: 'Travel' }, { option: 'Meals' }] },
		},
	],
};

const ask = waitingMessage('Your expense claim, please', {
	responseType: 'customForm',
	formFields: FIELDS,
});

describe('Send and Wait for Response → Custom Form', () => {
	test('the message carries one signed link to the form, under Message Button Label; then it waits', async () => {
		await expectAsksWithLink(
			ask({ options: { messageButtonLabel: 'Fill in the claim' } }),
			'Your expense claim, please',
			'Fill in the claim',
		);
	});

	test('a form defined in JSON, from an expression, is checked and sent as well', async () => {
		const jsonOutput = '={{ JSON.stringify($json.fields) }}';
		const fields = [{ fieldLabel: 'Name', requiredField: true }, { fieldLabel: 'Notes' }];
		const result = await run(ask({ defineForm: 'json', jsonOutput }), [{ fields }] as never);
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
	});

	test('WhatsApp Template: the form link goes into the Link Variable', async () => {
		const result = await run(waitingTemplate({ responseType: 'customForm', formFields: FIELDS }));
		expect(result.error).toBeUndefined();
		const posts = service.fake.sends('/whatsapp/send-template-message');
		expect(posts[0].body.attributes['3']).toMatch(
			new RegExp(`^${WAITING}\\?signature=[0-9a-f]{64}$`),
		);
		expect(result.run.status).toBe('waiting');
	});

	const dropdown = (options: string[]) => ({
		fieldLabel: 'Reason',
		fieldType: 'dropdown',
		fieldOptions: { values: options.map((option) => ({ option })) },
	});

	test.each([
		[
			'JSON that does not parse',
			{ defineForm: 'json', jsonOutput: '[{ "fieldLabel": "Name", }]' },
			/^Form Fields: the JSON is not valid at position \d+$/,
		],
		[
			// The parser's own message would quote it: the node's never does.
			'JSON that is a phone number and more',
			{ defineForm: 'json', jsonOutput: '+447700900123 [' },
			/^Form Fields: the JSON is not valid$/,
		],
		[
			'JSON that is not an array',
			{ defineForm: 'json', jsonOutput: '{ "fieldLabel": "Name" }' },
			/^Form Fields: the JSON must be an array of fields$/,
		],
		[
			'a key the Form node does not know',
			{ defineForm: 'json', jsonOutput: '[{ "fieldLabel": "Name", "colour": "red" }]' },
			/^Form Fields: field 1 \("Name"\): "colour" is not a form field key$/,
		],
		[
			'a dropdown without options',
			{ formFields: { values: [{ fieldLabel: 'A' }, dropdown([])] } },
			/^Form Elements: field 2 \("Reason"\): it has no options$/,
		],
		[
			'two fields with one label',
			{ formFields: { values: [{ fieldLabel: 'Name' }, { fieldLabel: 'Name' }] } },
			/^Form Elements: field 2 \("Name"\): field 1 has the same label/,
		],
		[
			'a hidden field without a name',
			{ formFields: { values: [{ fieldType: 'hiddenField', fieldValue: 'x' }] } },
			/^Form Elements: field 1: a hidden field needs a Field Name$/,
		],
		[
			'a label an expression left empty',
			{ formFields: { values: [{ fieldType: 'email', fieldLabel: '={{ $json.none }}' }] } },
			/^Form Elements: field 1: it has no label$/,
		],
		[
			'an unknown field type',
			{ formFields: { values: [{ fieldLabel: 'When', fieldType: 'time' }] } },
			/^Form Elements: field 1 \("When"\): "time" is not a field type/,
		],
		[
			'a label that would overwrite respondedAt',
			{ formFields: { values: [{ fieldLabel: 'respondedAt' }] } },
			/^Form Elements: field 1 \("respondedAt"\): respondedAt is the time of the answer/,
		],
		[
			'more selections than checkboxes',
			{
				formFields: {
					values: [
						{
							...dropdown(['A', 'B']),
							fieldType: 'checkbox',
							limitSelection: 'exact',
							numberOfSelections: 3,
						},
					],
				},
			},
			/^Form Elements: field 1 \("Reason"\): Number of Selections must be between 1 and the 2/,
		],
		[
			'no fields at all',
			{ formFields: {} },
			/^Form Elements: the form has no fields: add at least one$/,
		],
		[
			// Files kept under __proto__ would be lost: Object.prototype's names are no binary property.
			'a file label whose binary property would be __proto__',
			{ formFields: { values: [{ fieldLabel: '--proto--', fieldType: 'file' }] } },
			/^Form Elements: field 1 \("--proto--"\): its files' binary property \(__proto__\) cannot be named so/,
		],
		[
			'custom CSS longer than 20,000 characters',
			{ options: { responseFormCustomCss: `h1{color:red}${' '.repeat(20_000)}` } },
			/^Response Form Custom Styling: the CSS is longer than 20000 characters$/,
		],
	])('%s stops the node before anything is sent, naming the field', async (_, extra, message) => {
		const result = await run(ask(extra as INodeParameters));
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toBe(
			`Change ${String(result.error?.message).split(':')[0]} in the node. Nothing was sent.`,
		);
		expect(service.fake.requests).toHaveLength(0);
		expect(result.run.status).not.toBe('waiting');
	});
});
