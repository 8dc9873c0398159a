import type { INodeProperties } from 'n8n-workflow';

import { MAX_FILE_MB } from './formValues';

/*
 * A form element's parameters, with the names and values of n8n's Form node (n8n-nodes-base 2.41.1,
 * nodes/Form/common.descriptions and Form.node's formFieldsProperties), so that a form built for
 * n8n's own send-and-wait nodes, or written by n8n's AI builder, works here unchanged. Where the
 * page here behaves differently from n8n's form, a notice says so in the editor.
 */

const show = (fieldType: string[]) => ({ show: { fieldType } });
const hide = (fieldType: string[]) => ({ hide: { fieldType } });

/** n8n's element types, sorted by name as its Form node lists them. */
const ELEMENT_TYPES = Object.entries({
	Checkboxes: 'checkbox',
	'Custom HTML': 'html',
	Date: 'date',
	Dropdown: 'dropdown',
	Email: 'email',
	File: 'file',
	'Hidden Field': 'hiddenField',
	Number: 'number',
	Password: 'password',
	'Radio Buttons': 'radio',
	'Text Input': 'text',
	Textarea: 'textarea',
}).map(([name, value]) => ({ name, value }));

/** One list of options (dropdown, checkboxes or radio buttons): n8n's `fieldOptions.values[].option`. */
function optionList(displayName: string, label: string, fieldType: string): INodeProperties {
	return {
		displayName,
		name: 'fieldOptions',
		placeholder: `Add ${label}`,
		type: 'fixedCollection',
		default: { values: [{ option: '' }] },
		required: true,
		displayOptions: show([fieldType]),
		typeOptions: { multipleValues: true, sortable: true },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: label,
						name: 'option',
						type: 'string',
						default: '',
						description: 'What the page shows, and what the answer holds when it is picked',
					},
				],
			},
		],
	};
}

function count(
	[displayName, name, description]: [string, string, string],
	fallback: number,
	min: number,
	limit: string,
) {
	return {
		displayName,
		name,
		description,
		type: 'number',
		default: fallback,
		typeOptions: { numberPrecision: 0, minValue: min },
		displayOptions: { show: { fieldType: ['checkbox'], limitSelection: [limit] } },
	} as INodeProperties;
}

/** A string parameter, shown or hidden by element type (or as `displayOptions` says). */
export function stringField(
	[displayName, name, description]: [string, string, string],
	displayOptions: INodeProperties['displayOptions'],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', description, displayOptions, ...extra };
}

const notice = (displayName: string, name: string, fieldType: string): INodeProperties => ({
	displayName,
	name,
	type: 'notice',
	default: '',
	displayOptions: show([fieldType]),
});

/** n8n's four Default Value parameters, one per kind of field. */
const DEFAULT_VALUES: Array<[string, string[], Partial<INodeProperties>?]> = [
	[
		'Default value that will be pre-filled in the form field',
		['text', 'number', 'email', 'textarea'],
	],
	[
		'Default date that will be pre-filled (format: YYYY-MM-DD)',
		['date'],
		{ type: 'dateTime', typeOptions: { dateOnly: true } },
	],
	[
		'Default value that will be pre-selected. Must match one of the option labels.',
		['dropdown', 'radio'],
	],
	[
		'Default value(s) that will be pre-selected. Must match one or multiple of the option labels. ' +
			'Separate multiple pre-selected options with a comma.',
		['checkbox'],
	],
];

/** The parameters of one form element (n8n's formFields.values[]). */
export const FIELD_VALUES: INodeProperties[] = [
	stringField(
		['Label', 'fieldLabel', 'Label that appears above the input field, and the key of the answer'],
		hide(['hiddenField', 'html']),
		{ placeholder: 'e.g. What is your name?', required: true },
	),
	stringField(
		['Field Name', 'fieldName', 'The key of the hidden value in the output'],
		show(['hiddenField']),
	),
	{
		displayName: 'Element Type',
		name: 'fieldType',
		type: 'options',
		default: 'text',
		description: 'The type of field to add to the form',
		options: ELEMENT_TYPES,
		required: true,
	},
	stringField(
		[
			'Element Name',
			'elementName',
			'Optional field. It can be used to include the html in the output.',
		],
		show(['html']),
		{ placeholder: 'e.g. content-section' },
	),
	stringField(
		['Placeholder', 'placeholder', 'Sample text to display inside the field'],
		hide(['dropdown', 'date', 'file', 'html', 'hiddenField', 'radio', 'checkbox']),
	),
	...DEFAULT_VALUES.map(([description, fieldTypes, extra]) =>
		stringField(['Default Value', 'defaultValue', description], show(fieldTypes), extra),
	),
	stringField(
		[
			'Field Value',
			'fieldValue',
			'The value the output gets under the field name. It stays on the server: the page does ' +
				'not hold it, and the person cannot change it.',
		],
		show(['hiddenField']),
	),
	optionList('Field Options', 'Option', 'dropdown'),
	optionList('Checkboxes', 'Checkbox Label', 'checkbox'),
	optionList('Radio Buttons', 'Radio Button Label', 'radio'),
	{
		displayName: 'Limit Selection',
		name: 'limitSelection',
		type: 'options',
		default: 'unlimited',
		description: 'How many boxes the person may tick; the page refuses an answer outside it',
		options: [
			{ name: 'Exact Number', value: 'exact' },
			{ name: 'Range', value: 'range' },
			{ name: 'Unlimited', value: 'unlimited' },
		],
		displayOptions: show(['checkbox']),
	},
	count(
		['Number of Selections', 'numberOfSelections', 'How many boxes must be ticked'],
		1,
		1,
		'exact',
	),
	count(['Minimum Selections', 'minSelections', 'The fewest boxes to tick'], 0, 0, 'range'),
	count(['Maximum Selections', 'maxSelections', 'The most boxes to tick'], 1, 1, 'range'),
	stringField(['HTML', 'html', 'HTML elements to display on the form page'], show(['html']), {
		typeOptions: { editor: 'htmlEditor' },
		noDataExpression: true,
		default: '<!-- Your custom HTML here --->\n\n\n',
		hint:
			'Text formatting only: headings, paragraphs, lists, tables, bold, italic, code. Links, ' +
			'images, frames, scripts, styles and inputs are removed.',
	}),
	{
		displayName: 'Multiple Files',
		name: 'multipleFiles',
		type: 'boolean',
		default: true,
		description:
			'Whether to allow the user to select multiple files from the file input or just one',
		displayOptions: show(['file']),
	},
	stringField(
		['Accepted File Types', 'acceptFileTypes', 'Comma-separated list of allowed file extensions'],
		show(['file']),
		{ hint: 'Leave empty to allow all file types', placeholder: 'e.g. .jpg, .png' },
	),
	notice(
		`Each file can be up to ${MAX_FILE_MB} MB; files come out as binary properties named after the label`,
		'fileNotice',
		'file',
	),
	notice('The answer comes out as YYYY-MM-DD', 'dateNotice', 'date'),
	{
		displayName: 'Required Field',
		name: 'requiredField',
		type: 'boolean',
		default: false,
		description:
			'Whether to require the user to enter a value for this field before submitting the form',
		displayOptions: hide(['html', 'hiddenField']),
	},
];
