import type { IExecuteFunctions, IExecuteSingleFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { invalidInputError } from './errors';
import { omnichannelApiRequest } from './transport';
import type { ServiceConnection } from './transport';
import type { WhatsAppTemplate } from './types';
import { toPositiveInteger } from './values';

type ParameterContext = IExecuteFunctions | IExecuteSingleFunctions;

// Sends read per item (IExecuteFunctions); declarative reads run once per item already.
function readParameter(
	context: ParameterContext,
	name: string,
	itemIndex: number,
	options?: { extractValue: boolean },
): unknown {
	return 'getItemIndex' in context
		? context.getNodeParameter(name, undefined, options)
		: context.getNodeParameter(name, itemIndex, undefined, options);
}

export const TEMPLATE_LIST_PATH = '/whatsapp/get-template-list';
export const TEMPLATE_DETAIL_PATH = '/whatsapp/get-template-detail';

/** The WhatsApp channel id, an integer: `platform_id` on reads, `channel_id` on sends. */
export function readChannelId(this: ParameterContext, itemIndex = 0): number {
	const raw = readParameter(this, 'channelId', itemIndex);
	const channelId = toPositiveInteger(raw);
	if (channelId === undefined) {
		throw invalidInputError(
			this.getNode(),
			itemIndex,
			'Channel ID',
			`${JSON.stringify(raw) ?? 'nothing'} is not a whole number greater than 0`,
			"The channel ID is the number of the WhatsApp channel (platform) in the service's dashboard, for example 12.",
		);
	}
	return channelId;
}

export function readTemplateId(this: ParameterContext, itemIndex = 0): number {
	const raw = readParameter(this, 'templateId', itemIndex, { extractValue: true });
	const templateId = toPositiveInteger(raw);
	if (templateId === undefined) {
		throw invalidInputError(
			this.getNode(),
			itemIndex,
			'Template',
			`${JSON.stringify(raw) ?? 'nothing'} is not a template ID: give the template's number, for example 7`,
			'Pick a template from the list, or switch to "By ID" and enter its number, for example 7.',
		);
	}
	return templateId;
}

export async function fetchTemplate(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	channelId: number,
	templateId: number,
	itemIndex?: number,
	connection?: ServiceConnection,
): Promise<WhatsAppTemplate> {
	return (await omnichannelApiRequest.call(
		this,
		{ method: 'GET', path: TEMPLATE_DETAIL_PATH, qs: { platform_id: channelId, template_id: templateId } },
		itemIndex,
		'template',
		connection,
	)) as WhatsAppTemplate;
}

export async function fetchTemplateList(
	this: ILoadOptionsFunctions,
	channelId: number,
): Promise<WhatsAppTemplate[]> {
	const list = await omnichannelApiRequest.call(
		this,
		{ method: 'GET', path: TEMPLATE_LIST_PATH, qs: { platform_id: channelId } },
		undefined,
		'templateList',
	);
	return Array.isArray(list) ? (list as WhatsAppTemplate[]) : [];
}
