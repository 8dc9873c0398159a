import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type { INodeProperties, INodePropertyOptions, IWebhookDescription } from 'n8n-workflow';

import { optionsField, showFor, shownWhen } from '../helpers/displayOptions';
import type { Conditions } from '../helpers/displayOptions';
import { FIELD_VALUES, stringField } from './elementFields';
import { BROWSER, ENGLISH, LANGUAGES, say } from './texts';
import { MAX_CHOICES } from './formDefinition';

/*
 * Send and Wait for Response uses n8n's own parameter names and values (n8n-nodes-base's
 * utils/sendAndWait): n8n's human review of an AI agent's tools (2.x), its AI Workflow Builder and
 * builders' habits carry over.
 */

const JSON_EXAMPLE = JSON.stringify(
	[
		{ fieldLabel: 'Name', requiredField: true },
		{ fieldLabel: 'Amount', fieldType: 'number' },
	],
	null,
	2,
);

const DEFINE_FORM: INodeProperties = {
	displayName: 'Define Form',
	name: 'defineForm',
	type: 'options',
	description:
		'Whether to list the fields below, or give them as JSON (an expression can build it)',
	noDataExpression: true,
	options: [
		{ name: 'Using Fields Below', value: 'fields' },
		{ name: 'Using JSON', value: 'json' },
	],
	default: 'fields',
};

/** Define Form, the JSON and the fields, shown for Custom Form (n8n's formFieldsProperties). */
function customFormFields(operation: Conditions) {
	const forCustomForm = (extra: Conditions) =>
		shownWhen(operation, { responseType: ['customForm'] }, extra);
	return [
		{ ...DEFINE_FORM, displayOptions: forCustomForm({}) },
		{
			displayName: 'Form Fields',
			name: 'jsonOutput',
			type: 'json',
			typeOptions: { rows: 5 },
			default: JSON_EXAMPLE,
			description:
				"An array of fields with the Form node's keys: fieldLabel, fieldType, requiredField, " +
				'fieldOptions, …',
			displayOptions: forCustomForm({ defineForm: ['json'] }),
		},
		{
			displayName: 'Form Elements',
			name: 'formFields',
			placeholder: 'Add Form Element',
			type: 'fixedCollection',
			default: {},
			typeOptions: { multipleValues: true, sortable: true },
			options: [{ displayName: 'Values', name: 'values', values: FIELD_VALUES }],
			displayOptions: forCustomForm({ defineForm: ['fields'] }),
		},
	] as INodeProperties[];
}

const FORM_TYPES = shownWhen({ '/responseType': ['freeText', 'customForm'] });
const EVERY_TYPE = shownWhen({ '/responseType': ['approval', 'choice', 'freeText', 'customForm'] });

/** What an empty text of the builder's means: the page language's own words, these in English. */
const builtIn = (key: Parameters<typeof say>[1]) =>
	`Leave empty for the page language's own words ("${say(ENGLISH, key)}" in English)`;

/**
 * The language of the page the link opens: a page language (English by default, as pages were
 * before the option), or the customer's browser's. The values are BCP 47 tags, a public contract.
 */
export const PAGE_LANGUAGE_OPTION: INodeProperties = optionsField(
	[
		'Page Language',
		'pageLanguage',
		'The language of the texts the page the link opens says itself (titles, checks, default ' +
			"button labels). From the Customer's Browser uses the first of the browser's languages the " +
			'page has, else English.',
	],
	ENGLISH.tag,
	[
		["From the Customer's Browser", BROWSER],
		...[...LANGUAGES]
			.sort((a, b) => a.name.localeCompare(b.name, 'en'))
			.map(({ name, tag }): [string, string] => [name, tag]),
	],
);

/** The page after an answer, in the builder's words (n8n's Form node names its ending so). */
const COMPLETION_OPTIONS: INodeProperties[] = [
	stringField(
		[
			'Completion Title',
			'completionTitle',
			`The title of the page after the answer. ${builtIn('recordedTitle')}.`,
		],
		EVERY_TYPE,
	),
	stringField(
		[
			'Completion Message',
			'completionMessage',
			'The message of the page after the answer, below what was recorded. ' +
				`${builtIn('closePage')}.`,
		],
		EVERY_TYPE,
		{ typeOptions: { rows: 2 } },
	),
];

/**
 * The answer page's words, language and style (n8n's names where n8n has them): the title, the
 * description and the ending for every response type, the button and the CSS for a form.
 */
