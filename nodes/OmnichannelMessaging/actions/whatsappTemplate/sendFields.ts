import type { INodeProperties, IDataObject, INode } from 'n8n-workflow';

import { channelIdFields, templateIdField, CHANNEL_DEPENDENCY } from '../common.descriptions';
import { optionsField, showFor, shownWhen } from '../../helpers/displayOptions';
import { invalidInputError } from '../../helpers/errors/run';
import type { OperationContext } from '../../helpers/values';
import { allCountries, countryOf } from '../../helpers/phone/phone';
import type { Country } from '../../helpers/phone/phone';

/** The Default Country option's name, also in the errors that name it. */
const FIELD = 'Default Country';

/** The customer's phone. */
function phoneFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Customer Phone',
			name: 'customerPhone',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. +4915123456789',
			description:
				'Phone number of the customer with country code, in international format, for example ' +
				'+4915123456789. Spaces, dashes, dots and brackets are removed; a leading 00 becomes +.',
			hint:
				'Include the country code: +49 151 2345 6789 or 0049 151 2345 6789. For 0151 2345 6789, ' +
				'set Default Country in Options.',
			builderHint: {
				propertyHint:
					'A +E.164 phone number with country code, for example +4915123456789, usually from an ' +
					'expression such as {{ $json.phone }}; for national numbers set options.defaultCountry',
			},
			displayOptions: show,
		},
	];
}

/** The header media of a template whose header is an image, video, audio or document. */
function headerMediaFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Header Media URL',
			name: 'headerMediaUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/images/offer.jpg',
			description:
				'Public http(s) URL of the image, video, audio or document shown in the template header. ' +
				'Only for templates whose header is media; leave empty otherwise.',
			displayOptions: show,
		},
		optionsField(
			['Header Media Type', 'headerMediaType', 'What kind of media the header media URL points to'],
			'auto',
			[
				['Audio', 'audio'],
				['Document', 'document'],
				['Image', 'image'],
				{
					name: 'Same as Template',
					value: 'auto',
					description: "Use the type of the template's header",
				},
				['Video', 'video'],
			],
			{ displayOptions: show },
		),
	];
}

/**
 * The fields of a template message (channel, template, phone, variables, header media), shared by
 * Send and Send and Wait. `mapperDependsOn`: more fields the Variables mapper reloads after.
 */
export function templateMessageFields(
	operation: string,
	mapperDependsOn: string[] = [],
): INodeProperties[] {
	const show = showFor('whatsappTemplate', operation);
	return [
		...channelIdFields(operation),
		templateIdField(operation),
		...phoneFields(show),
		...variablesFields(show, mapperDependsOn),
		...headerMediaFields(show),
	];
}

/** The template's own send options, beside the shared ones (delivery/session.ts). */
export const TEMPLATE_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Check Against Template',
		name: 'validateTemplate',
		type: 'boolean',
		default: true,
		description:
			'Whether to stop an item before sending when a variable is missing or unknown, or the ' +
			'header media does not fit the template. WhatsApp rejects such messages later, without ' +
			'telling n8n. The template is read once and reused by every execution for up to 5 minutes.',
	},
	{
		displayName: 'Include Rendered Message',
		name: 'includeRenderedMessage',
		type: 'boolean',
		default: false,
		description:
			'Whether to add the message as the customer sees it (header, body with the variables ' +
			'filled in, footer, buttons) to the output as "rendered"',
	},
	{
		displayName: 'Allow Empty Variables',
		name: 'allowEmptyVariables',
		type: 'boolean',
		default: false,
		description:
			'Whether an empty variable value is sent as empty text instead of stopping the item',
	},
	defaultCountryField(),
];

