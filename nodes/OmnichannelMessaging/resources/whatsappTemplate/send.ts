import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { channelIdField, channelIdFrom } from '../../channel/fields';
import { PATHS } from '../../constants';
import { invalidInputError, templateLoadError } from '../../errors';
import { showFor } from '../../helpers/displayOptions';
import { normalizePhone } from '../../helpers/phone';
import { checkMediaUrl } from '../../helpers/url';
import { sendOptionsField } from '../../send/options';
import type { PrepareSend, SendSession } from '../../send/session';
import { forgetTemplate, templateForSends } from '../../template/cache';
import type { TemplateCopy } from '../../template/cache';
import { checkAgainstTemplate } from '../../template/check';
import type { TemplateProblem } from '../../template/check';
import { CHANNEL_DEPENDENCY, templateIdField, templateIdFrom } from '../../template/fields';
import { renderTemplate } from '../../template/placeholders';
import { isHeaderMediaType, templateHeaderType } from '../../template/types';
import type { HeaderMediaType, WhatsAppTemplate } from '../../template/types';
import { normalizeVariables, parseVariablesJson } from '../../template/variables';

const show = showFor('whatsappTemplate', 'send');

export const sendDescription: INodeProperties[] = [
	{
		displayName:
			'The service queues template messages: status "ongoing" in the output means queued, not yet delivered',
		name: 'queuedNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	channelIdField('send'),
	templateIdField('send'),
	{
		displayName: 'Customer Phone',
		name: 'customerPhone',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915123456789',
		description:
			'Phone number of the customer with country code, in international format, for example +4915123456789. Spaces, dashes, dots and brackets are removed; a leading 00 becomes +.',
		hint: 'Include the country code: +49 151 2345 6789 or 0049 151 2345 6789, not 0151 2345 6789',
		displayOptions: show,
	},
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
				description: "One field per placeholder of the chosen template ({{1}}, {{2}}, …)",
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'One object keyed by position, for example {"1": "Anna"}. Use this when the template comes from an expression.',
			},
		],
		description: 'How to give the values of the template body placeholders',
		displayOptions: show,
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		description: 'The value of each placeholder of the template body, in order: {{1}}, {{2}}, …',
		typeOptions: {
			loadOptionsDependsOn: [...CHANNEL_DEPENDENCY, 'templateId.value'],
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
		description: 'An object keyed by placeholder position, for example {"1": "Anna", "2": "1042"}',
		hint: 'Keys are positions: "1" fills {{1}}. Values may come from expressions.',
		displayOptions: { show: { ...show.show, variablesMode: ['json'] } },
	},
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/images/offer.jpg',
		description:
			'Public http(s) URL of the image, video, audio or document shown in the template header. Only for templates whose header is media; leave empty otherwise.',
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
			{ name: 'Same as Template', value: 'auto', description: "Use the type of the template's header" },
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
					'Whether to stop an item before sending when a variable is missing or unknown, or the header media does not fit the template. WhatsApp rejects such messages later, without telling n8n. The template is read once and reused by every execution for up to 5 minutes.',
			},
			{
				displayName: 'Include Rendered Message',
				name: 'includeRenderedMessage',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the message as the customer sees it (header, body with the variables filled in, footer, buttons) to the output as "rendered"',
			},
			{
				displayName: 'Allow Empty Variables',
				name: 'allowEmptyVariables',
				type: 'boolean',
				default: false,
				description: 'Whether an empty variable value is sent as empty text instead of stopping the item',
			},
		],
	}),
];

function readVariables(
	this: IExecuteFunctions,
	session: SendSession,
	itemIndex: number,
	allowEmpty: boolean,
	reportEmpty: boolean,
): Record<string, string> {
	const mode = session.parameter('variablesMode', itemIndex, 'mapper');
	let raw: unknown;
	if (mode === 'json') {
		const parsed = parseVariablesJson(session.parameter('variablesJson', itemIndex, '{}'));
		if (!parsed.ok) throw invalidInputError(this.getNode(), itemIndex, 'Variables (JSON)', parsed.reason);
		raw = parsed.value;
	} else {
		const mapped = session.parameter('variables', itemIndex, null) as IDataObject | null;
		raw = mapped?.value ?? {};
	}
	const checked = normalizeVariables(raw, allowEmpty);
	if (!checked.ok) {
		throw invalidInputError(this.getNode(), itemIndex, mode === 'json' ? 'Variables (JSON)' : 'Variables', checked.reason);
	}
	// Without the template check nothing else notices a value left empty: say so instead of dropping it.
	const given = reportEmpty && !allowEmpty ? normalizeVariables(raw, true) : undefined;
	const empty = given?.ok ? Object.keys(given.values).filter((position) => !(position in checked.values)) : [];
	if (empty.length > 0) {
		throw invalidInputError(
			this.getNode(),
			itemIndex,
			mode === 'json' ? 'Variables (JSON)' : 'Variables',
			`${empty.map((position) => `{{${position}}}`).join(', ')} has no value: map a value to it, or turn on Allow Empty Variables`,
		);
	}
	return checked.values;
}

