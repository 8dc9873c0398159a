import type { INodeProperties } from 'n8n-workflow';

import { channelIdFields, templateIdField } from '../common.descriptions';
import { showFor } from '../../helpers/displayOptions';
import { defaultCountryField } from './countryField';
import { variablesFields } from './variablesFields';

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
		...channelIdFields(operation),
		templateIdField(operation),
		...phoneFields(show),
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