/** The Default Country option; the choice is stored as the ISO code (`DE`). */
export function defaultCountryField(): INodeProperties {
	const countries = allCountries()
		.map(({ code, name, callingCode }) => ({ name: `${name} (+${callingCode})`, value: code }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return {
		displayName: FIELD,
		name: 'defaultCountry',
		type: 'options',
		default: '',
		options: [{ name: 'None: International Format Only', value: '' }, ...countries],
		description:
			'The country a number without + or 00 is dialled in: "0151 2345 6789" with Germany becomes ' +
			"+4915123456789, by libphonenumber's rules for that country. A number that cannot be one " +
			'of its numbers stops the item. Numbers with + or 00 are sent as they are.',
		hint: 'An expression may give a two-letter country code per item, for example {{ $json.country }} holding DE',
	};
}

export type CountryChoice = { perItem: false; code?: string } | { perItem: true };

/** Once per execution: an expression is read per item, a fixed choice never again. */
export function defaultCountryChoice(node: INode): CountryChoice {
	const saved = (node.parameters.options as IDataObject | undefined)?.defaultCountry;
	if (typeof saved === 'string' && saved.startsWith('=')) return { perItem: true };
	return {
		perItem: false,
		code: saved === undefined || saved === null || saved === '' ? undefined : String(saved),
	};
}

/** When set, the rendered message names the number sent. */
export function countryIsSet(choice: CountryChoice): boolean {
	return choice.perItem || choice.code !== undefined;
}

/** The item's country; without one, a number needs + or 00, as without the option. */
export function countryForItem(
	context: OperationContext,
	itemIndex: number,
	choice: CountryChoice,
): Country | undefined {
	const value = choice.perItem ? context.get('options.defaultCountry', itemIndex, '') : choice.code;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	const country = typeof value === 'string' ? countryOf(value.trim()) : undefined;
	if (country) return country;
	throw invalidInputError(
		context.node,
		itemIndex,
		FIELD,
		`${JSON.stringify(value)} is not a country code: give the two-letter ISO 3166 code, for ` +
			`example DE for Germany or US for the United States`,
	);
}

type Show = ReturnType<typeof showFor>;

/** How the placeholder values are given. */
function variablesModeField(show: Show): INodeProperties {
	return optionsField(
		[
			'Variables Input',
			'variablesMode',
			'How to give the values of the template body placeholders',
		],
		'mapper',
		[
			{
				name: 'Map Each Variable',
				value: 'mapper',
				description: 'One field per placeholder of the chosen template ({{1}}, {{2}}, …)',
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'One object keyed by position, for example {"1": "Anna"}. Use this when the template comes ' +
					'from an expression.',
			},
		],
		{
			noDataExpression: true,
			builderHint: {
				propertyHint:
					'Use "json" with variablesJson when building a workflow: "mapper" needs the template ' +
					'picked in the editor, and cannot follow a template chosen by an expression',
			},
			displayOptions: show,
		},
	);
}

/** One field per placeholder of the template picked in the editor. */
function variablesMapperField(show: Show, mapperDependsOn: string[]): INodeProperties {
	return {
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		description: 'The value of each placeholder of the template body, in order: {{1}}, {{2}}, …',
		typeOptions: {
			loadOptionsDependsOn: [...CHANNEL_DEPENDENCY, 'templateId.value', ...mapperDependsOn],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				// Not 'add': n8n then refuses to start a workflow whose saved fields (a link's variable,
				// mapped before the mapper left it out) lack a value. The send checks the values itself.
				mode: 'map',
				valuesLabel: 'Template Variables',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'This template has no variables: nothing to fill in',
				// A workflow saved with other labels for the same placeholders (0.1.0's) gets today's.
				refreshStaleSchemaOnOpen: true,
			},
		},
		displayOptions: shownWhen(show.show, { variablesMode: ['mapper'] }),
	};
}

/** An object keyed by position, for a template chosen by an expression. */
function variablesJsonField(show: Show): INodeProperties {
	return {
		displayName: 'Variables (JSON)',
		name: 'variablesJson',
		type: 'json',
		default: '{}',
		description: 'An object keyed by placeholder position, for example {"1": "Anna", "2": "1042"}',
		hint: 'Keys are positions: "1" fills {{1}}. Values may come from expressions.',
		builderHint: {
			propertyHint:
				'Template variables as JSON keyed by position: {"1": "Anna", "2": "1042"} fills {{1}} and ' +
				'{{2}} of the template body; values may be expressions',
		},
		displayOptions: shownWhen(show.show, { variablesMode: ['json'] }),
	};
}

/**
 * Variables Input and its two forms: one mapper field per placeholder, or JSON keyed by position.
 * `mapperDependsOn`: more fields the mapper reloads after (the Link Variable of a link).
 */
export function variablesFields(show: Show, mapperDependsOn: string[] = []): INodeProperties[] {
	return [
		variablesModeField(show),
		variablesMapperField(show, mapperDependsOn),
		variablesJsonField(show),
	];
}
