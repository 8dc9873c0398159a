import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, IExecuteSingleFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { omnichannelApiRequest } from './transport';
import type { WhatsAppTemplate } from './types';
import { toPositiveInteger } from './values';

type ParameterContext = IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions;

export const TEMPLATE_LIST_PATH = '/whatsapp/get-template-list';
export const TEMPLATE_DETAIL_PATH = '/whatsapp/get-template-detail';

function itemLabel(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` (item ${itemIndex})`;
}

function readParameter(
	context: ParameterContext,
	name: string,
	itemIndex: number,
	options?: { extractValue: boolean },
): unknown {
	if ('getItemIndex' in context) return context.getNodeParameter(name, undefined, options);
	if ('getInputData' in context) return context.getNodeParameter(name, itemIndex, undefined, options);
	return context.getNodeParameter(name, undefined, options);
}

/** The WhatsApp channel id, an integer: `platform_id` on reads, `channel_id` on sends. */
export function readChannelId(this: ParameterContext, itemIndex = 0): number {
	const raw = readParameter(this, 'channelId', itemIndex);
	const channelId = toPositiveInteger(raw);
	if (channelId === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Channel ID${itemLabel(itemIndex)} must be a whole number greater than 0, got ${JSON.stringify(raw) ?? 'nothing'}`,
			{
				itemIndex,
				description: "The channel ID is the number of the WhatsApp channel (platform) in the service's dashboard, for example 12.",
			},
		);
	}
	return channelId;
}

export function readTemplateId(this: ParameterContext, itemIndex = 0): number {
	const raw = readParameter(this, 'templateId', itemIndex, { extractValue: true });
	const templateId = toPositiveInteger(raw);
	if (templateId === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Template${itemLabel(itemIndex)} must be chosen from the list or given as a whole-number ID, got ${JSON.stringify(raw) ?? 'nothing'}`,
			{ itemIndex, description: 'Pick a template from the list, or switch to "By ID" and enter its number, for example 7.' },
		);
	}
	return templateId;
}

export async function fetchTemplate(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	channelId: number,
	templateId: number,
	itemIndex?: number,
): Promise<WhatsAppTemplate> {
	return (await omnichannelApiRequest.call(
		this,
		{ method: 'GET', path: TEMPLATE_DETAIL_PATH, qs: { platform_id: channelId, template_id: templateId } },
		itemIndex,
	)) as WhatsAppTemplate;
}

export async function fetchTemplateList(
	this: ILoadOptionsFunctions,
	channelId: number,
): Promise<WhatsAppTemplate[]> {
	const list = await omnichannelApiRequest.call(this, {
		method: 'GET',
		path: TEMPLATE_LIST_PATH,
		qs: { platform_id: channelId },
	});
	return Array.isArray(list) ? (list as WhatsAppTemplate[]) : [];
}
