import type { INode, INodeProperties } from 'n8n-workflow';

import { showFor } from './displayOptions';
import { listOrIdField, numberedIdFrom } from './locator';
import type { NumberedThing } from './locator';

const CHANNEL: NumberedThing = { field: 'Channel', noun: 'channel', example: 12 };

/**
 * The WhatsApp channel: picked from the service's channel list, or given by number. Before 0.2.0
 * it was a plain number field; a saved `"channelId": 12` still reads as channel 12, because
 * n8n hands a value that is not a locator to the reader unchanged.
 */
export function channelIdField(operation: string): INodeProperties {
	return listOrIdField(CHANNEL, {
		name: 'channelId',
		searchListMethod: 'searchChannels',
		description:
			'The WhatsApp channel (platform) to use: pick it from the list, or give its number, for example 12. Sent as channel_id when sending and as platform_id when reading templates.',
		hint: 'If the list cannot load, your service has no channel list: switch to By ID and enter the channel number',
		displayOptions: showFor('whatsappTemplate', operation),
	});
}

/** The channel as the service's integer id: `parameter` is the field's value, a locator or a plain number. */
export function channelIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	return numberedIdFrom(CHANNEL, parameter, node, itemIndex);
}
