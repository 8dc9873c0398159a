import type { INodeProperties } from 'n8n-workflow';

import { CHANNEL_DEPENDENCY, channelIdField, templateIdField } from '../common.descriptions';
import { showFor } from '../../helpers/displayOptions';
import { defaultCountryField } from './countryField';

type Show = ReturnType<typeof showFor>;

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
			displayOptions: show,
		},
	];
}

/** How the variables are given. */
function variablesModeFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Variables Input',
			name: 'variablesMode',
			type: 'options',
			noDataExpression: true,
			default: 'mapper',
			options: [
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
			description: 'How to give the values of the template body placeholders',
			displayOptions: show,
		},
	];
}

/** The variables: one mapper field each, or one JSON object. */
function variablesFields(show: Show, mapperDependsOn: string[]): INodeProperties[] {
	return [
		{
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
					mode: 'add',
					valuesLabel: 'Template Variables',
					fieldWords: { singular: 'variable', plural: 'variables' },
					addAllFields: true,
					multiKeyMatch: false,
					supportAutoMap: false,
					noFieldsError: 'This template has no variables: nothing to fill in',
				},
			},
			displayOptions: { show: { ...show.show, variablesMode: ['mapper'] } },
		},
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			description:
				'An object keyed by placeholder position, for example {"1": "Anna", "2": "1042"}',
			hint: 'Keys are positions: "1" fills {{1}}. Values may come from expressions.',
			displayOptions: { show: { ...show.show, variablesMode: ['json'] } },
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
		{
			displayName: 'Header Media Type',
			name: 'headerMediaType',
			type: 'options',
			default: 'auto',
			options: [
				{ name: 'Audio', value: 'audio' },
				{ name: 'Document', value: 'document' },
				{ name: 'Image', value: 'image' },
				{
					name: 'Same as Template',
					value: 'auto',
					description: "Use the type of the template's header",
				},
				{ name: 'Video', value: 'video' },
			],
			description: 'What kind of media the header media URL points to',
			displayOptions: show,
		},
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
		channelIdField(operation),
		templateIdField(operation),
		...phoneFields(show),
		...variablesModeFields(show),
		...variablesFields(show, mapperDependsOn),
		...headerMediaFields(show),
	];
}

/** The template's own send options, beside the shared ones (delivery/options.ts). */
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
