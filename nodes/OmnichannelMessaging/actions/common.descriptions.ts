import type { INode, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS } from '../constants';
import { showFor, shownWhen } from '../helpers/displayOptions';
import type { Conditions } from '../helpers/displayOptions';
import { invalidInputError } from '../helpers/errors/run';
import { locatorValue, toPositiveInteger } from '../helpers/values';

export interface NumberedThing {
	/** The field's name in the editor, which errors name too. */
	field: string;
	/** What the number is of, for example "channel" or "template". */
	noun: string;
	example: number;
}

function mode(
	displayName: string,
	name: string,
	type: INodePropertyMode['type'],
	rest: Partial<INodePropertyMode>,
): INodePropertyMode {
	return { displayName, name, type, ...rest };
}

export function listOrIdField(
	thing: NumberedThing,
	field: Pick<
		INodeProperties,
		'name' | 'description' | 'hint' | 'builderHint' | 'displayOptions' | 'typeOptions'
	> & { searchListMethod: string },
): INodeProperties {
	const { searchListMethod, ...rest } = field;
	return {
		displayName: thing.field,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			mode('From List', 'list', 'list', {
				placeholder: `Select a ${thing.noun}...`,
				typeOptions: { searchListMethod, searchable: true, searchFilterRequired: false },
			}),
			mode('By ID', 'id', 'string', { placeholder: `e.g. ${thing.example}` }),
		],
		...rest,
	};
}

/** A plain number is one saved before the field became a locator; anything else is the item's input error. */
export function numberedIdFrom(
	thing: NumberedThing,
	parameter: unknown,
	node: INode,
	itemIndex: number,
): number {
	const raw = locatorValue(parameter);
	const id = toPositiveInteger(raw);
	if (id === undefined) {
		throw invalidInputError(
			node,
			itemIndex,
			thing.field,
			`${JSON.stringify(raw) ?? 'nothing'} is not a ${thing.noun} ID: give the ${thing.noun}'s ` +
				`number, for example ${thing.example}`,
			`Pick a ${thing.noun} from the list, or switch to "By ID" and enter its number, for example ${thing.example}.`,
		);
	}
	return id;
}

const CHANNEL: NumberedThing = { field: 'Channel', noun: 'channel', example: 12 };

/*
 * Channel was a number field in 0.1.0 and became a resource locator in 0.2.0, both in node version 1,
 * and n8n's editor draws a saved value that is not a locator with an empty mode box. So version 1
 * shows each saved node in its own form: a locator (saved by 0.2.0) as the locator, a plain number
 * or a bare expression (saved by 0.1.0) in 0.1.0's number field. Version 2, which new nodes get,
 * always shows the locator. Every form runs the same way: channelIdFrom reads them all.
 */
// A path from the node's parameters ("/"): n8n 1.x orders parameters by the ones their display
// depends on, and never finds a parameter named "channelId.__rl".
const SAVED_AS_LOCATOR = '/channelId.__rl';

function channelLocator(operation: string, show: Conditions): INodeProperties {
	return listOrIdField(CHANNEL, {
		name: 'channelId',
		searchListMethod: 'searchChannels',
		description:
			'The WhatsApp channel (platform) to use: pick it from the list, or give its number, for ' +
			'example 12. Sent as channel_id when sending and as platform_id when reading templates.',
		hint: 'If the list cannot load, your service has no channel list: switch to By ID and enter the channel number',
		builderHint: {
			propertyHint:
				'The WhatsApp channel number, for example 12, in mode "id"; the service shows it on the ' +
				"channel's settings",
		},
		displayOptions: shownWhen(showFor('whatsappTemplate', operation).show, show),
	});
}

/** 0.1.0's Channel field, for the nodes it saved. */
function savedChannelNumberField(operation: string): INodeProperties {
	return {
		displayName: 'Channel ID',
		name: 'channelId',
		type: 'number',
		required: true,
		default: 0,
		placeholder: 'e.g. 12',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'Number of the WhatsApp channel (platform) in the service, for example 12. Sent as ' +
			'channel_id when sending and as platform_id when reading templates.',
		hint: 'Saved by an earlier version of this node. A new Omnichannel Messaging node picks the channel from a list.',
		displayOptions: {
			show: { ...showFor('whatsappTemplate', operation).show, '@version': [1] },
			hide: { [SAVED_AS_LOCATOR]: [true] },
		},
	};
}

/** Channel in every node version and saved form (see above); exactly one of them shows. */
export function channelIdFields(operation: string): INodeProperties[] {
	return [
		channelLocator(operation, { '@version': [{ _cnd: { gte: 2 } }] }),
		channelLocator(operation, { '@version': [1], [SAVED_AS_LOCATOR]: [true] }),
		savedChannelNumberField(operation),
	];
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
		builderHint: {
			propertyHint:
				'The template\'s numeric ID, for example 101, in mode "id"; WhatsApp Template → Get Many ' +
				'lists the templates of a channel with their IDs and names',
		},
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
