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
import { responseFieldsWhen } from './sendAndWait/fields';
import { TRIGGER_PAGE_OPTIONS } from './sendAndWait/triggerFields';
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
				options: TRIGGER_PAGE_OPTIONS,
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
