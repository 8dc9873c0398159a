import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { shownWhen } from './helpers/displayOptions';
import {
	APPROVAL_VALUES,
	FORM_PAGE_OPTIONS,
	PAGE_LANGUAGE_OPTION,
	responseFieldsWhen,
} from './sendAndWait/fields';
import { stringField } from './sendAndWait/elementFields';
import { BROWSER } from './sendAndWait/texts';
import { answerLinkWebhook } from './sendAndWait/webhook';

/*
 * The service sends no webhooks: an answer comes back only through a link in the message. A send
 * with an Answer Link (Message → Send Text, WhatsApp Template → Send) puts this trigger's
 * Production URL in every message, sealed for its recipient; each answer on the page it opens
 * starts one execution. Nothing waits, so a broadcast to thousands leaves no waiting executions.
 * The page is Send and Wait's, described by the same parameters, under the same names.
 */

const COPY_URL_NOTICE: INodeProperties = {
	displayName:
		'Under Webhook URLs above, pick Production URL and copy it into Options → Answer Link → Trigger ' +
		'URL of the Omnichannel Messaging node that sends the messages, with the same credential. Answers ' +
		'start this workflow once it is published.',
	name: 'copyUrlNotice',
	type: 'notice',
	default: '',
};

/**
 * Two webhooks on one path, as n8n's Form Trigger has: GET shows the page, POST answers. The
 * path is the node's webhook ID, so the Production URL is `/webhook/<webhook ID>`. The GET's URL
 * is the same, so the editor shows the POST's only. There is nothing to register at the service
 * (it sends no webhooks: the links are the registration), hence no webhookMethods.
 */
const ANSWER_LINK_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'setup',
		httpMethod: 'GET',
		responseMode: 'onReceived',
		path: '={{ $webhookId }}',
		isFullPath: true,
		ndvHideUrl: true,
	},
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '={{ $webhookId }}',
		isFullPath: true,
	},
];

const REFUSAL_MESSAGE: INodeProperties = stringField(
	[
		'Refusal Message',
		'refusalMessage',
		'The message of the page a link shows when it cannot be answered (changed, cut short ' +
			"or expired). Leave empty for the page language's own words, which say why.",
	],
	undefined,
	{ typeOptions: { rows: 2 } },
);

/** Send and Wait's page options, of which the trigger's description is the question. */
const FORM_PAGE: INodeProperties[] = FORM_PAGE_OPTIONS.map((option) =>
	option.name === 'responseFormDescription'
		? {
				...option,
				description: 'The question above the buttons or the form on the page the link opens',
			}
		: option,
);

const FOR_APPROVAL = shownWhen({ '/responseType': ['approval'] });
const pageOption = (name: string) => FORM_PAGE.find((option) => option.name === name)!;
const approvalLabel = (name: string) => ({
	...APPROVAL_VALUES.find((value) => value.name === name)!,
	displayOptions: FOR_APPROVAL,
});

const CHOICE_LABELS: INodeProperties = stringField(
	[
		'Choice Labels',
		'choiceLabels',
		"The choices' labels on this language's pages, one a line in the order of Choices. A line " +
			"left empty shows that choice's Label, and a tap records the Label whatever the page showed.",
	],
	shownWhen({ '/responseType': ['choice'] }),
	{ typeOptions: { rows: 4 }, placeholder: 'e.g. Bestätigen\nVerschieben\nAbsagen' },
);

/** A language's text: the field for every page that it replaces, and what it is. */
const textIn = (field: INodeProperties, what: string): INodeProperties => ({
	...field,
	description: `${what} on this language's pages. Leave empty to use ${field.displayName}.`,
});

/**
 * Texts per Language: the builder's words for the pages of one language each (a link's language,
 * or the browser's), named as the fields they replace and shown for the same response types.
 */
const TEXTS_PER_LANGUAGE: INodeProperties = {
	displayName: 'Texts per Language',
	name: 'textsPerLanguage',
	type: 'fixedCollection',
	placeholder: 'Add Language',
	default: {},
	typeOptions: { multipleValues: true },
	description:
		"Your texts for the pages in a language, in place of those set for every page. The answer's " +
		'data is the same in every language.',
	options: [
		{
			displayName: 'Language',
			name: 'values',
			values: [
				{
					...PAGE_LANGUAGE_OPTION,
					displayName: 'Language',
					name: 'language',
					description: "The language of the pages these texts are for: a link's, or a browser's",
					options: PAGE_LANGUAGE_OPTION.options!.filter(
						(option) => 'value' in option && option.value !== BROWSER,
					),
				},
				textIn(pageOption('responseFormTitle'), 'The title'),
				textIn(pageOption('responseFormDescription'), 'The question'),
				CHOICE_LABELS,
				textIn(approvalLabel('approveLabel'), "The approve button's label"),
				textIn(approvalLabel('disapproveLabel'), "The decline button's label"),
				textIn(pageOption('responseFormButtonLabel'), "The button's label"),
				textIn(pageOption('completionTitle'), 'The title after the answer'),
				textIn(pageOption('completionMessage'), 'The message after the answer'),
				textIn(REFUSAL_MESSAGE, "A refused link's message"),
			],
		},
	],
};

/**
 * Send and Wait's page options; the trigger has no message, so its description is the question,
 * its links can be refused (changed, expired), so it has a Refusal Message, and each link carries
 * its page's language, so it has texts per language.
 */
const PAGE_OPTIONS: INodeProperties[] = [
	...FORM_PAGE.map((option) =>
		option.name === 'pageLanguage'
			? {
					...option,
					description:
						"The language of the page, for links that do not carry their own (the send's Answer " +
						"Link → Page Language) and for links that cannot be read. From the Customer's Browser " +
						"uses the first of the browser's languages the page has, else English.",
				}
			: option,
	),
	REFUSAL_MESSAGE,
	TEXTS_PER_LANGUAGE,
];

export class OmnichannelMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Omnichannel Messaging Trigger',
		name: 'omnichannelMessagingTrigger',
		icon: { light: 'file:omnichannelMessaging.svg', dark: 'file:omnichannelMessaging.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "Answers: " + $parameter["responseType"] }}',
		description:
			'Starts the workflow when a customer answers through an answer link sent by Omnichannel Messaging',
		defaults: { name: 'Omnichannel Messaging Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: ANSWER_LINK_WEBHOOKS,
		eventTriggerDescription: 'Waiting for an answer through an answer link',
		activationMessage:
			'Answers through answer links to the Production URL now start this workflow.',
		triggerPanel: {
			header: 'Listen for an answer through an answer link',
			executionsHelp: {
				inactive:
					'Answer links always name the Production URL. To try one here, open it with /webhook-test/ ' +
					'in place of /webhook/ and answer while the editor listens. Publish the workflow for the ' +
					'links to start it.',
				active:
					'The workflow is published: every answer through a link to the Production URL starts it. ' +
					'Those executions show in the Executions list.',
			},
			activationHint: {
				inactive: 'Publish this workflow to receive answers through the Production URL.',
				active: 'Answers through the Production URL start this workflow automatically.',
			},
		},
		properties: [
			COPY_URL_NOTICE,
			...responseFieldsWhen({}),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: PAGE_OPTIONS,
			},
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// A credential that cannot be read leaves the person a page that says so, never n8n's error.
		const readApiKey = async () =>
			await this.getCredentials(CREDENTIAL_TYPE).then(
				(credential) => (typeof credential.apiKey === 'string' ? credential.apiKey : undefined),
				() => undefined,
			);
		const credential = this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? undefined;
		return await answerLinkWebhook.call(this, credential, readApiKey);
	}
}
