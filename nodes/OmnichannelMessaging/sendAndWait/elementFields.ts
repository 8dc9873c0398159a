import type { INodeProperties } from 'n8n-workflow';

import { optionsField, shownWhen } from '../helpers/displayOptions';

import type { Conditions } from '../helpers/displayOptions';
import { FIELD_KINDS, FIELD_TYPES, MAX_FILE_MB, kindOf, typesWhere } from './formFields';
import type { DefaultKind, FieldType } from './formFields';

/*
 * A form element's parameters in the editor, with the names and values of n8n's Form node (its
 * common descriptions and formFieldsProperties), so that a form built for n8n's own send-and-wait
 * nodes, or written by n8n's AI builder, works here unchanged. Which element types show which
 * parameter comes from the one list of types (formFields.ts). Where the page here behaves
 * differently from n8n's form, a notice says so in the editor.
 */

const forTypes = (fieldType: FieldType[], extra: Conditions = {}) =>
	shownWhen({ fieldType }, extra);

/**
 * Shown for every type but these: a type the node does not know (JSON, an old workflow) keeps its
 * label, so that the refusal can name the field.
 */
const exceptTypes = (fieldType: FieldType[]): INodeProperties['displayOptions'] => ({
	hide: { fieldType },
});

/** A string parameter, shown as `displayOptions` says. */
export function stringField(
	[displayName, name, description]: [string, string, string],
	displayOptions: INodeProperties['displayOptions'],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', description, displayOptions, ...extra };
}

/** The options list of a type picked from (n8n's `fieldOptions.values[].option`), named as n8n does. */
const OPTION_LISTS: Partial<Record<FieldType, [string, string]>> = {
	dropdown: ['Field Options', 'Option'],
	checkbox: ['Checkboxes', 'Checkbox Label'],
	radio: ['Radio Buttons', 'Radio Button Label'],
};

function optionList(fieldType: FieldType): INodeProperties {
	const [displayName, label] = OPTION_LISTS[fieldType] ?? ['Options', 'Option'];
	return {
		displayName,
		name: 'fieldOptions',
		placeholder: `Add ${label}`,
		type: 'fixedCollection',
		default: { values: [{ option: '' }] },
		required: true,
		displayOptions: forTypes([fieldType]),
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
	limit: string,
) {
	return {
		displayName,
		name,
		description,
		type: 'number',
		default: fallback,
		typeOptions: { numberPrecision: 0, minValue: Math.min(fallback, 1) },
		displayOptions: forTypes(['checkbox'], { limitSelection: [limit] }),
	} as INodeProperties;
}

const notice = (displayName: string, name: string, fieldType: FieldType): INodeProperties => ({
	displayName,
	name,
	type: 'notice',
	default: '',
	displayOptions: forTypes([fieldType]),
});

/** n8n's four Default Value parameters, one per kind of default. */
const DEFAULT_VALUES: Array<[DefaultKind, string, Partial<INodeProperties>?]> = [
	['text', 'Default value that will be pre-filled in the form field'],
	[
		'date',
		'Default date that will be pre-filled (format: YYYY-MM-DD)',
		{ type: 'dateTime', typeOptions: { dateOnly: true } },
	],
	['option', 'Default value that will be pre-selected. Must match one of the option labels.'],
	[
		'checkbox',
		'Default value(s) that will be pre-selected. Must match one or multiple of the option labels. ' +
			'Separate multiple pre-selected options with a comma.',
	],
];

/** Every type a person answers: all but a hidden field and Custom HTML. */
const ASKED = exceptTypes(typesWhere((kind) => kind.answered === 'none'));

const LIMIT_SELECTION = optionsField(
	[
		'Limit Selection',
		'limitSelection',
		'How many boxes the person may tick; the page refuses an answer outside it',
	],
	'unlimited',
	[
		['Exact Number', 'exact'],
		['Range', 'range'],
		['Unlimited', 'unlimited'],
	],
	{ displayOptions: forTypes(['checkbox']) },
);

const FILE_FIELDS: INodeProperties[] = [
	{
		displayName: 'Multiple Files',
		name: 'multipleFiles',
		type: 'boolean',
		default: true,
		description:
			'Whether to allow the user to select multiple files from the file input or just one. On ' +
			'here by default; in a form defined in JSON a file field takes one file unless it sets ' +
			'"multipleFiles": true, as in n8n.',
		displayOptions: forTypes(['file']),
	},
	stringField(
		['Accepted File Types', 'acceptFileTypes', 'Comma-separated list of allowed file extensions'],
		forTypes(['file']),
		{
			hint: 'Leave empty to allow all file types',
			placeholder: 'e.g. .jpg, .png',
		},
	),
	notice(
		`Each file can be up to ${MAX_FILE_MB} MB; files come out as binary properties named after the label`,
		'fileNotice',
		'file',
	),
];

/** The parameters of one form element (n8n's formFields.values[]). */
export const FIELD_VALUES: INodeProperties[] = [
	stringField(
		['Label', 'fieldLabel', 'Label that appears above the input field, and the key of the answer'],
		ASKED,
		{
			placeholder: 'e.g. What is your name?',
			required: true,
		},
	),
	stringField(
		['Field Name', 'fieldName', 'The key of the hidden value in the output'],
		forTypes(['hiddenField']),
	),
	{
		displayName: 'Element Type',
		name: 'fieldType',
		type: 'options',
		default: 'text',
		description: 'The type of field to add to the form',
		options: FIELD_TYPES.map((value) => ({ name: FIELD_KINDS[value].name, value })),
		required: true,
	},
	stringField(
		[
			'Element Name',
			'elementName',
			'Optional field. It can be used to include the html in the output.',
		],
		forTypes(['html']),
		{ placeholder: 'e.g. content-section' },
	),
	stringField(
		['Placeholder', 'placeholder', 'Sample text to display inside the field'],
		forTypes(typesWhere((kind) => kind.placeholder === true)),
	),
	...DEFAULT_VALUES.map(([kind, description, extra]) =>
		stringField(
			['Default Value', 'defaultValue', description],
			forTypes(FIELD_TYPES.filter((type) => kindOf(type).defaultValue === kind)),
			extra,
		),
	),
	stringField(
		[
			'Field Value',
			'fieldValue',
			'The value the output gets under the field name. It stays on the server: the page does ' +
				'not hold it, and the person cannot change it.',
		],
		forTypes(['hiddenField']),
	),
	...typesWhere((kind) => kind.answered === 'picked').map(optionList),
	LIMIT_SELECTION,
	count(
		['Number of Selections', 'numberOfSelections', 'How many boxes must be ticked'],
		1,
		'exact',
	),
	count(['Minimum Selections', 'minSelections', 'The fewest boxes to tick'], 0, 'range'),
	count(['Maximum Selections', 'maxSelections', 'The most boxes to tick'], 1, 'range'),
	stringField(['HTML', 'html', 'HTML elements to display on the form page'], forTypes(['html']), {
		typeOptions: { editor: 'htmlEditor' },
		noDataExpression: true,
		default: '<!-- Your custom HTML here --->\n\n\n',
		hint:
			'Text formatting only: headings, paragraphs, lists, tables, bold, italic, code. Links, ' +
			'images, frames, scripts, styles and inputs are removed.',
	}),
	...FILE_FIELDS,
	notice('The answer comes out as YYYY-MM-DD', 'dateNotice', 'date'),
	{
		displayName: 'Required Field',
		name: 'requiredField',
		type: 'boolean',
		default: false,
		description:
			'Whether to require the user to enter a value for this field before submitting the form',
		displayOptions: ASKED,
	},
];