function readHeaderMedia(
	this: IExecuteFunctions,
	session: SendSession,
	itemIndex: number,
): { url: string | undefined; type: HeaderMediaType | 'auto' } {
	const rawUrl = session.parameter('headerMediaUrl', itemIndex, '');
	const rawType = session.parameter('headerMediaType', itemIndex, 'auto');
	if (rawType !== 'auto' && !isHeaderMediaType(rawType)) {
		throw invalidInputError(
			this.getNode(),
			itemIndex,
			'Header Media Type',
			`${JSON.stringify(rawType)} is not one of auto, image, audio, video, document`,
		);
	}
	if (rawUrl === '' || rawUrl === undefined || rawUrl === null) return { url: undefined, type: rawType };
	const url = checkMediaUrl(rawUrl);
	if (!url.ok) throw invalidInputError(this.getNode(), itemIndex, 'Header Media URL', url.reason);
	return { url: url.url, type: rawType };
}

/** Where an item's template is: channel and template, and the item, for its errors. */
interface TemplateItem {
	channelId: number;
	templateId: number;
	itemIndex: number;
}

/** The template send's own options; the shared ones are read by the send pipeline. */
interface TemplateOptions {
	validateTemplate: boolean;
	includeRenderedMessage: boolean;
	allowEmptyVariables: boolean;
}

function readTemplateOptions(raw: IDataObject): TemplateOptions {
	return {
		validateTemplate: raw.validateTemplate !== false,
		includeRenderedMessage: raw.includeRenderedMessage === true,
		allowEmptyVariables: raw.allowEmptyVariables === true,
	};
}

/**
 * Each template is loaded once per execution however many items use it, and shared between
 * executions (template/cache.ts); `fresh` passes over the copy the process held.
 */
async function loadTemplate(session: SendSession, where: TemplateItem, fresh = false): Promise<TemplateCopy> {
	const { context } = session;
	const { channelId, templateId } = where;
	try {
		return await session.once(`template:${channelId}:${templateId}${fresh ? ':fresh' : ''}`, async () =>
			await templateForSends.call(context, await session.connect(), { channelId, templateId }, fresh),
		);
	} catch (error) {
		throw templateLoadError(context.getNode(), error, where);
	}
}

/**
 * The template with the item checked against it. A copy the process held from before is read
 * again before it stops an item: an item is never stopped for a template that has since changed.
 */
async function checkedTemplate(
	session: SendSession,
	where: TemplateItem,
	check: ((template: WhatsAppTemplate) => TemplateProblem | undefined) | undefined,
): Promise<WhatsAppTemplate> {
	let copy = await loadTemplate(session, where);
	if (check && copy.held && check(copy.template)) copy = await loadTemplate(session, where, true);
	const problem = check?.(copy.template);
	if (problem) throw invalidInputError(session.context.getNode(), where.itemIndex, problem.field, problem.problem);
	return copy.template;
}

function readPhone(this: IExecuteFunctions, session: SendSession, itemIndex: number): string {
	const rawPhone = session.parameter('customerPhone', itemIndex, '');
	const phone = normalizePhone(rawPhone);
	if (!phone.ok) {
		throw invalidInputError(
			this.getNode(),
			itemIndex,
			'Customer Phone',
			rawPhone === undefined || rawPhone === null
				? 'it is empty: give the number with country code, for example +4915123456789'
				: `${JSON.stringify(rawPhone)} is not a valid phone number: ${phone.reason}`,
		);
	}
	return phone.phone;
}

/** The header's media key: the chosen type, or the template's own header type. */
function headerMediaKey(
	this: IExecuteFunctions,
	itemIndex: number,
	media: { type: HeaderMediaType | 'auto' },
	template: WhatsAppTemplate | undefined,
): HeaderMediaType {
	if (media.type !== 'auto') return media.type;
	const headerType = template ? templateHeaderType(template) : undefined;
	if (isHeaderMediaType(headerType)) return headerType;
	throw invalidInputError(
		this.getNode(),
		itemIndex,
		'Header Media Type',
		`the template's header is ${headerType ? `"${headerType}"` : 'missing'}, so the media type cannot be taken from it`,
		'Choose the media type (Image, Video, Audio or Document) or clear the header media URL.',
	);
}

export const prepareSendTemplate: PrepareSend = async function (itemIndex, session) {
	const options = await session.once('templateOptions', async () => readTemplateOptions(session.options.collection));
	const { node } = session;
	const channelId = channelIdFrom(session.parameter('channelId', itemIndex), node, itemIndex);
	const templateId = templateIdFrom(session.parameter('templateId', itemIndex), node, itemIndex);
	const phone = readPhone.call(this, session, itemIndex);
	const values = readVariables.call(this, session, itemIndex, options.allowEmptyVariables, !options.validateTemplate);
	const media = readHeaderMedia.call(this, session, itemIndex);

	const needsTemplate =
		options.validateTemplate ||
		options.includeRenderedMessage ||
		session.options.dryRun ||
		(media.url !== undefined && media.type === 'auto');
	const check = options.validateTemplate
		? (template: WhatsAppTemplate) => checkAgainstTemplate(template, values, media.url, media.type)
		: undefined;
	const template = needsTemplate ? await checkedTemplate(session, { channelId, templateId, itemIndex }, check) : undefined;

	const body: IDataObject = { template_id: String(templateId), channel_id: String(channelId), customer_phone: phone };
	if (Object.keys(values).length > 0) body.attributes = values;
	if (media.url) body.attachment = { [headerMediaKey.call(this, itemIndex, media, template)]: media.url };
	const connection = await session.connect();
	return {
		path: PATHS.sendTemplate,
		body,
		rendered: template ? { ...renderTemplate(template, values, media.url) } : undefined,
		outputRendered: options.includeRenderedMessage,
		onRefused: () => forgetTemplate(connection, { channelId, templateId }),
	};
};
