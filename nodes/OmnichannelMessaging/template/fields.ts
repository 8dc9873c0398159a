import type { INode, INodeProperties } from 'n8n-workflow';

import { invalidInputError } from '../errors';
import { showFor } from '../helpers/displayOptions';
import { locatorValue, toPositiveInteger } from '../helpers/values';

/** Reloads follow the picked channel, whether it is a locator (channelId.value) or a number saved before 0.2.0. */
export const CHANNEL_DEPENDENCY = ['channelId', 'channelId.value'];

export function templateIdField(operation: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			"The approved WhatsApp template: pick it from the channel's list, or give its numeric ID (for example 7; WhatsApp Template → Get Many lists the IDs)",
		typeOptions: { loadOptionsDependsOn: CHANNEL_DEPENDENCY },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 7',
			},
		],
		displayOptions: showFor('whatsappTemplate', operation),
	};
}

/** The template as the service's integer id: `parameter` is the field's value, a locator or a plain number. */
export function templateIdFrom(parameter: unknown, node: INode, itemIndex: number): number {
	const raw = locatorValue(parameter);
	const templateId = toPositiveInteger(raw);
	if (templateId === undefined) {
		throw invalidInputError(
			node,
			itemIndex,
			'Template',
			`${JSON.stringify(raw) ?? 'nothing'} is not a template ID: give the template's number, for example 7`,
			'Pick a template from the list, or switch to "By ID" and enter its number, for example 7.',
		);
	}
	return templateId;
}
