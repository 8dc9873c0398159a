import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	channelIdFields,
	channelIdFrom,
	templateIdField,
	templateIdFrom,
} from '../common.descriptions';
import { PATHS } from '../../constants';
import { showFor } from '../../helpers/displayOptions';
import {
	countryForItem,
	countryIsSet,
	defaultCountryChoice,
	defaultCountryField,
} from './countryField';
import { forgetTemplate, runSendPipeline, sendOptionsField } from '../../delivery';
import type { PrepareSend } from '../../delivery';
import type { OperationContext } from '../../helpers/operationContext';
import { renderTemplate } from '../../helpers/template/placeholders';
import { variablesFields } from './variablesFields';
import {
	headerMediaKey,
	readHeaderMedia,
	readPhone,
	readVariables,
	templateIfNeeded,
} from './sendInput';
import type { TemplateOptions } from './sendInput';

const show = showFor('whatsappTemplate', 'send');

export const description: INodeProperties[] = [
	{
		displayName:
			'The service queues template messages: status "ongoing" in the output means queued, not yet delivered',
		name: 'queuedNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	...channelIdFields('send'),
	templateIdField('send'),
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
	...variablesFields(show),
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
	sendOptionsField({
		resource: 'whatsappTemplate',
		operation: 'send',
		extra: [
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
		],
	}),
];

function readTemplateOptions(node: INode, raw: IDataObject): TemplateOptions {
	return {
		validateTemplate: raw.validateTemplate !== false,
		includeRenderedMessage: raw.includeRenderedMessage === true,
		allowEmptyVariables: raw.allowEmptyVariables === true,
		defaultCountry: defaultCountryChoice(node),
	};
}

/** The service's request body for one template message, header media aside. */
function templateBody(
	to: { channelId: number; templateId: number; phone: string },
	values: Record<string, string>,
): IDataObject {
	const body: IDataObject = {
		template_id: String(to.templateId),
		channel_id: String(to.channelId),
		customer_phone: to.phone,
	};
	if (Object.keys(values).length > 0) body.attributes = values;
	return body;
}

/** One item becomes one template message, checked against its template unless that is off. */
export const prepareSendTemplate: PrepareSend = async function (itemIndex, session) {
	const options = await session.once('templateOptions', async () =>
		readTemplateOptions(session.context.node, session.options.collection),
	);
	const context = session.context;
	const channelId = channelIdFrom(context.get('channelId', itemIndex), context.node, itemIndex);
	const templateId = templateIdFrom(context.get('templateId', itemIndex), context.node, itemIndex);
	const phone = readPhone(context, itemIndex, () =>
		countryForItem(context, itemIndex, options.defaultCountry),
	);
	const values = readVariables(context, itemIndex, {
		allowEmpty: options.allowEmptyVariables,
		reportEmpty: !options.validateTemplate && !options.allowEmptyVariables,
	});
	const media = readHeaderMedia(context, itemIndex);
	const template = await templateIfNeeded(session, { channelId, templateId, itemIndex }, options, {
		values,
		media,
	});

	const body = templateBody({ channelId, templateId, phone }, values);
	if (media.url)
		body.attachment = { [headerMediaKey(context, itemIndex, media, template)]: media.url };
	const connection = await session.connect();
	return {
		method: 'POST',
		path: PATHS.sendTemplate,
		body,
		// With a Default Country the number sent may differ from the one typed: the rendered message names it.
		rendered: template && {
			...renderTemplate(template, values, media.url),
			...(countryIsSet(options.defaultCountry) ? { to: phone } : {}),
		},
		outputRendered: options.includeRenderedMessage,
		onRefused: () => forgetTemplate(connection, { channelId, templateId }),
	};
};

/** Each item is sent as one template message through the delivery engine. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendPipeline.call(this, prepareSendTemplate, context);
}
