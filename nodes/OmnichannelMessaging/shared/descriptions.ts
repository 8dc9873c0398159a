import type { INodeProperties } from 'n8n-workflow';

type Show = { resource: string[]; operation: string[] };

export function showFor(resource: string, operation: string): { show: Show } {
	return { show: { resource: [resource], operation: [operation] } };
}

export function channelIdField(operation: string): INodeProperties {
	return {
		displayName: 'Channel ID',
		name: 'channelId',
		type: 'number',
		required: true,
		default: 0,
		placeholder: 'e.g. 12',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			"Number of the WhatsApp channel (platform) in the service, for example 12. Sent as channel_id when sending and as platform_id when reading templates.",
		hint: "Find it in the service's dashboard under the WhatsApp channel's settings",
		displayOptions: showFor('whatsappTemplate', operation),
	};
}

export function templateIdField(operation: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			"The approved WhatsApp template: pick it from the channel's list, or give its numeric ID (for example 7; WhatsApp Template → Get Many lists the IDs)",
		typeOptions: { loadOptionsDependsOn: ['channelId'] },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: {
					searchListMethod: 'searchTemplates',
					searchable: true,
					searchFilterRequired: false,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 7',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: 'A template ID is a whole number, for example 7' },
					},
				],
			},
		],
		displayOptions: showFor('whatsappTemplate', operation),
	};
}

export interface SendOptionsConfig {
	resource: string;
	operation: string;
	extra?: INodeProperties[];
}

/** The options every send shares; the template send adds its own. */
export function sendOptionsField({ resource, operation, extra = [] }: SendOptionsConfig): INodeProperties {
	const options: INodeProperties[] = [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
			description:
				'How many messages may be on their way to the service at once (1 to 50). Raise it only as far as your plan\'s rate limit allows.',
		},
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				'Whether to run every check and build the exact request without sending anything. Each item then shows the request that would have been sent.',
		},
		...extra,
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			default: 30000,
			typeOptions: { minValue: 1000, numberPrecision: 0 },
			description: 'How long to wait for the service to answer a request, in milliseconds',
			hint: 'A send that times out is not retried: the message may already have gone out',
		},
	];
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: showFor(resource, operation),
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