export const FORM_PAGE_OPTIONS: INodeProperties[] = [
	{ ...PAGE_LANGUAGE_OPTION, displayOptions: EVERY_TYPE },
	stringField(
		[
			'Response Form Title',
			'responseFormTitle',
			`The title of the page the link opens. ${builtIn('title')}.`,
		],
		EVERY_TYPE,
	),
	stringField(
		[
			'Response Form Description',
			'responseFormDescription',
			'The text above the buttons or the form on the page; when empty, the message the person ' +
				'received (without the link)',
		],
		EVERY_TYPE,
	),
	stringField(
		[
			'Response Form Button Label',
			'responseFormButtonLabel',
			"The label of the button that sends the answer. Leave empty for the page language's own " +
				`words ("${say(ENGLISH, 'submit')}" in English, "${say(ENGLISH, 'send')}" for Free Text).`,
		],
		FORM_TYPES,
		{ placeholder: `e.g. ${say(ENGLISH, 'submit')}` },
	),
	stringField(
		[
			'Response Form Custom Styling',
			'responseFormCustomCss',
			'CSS that restyles the page. It cannot load anything: url(), @import and the like are removed.',
		],
		FORM_TYPES,
		{ typeOptions: { rows: 10, editor: 'cssEditor' }, placeholder: 'e.g. h1 { color: #0a7d32; }' },
	),
	...COMPLETION_OPTIONS,
];

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

export const APPROVAL_VALUES: INodeProperties[] = [
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
		default: '',
		placeholder: `e.g. ${say(ENGLISH, 'approve')}`,
		description: `The approve link's label in the message, and its button's on the page. ${builtIn('approve')}.`,
		displayOptions: shownWhen({ approvalType: ['single', 'double'] }),
	},
	{
		displayName: 'Disapprove Button Label',
		name: 'disapproveLabel',
		type: 'string',
		default: '',
		placeholder: `e.g. ${say(ENGLISH, 'decline')}`,
		description: `The decline link's label in the message, and its button's on the page. ${builtIn('decline')}.`,
		displayOptions: shownWhen({ approvalType: ['double'] }),
	},
];

const RESPONSE_TYPES: INodePropertyOptions[] = [
	{
		name: 'Approval',
		value: 'approval',
		description: 'The person approves (or declines) on the page the link opens',
	},
	{
		name: 'Choice',
		value: 'choice',
		description: 'The person taps one of your options on the page the link opens',
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

/** Choice's options: a label each, which the page shows on its button and the answer holds. */
function choiceFields(operation: Conditions): INodeProperties {
	return {
		displayName: 'Choices',
		name: 'choiceOptions',
		placeholder: 'Add choice',
		type: 'fixedCollection',
		default: { values: [{ label: '' }] },
		description: `The options the person picks from, one tap each (up to ${MAX_CHOICES})`,
		typeOptions: { multipleValues: true, sortable: true },
		options: [
			{
				displayName: 'Choice',
				name: 'values',
				values: [
					{
						displayName: 'Label',
						name: 'label',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Tuesday morning',
						description: "The button's text on the page, and the answer when it is tapped",
					},
				],
			},
		],
		displayOptions: shownWhen(operation, { responseType: ['choice'] }),
	};
}

/** Response Type, Choice's and Custom Form's fields and Approval Options, as n8n's messaging nodes name them. */
export function responseFields(resource: string): INodeProperties[] {
	return responseFieldsWhen(showFor(resource, SEND_AND_WAIT_OPERATION).show);
}

/**
 * The same fields shown under `operation`'s conditions: a Send and Wait operation's, or none for
 * the Omnichannel Messaging Trigger, whose page they describe alone.
 */
export function responseFieldsWhen(operation: Conditions): INodeProperties[] {
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
			displayOptions: shownWhen(operation),
		},
		choiceFields(operation),
		...customFormFields(operation),
		{
			displayName: 'Approval Options',
			name: 'approvalOptions',
			type: 'fixedCollection',
			placeholder: 'Add option',
			default: {},
			options: [{ displayName: 'Values', name: 'values', values: APPROVAL_VALUES }],
			displayOptions: shownWhen(operation, { responseType: ['approval'] }),
		},
	];
}

/** The link's label in the message when the person types an answer (n8n's name). */
export const MESSAGE_BUTTON_LABEL_OPTION: INodeProperties = {
	displayName: 'Message Button Label',
	name: 'messageButtonLabel',
	type: 'string',
	default: '',
	placeholder: `e.g. ${say(ENGLISH, 'respond')}`,
	description:
		'The text before the link in the message, when the response type is Choice, Free Text or ' +
		`Custom Form. ${builtIn('respond')}.`,
};

/**
 * The send options a send and wait keeps: one message, so no concurrency or pacing cap. Send Once
 * keeps a re-run from asking a person twice; a question asked before comes out skipped, unasked
 * and not waited for (waiting.ts).
 */
export const SEND_AND_WAIT_SHARED_OPTIONS = [
	'timeout',
	'sendOnceKey',
	'sendOnceScope',
	'sendOnceUnknown',
	'sendOnceHistory',
];
