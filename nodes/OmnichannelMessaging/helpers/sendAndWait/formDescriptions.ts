import type { INodeProperties } from 'n8n-workflow';

import { FIELD_VALUES, stringField } from './formElements';

/*
 * Custom Form's own parameters, as n8n's send-and-wait nodes have them: Define Form, the JSON or
 * the Form Elements (formElements.ts), and the answer page's options.
 */

const JSON_EXAMPLE = JSON.stringify(
	[
		{ fieldLabel: 'Name', requiredField: true },
		{ fieldLabel: 'Amount', fieldType: 'number' },
	],
	null,
	2,
);

const DEFINE_FORM: INodeProperties = {
	displayName: 'Define Form',
	name: 'defineForm',
	type: 'options',
	description:
		'Whether to list the fields below, or give them as JSON (an expression can build it)',
	noDataExpression: true,
	options: [
		{ name: 'Using Fields Below', value: 'fields' },
		{ name: 'Using JSON', value: 'json' },
	],
	default: 'fields',
};

/** Define Form, the JSON and the fields, shown for Custom Form (n8n's formFieldsProperties). */
export function customFormFields(displayOptions: INodeProperties['displayOptions']) {
	const showFor = (extra: Record<string, string[]>) => ({
		show: { ...displayOptions?.show, responseType: ['customForm'], ...extra },
	});
	return [
		{ ...DEFINE_FORM, displayOptions: showFor({}) },
		{
			displayName: 'Form Fields',
			name: 'jsonOutput',
			type: 'json',
			typeOptions: { rows: 5 },
			default: JSON_EXAMPLE,
			description:
				"An array of fields with the Form node's keys: fieldLabel, fieldType, requiredField, " +
				'fieldOptions, …',
			displayOptions: showFor({ defineForm: ['json'] }),
		},
		{
			displayName: 'Form Elements',
			name: 'formFields',
			placeholder: 'Add Form Element',
			type: 'fixedCollection',
			default: {},
			typeOptions: { multipleValues: true, sortable: true },
			options: [{ displayName: 'Values', name: 'values', values: FIELD_VALUES }],
			displayOptions: showFor({ defineForm: ['fields'] }),
		},
	] as INodeProperties[];
}

const FORM_TYPES = { show: { '/responseType': ['freeText', 'customForm'] } };

/** The answer page's words and style, for Free Text and Custom Form (n8n's names). */
export const FORM_PAGE_OPTIONS: INodeProperties[] = [
	stringField(
		['Response Form Title', 'responseFormTitle', 'The title of the page the link opens'],
		FORM_TYPES,
	),
	stringField(
		[
			'Response Form Description',
			'responseFormDescription',
			'The text above the form on the page; the message when empty',
		],
		FORM_TYPES,
	),
	stringField(
		[
			'Response Form Button Label',
			'responseFormButtonLabel',
			'The label of the button that sends the answer',
		],
		FORM_TYPES,
		{
			default: 'Submit',
		},
	),
	stringField(
		[
			'Response Form Custom Styling',
			'responseFormCustomCss',
			'CSS that restyles the page. It cannot load anything: url(), @import and the like are removed.',
		],
		FORM_TYPES,
		{ typeOptions: { rows: 10, editor: 'cssEditor' }, placeholder: 'e.g. h1 { color: #0a7d32; }' },
	),
];
