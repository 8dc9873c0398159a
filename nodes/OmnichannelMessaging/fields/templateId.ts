import type { INode, INodeProperties } from 'n8n-workflow';

import { showFor } from './displayOptions';
import { listOrIdField, numberedIdFrom } from './locator';
import type { NumberedThing } from './locator';

const TEMPLATE: NumberedThing = { field: 'Template', noun: 'template', example: 7 };

/** Reloads follow the picked channel, whether it is a locator (channelId.value) or a number saved before 0.2.0. */
export const CHANNEL_DEPENDENCY = ['channelId', 'channelId.value'];

export function templateIdField(operation: string): INodeProperties {
	return listOrIdField(TEMPLATE, {
		name: 'templateId',
		searchListMethod: 'searchTemplates',
		description:
			"The approved WhatsApp template: pick it from the channel's list, or give its numeric ID (for example 7; WhatsApp Template → Get Many lists the IDs)",
		typeOptions: { loadOptionsDependsOn: CHANNEL_DEPENDENCY },
		displayOptions: showFor('whatsappTemplate', operation),
	});
}

/** The template as the service's integer id: `parameter` is the field's value, a locator or a plain number. */
export function templateIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	return numberedIdFrom(TEMPLATE, parameter, node, itemIndex);
}
