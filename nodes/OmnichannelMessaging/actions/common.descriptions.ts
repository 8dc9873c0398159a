import type { INode, INodeProperties } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS } from '../constants';
import { showFor } from '../helpers/displayOptions';
import { listOrIdField, numberedIdFrom } from '../helpers/locator';
import type { NumberedThing } from '../helpers/locator';

const CHANNEL: NumberedThing = { field: 'Channel', noun: 'channel', example: 12 };

/** A plain number field before 0.2.0: n8n hands a saved `"channelId": 12` to the reader unchanged. */
export function channelIdField(operation: string): INodeProperties {
	return listOrIdField(CHANNEL, {
		name: 'channelId',
		searchListMethod: 'searchChannels',
		description:
			'The WhatsApp channel (platform) to use: pick it from the list, or give its number, for ' +
			'example 12. Sent as channel_id when sending and as platform_id when reading templates.',
		hint: 'If the list cannot load, your service has no channel list: switch to By ID and enter the channel number',
		displayOptions: showFor('whatsappTemplate', operation),
	});
}

export function channelIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	return numberedIdFrom(CHANNEL, parameter, node, itemIndex);
}

const TEMPLATE: NumberedThing = { field: 'Template', noun: 'template', example: 7 };

/** Reloads follow a locator (channelId.value) or a number saved before 0.2.0. */
export const CHANNEL_DEPENDENCY = ['channelId', 'channelId.value'];

export function templateIdField(operation: string): INodeProperties {
	return listOrIdField(TEMPLATE, {
		name: 'templateId',
		searchListMethod: 'searchTemplates',
		description:
			"The approved WhatsApp template: pick it from the channel's list, or give its numeric ID " +
			'(for example 7; WhatsApp Template → Get Many lists the IDs)',
		typeOptions: { loadOptionsDependsOn: CHANNEL_DEPENDENCY },
		displayOptions: showFor('whatsappTemplate', operation),
	});
}

export function templateIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	return numberedIdFrom(TEMPLATE, parameter, node, itemIndex);
}

/** The name n8n gave this collection while the reads were declarative (before 0.2.0): saved values keep working. */
export function readRequestOptionsField(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: showFor(resource, operation),
		options: [
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				default: REQUEST_TIMEOUT_MS,
				typeOptions: { minValue: 1, numberPrecision: 0 },
				description: 'How long to wait for the service to answer, in milliseconds',
			},
		],
	};
}
