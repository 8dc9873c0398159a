import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type { INodeProperties, INodePropertyOptions, IWebhookDescription } from 'n8n-workflow';

import { showFor } from '../displayOptions';
import { customFormFields } from './formDescriptions';

/*
 * Send and Wait for Response uses n8n's own parameter names and values (n8n-nodes-base's
 * utils/sendAndWait): n8n's human review of an AI agent's tools (2.x), its AI Workflow Builder and
 * builders' habits carry over.
 */

/** What the operation dropdown of each resource offers. */
export const SEND_AND_WAIT_OPTION: INodePropertyOptions = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT_OPERATION,
	action: 'Send message and wait for response',
	description:
		'Send a message with a link to a page where a person approves, declines or answers; the ' +
		'workflow waits for the answer',
};

/**
 * n8n serves both under /webhook-waiting/<execution>/<node ID> and checks the link's signature
 * before it calls the node's `webhook`. A GET shows the answer page; only its POST records.
 */
export const SEND_AND_WAIT_WEBHOOKS: IWebhookDescription[] = ['GET', 'POST'].map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
})) as IWebhookDescription[];

/** What the editor says of the node while its execution waits. */
export const SEND_AND_WAIT_TOOLTIP =
	'={{ $parameter.operation === "sendAndWait" ? "Execution will continue after the answer, or when ' +
	'the wait time limit ends" : "" }}';

export const DEFAULT_APPROVE_LABEL = '✓ Approve';
export const DEFAULT_DISAPPROVE_LABEL = '✗ Decline';
export const DEFAULT_RESPOND_LABEL = 'Respond';

/** The question the person reads in the message, before the link(s) (Message only). */
export function messageField(resource: string): INodeProperties {
	return {
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Refund 42 EUR for order 1042?',
		description:
			'The text the person receives. The link(s) to answer are added below it, one line each.',
		displayOptions: showFor(resource, SEND_AND_WAIT_OPERATION),
	};
}

const APPROVAL_VALUES: INodeProperties[] = [
	{
		displayName: 'Type of Approval',
		name: 'approvalType',
		type: 'options',
		default: 'single',
		description: 'Whether the person can only approve, or approve or decline',
		options: [
			{ name: 'Approve Only', value: 'single' },
			{ name: 'Approve and Disapprove', value: 'double' },
		],
	},
	{
		displayName: 'Approve Button Label',
		name: 'approveLabel',
		type: 'string',
		default: DEFAULT_APPROVE_LABEL,
		description: "The approve link's label in the message, and its button's on the page",
		displayOptions: { show: { approvalType: ['single', 'double'] } },
	},
	{
		displayName: 'Disapprove Button Label',
		name: 'disapproveLabel',
		type: 'string',
		default: DEFAULT_DISAPPROVE_LABEL,
		description: "The decline link's label in the message, and its button's on the page",
		displayOptions: { show: { approvalType: ['double'] } },
	},
];

const RESPONSE_TYPES: INodePropertyOptions[] = [
	{
		name: 'Approval',
		value: 'approval',
		description: 'The person approves (or declines) on the page the link opens',
	},
	{
		name: 'Free Text',
		value: 'freeText',
		description: 'The person types an answer on the page the link opens',
	},
	{
		name: 'Custom Form',
		value: 'customForm',
		description: 'The person fills in a form of your fields on the page the link opens',
	},
];

/** Response Type, Custom Form's fields and Approval Options, as n8n's messaging nodes name them. */
export function responseFields(resource: string): INodeProperties[] {
	const show = showFor(resource, SEND_AND_WAIT_OPERATION);
	return [
		{
			displayName: 'Response Type',
			name: 'responseType',
			type: 'options',
			default: 'approval',
			description:
				'What the person answers. A link opens a page; only its button records the answer, so a ' +
				"messaging app's link preview never answers.",
			options: RESPONSE_TYPES,
			displayOptions: show,
		},
		...customFormFields(show),
		{
			displayName: 'Approval Options',
			name: 'approvalOptions',
			type: 'fixedCollection',
			placeholder: 'Add option',
			default: {},
			options: [{ displayName: 'Values', name: 'values', values: APPROVAL_VALUES }],
			displayOptions: { show: { ...show.show, responseType: ['approval'] } },
		},
	];
}

/** n8n's Limit Wait Time option, its names, values and default (45 minutes) included. */
export const LIMIT_WAIT_TIME_OPTION: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting for an answer after a while. The node then outputs its input item ' +
		'unchanged, without "data".',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					description: 'Stop waiting after an amount of time, or at a date and time',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 1,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					description: 'The time to wait',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					description: 'Unit of the amount',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Stop waiting at this date and time',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

/** The link's label in the message when the person types an answer (n8n's name). */
export const MESSAGE_BUTTON_LABEL_OPTION: INodeProperties = {
	displayName: 'Message Button Label',
	name: 'messageButtonLabel',
	type: 'string',
	default: DEFAULT_RESPOND_LABEL,
	description:
		'The text before the link in the message, when the response type is Free Text or Custom Form',
};

/**
 * The send options a send and wait keeps: one message, so no concurrency or pacing cap. Send Once
 * keeps a re-run from asking a person twice; a question asked before comes out skipped, unasked
 * and not waited for (delivery/sendAndWait.ts).
 */
export const SEND_AND_WAIT_SHARED_OPTIONS = [
	'timeout',
	'sendOnceKey',
	'sendOnceScope',
	'sendOnceUnknown',
	'sendOnceHistory',
];
