import type { INode, INodeProperties } from 'n8n-workflow';

import { invalidInputError } from '../errors';
import { showFor } from '../helpers/displayOptions';
import { locatorValue, toPositiveInteger } from '../helpers/values';

/**
 * The WhatsApp channel: picked from the service's channel list, or given by number. Before 0.2.0
 * it was a plain number field; a saved `"channelId": 12` still reads as channel 12, because
 * n8n hands a value that is not a locator to the reader unchanged.
 */
export function channelIdField(operation: string): INodeProperties {
	return {
		displayName: 'Channel',
		name: 'channelId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			'The WhatsApp channel (platform) to use: pick it from the list, or give its number, for example 12. Sent as channel_id when sending and as platform_id when reading templates.',
		hint: 'If the list stays empty, your service has no channel list: switch to By ID and enter the channel number',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a channel...',
				typeOptions: { searchListMethod: 'searchChannels', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 12',
			},
		],
		displayOptions: showFor('whatsappTemplate', operation),
	};
}

/** The channel as the service's integer id: `parameter` is the field's value, a locator or a plain number. */
export function channelIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	const raw = locatorValue(parameter);
	const channelId = toPositiveInteger(raw);
	if (channelId === undefined) {
		throw invalidInputError(
			node,
			itemIndex,
			'Channel',
			`${JSON.stringify(raw) ?? 'nothing'} is not a channel ID: give the channel's number, for example 12`,
			'Pick a channel from the list, or switch to "By ID" and enter its number, for example 12.',
		);
	}
	return channelId;
}
