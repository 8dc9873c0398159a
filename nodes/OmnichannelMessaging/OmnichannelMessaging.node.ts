import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { router } from './actions/router';
import * as message from './actions/message/Message.resource';
import * as whatsappTemplate from './actions/whatsappTemplate/WhatsappTemplate.resource';
import { CREDENTIAL_TYPE } from './constants';
import { editorHints, nodeBuilderHint } from './editorHints';
import { listSearch, resourceMapping } from './methods';
import { SEND_AND_WAIT_TOOLTIP, SEND_AND_WAIT_WEBHOOKS } from './sendAndWait/fields';
import { sendAndWaitWebhook } from './sendAndWait/webhook';
import type { ReadQuestion } from './sendAndWait/webhook';
import { logWaitAnswered } from './delivery';

/*
 * Resources, operations and fields are declared in the description; every operation runs through
 * `execute`, with no `routing`, `requestDefaults` or `customOperations`. Why: where an AI agent or
 * n8n's MCP Server Trigger calls the node as a tool through getInputConnectionData (AI Agent up
 * to 2.2, the MCP server), n8n runs `nodeType.execute` only, which it fills with its routing
 * runner for a node with requestDefaults, and never consults `customOperations`: the sends then
 * became an empty request. An `execute` of our own runs the same operation in every loop, and
 * reads and sends share one request style (the transport, n8n's request helper).
 */
export class OmnichannelMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Omnichannel Messaging',
		name: 'omnichannelMessaging',
		icon: { light: 'file:omnichannelMessaging.svg', dark: 'file:omnichannelMessaging.dark.svg' },
		group: ['output'],
		// Version 2 shows Channel as a list or an ID only; version 1 keeps each saved form (see channelIdFields).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send text, attachments and WhatsApp template messages to customers through the Omnichannel Messaging service',
		defaults: { name: 'Omnichannel Messaging' },
		usableAsTool: true,
		hints: editorHints,
		builderHint: nodeBuilderHint,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// Send and Wait for Response: the answer page, under n8n's waiting URL of the execution.
		webhooks: SEND_AND_WAIT_WEBHOOKS,
		waitingNodeTooltip: SEND_AND_WAIT_TOOLTIP,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Message', value: 'message' },
					{ name: 'WhatsApp Template', value: 'whatsappTemplate' },
				],
				default: 'message',
			},
			...message.description,
			...whatsappTemplate.description,
		],
	};

	methods = {
		listSearch,
		resourceMapping,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// The page repeats the question as the operation sent it: the message, or the template's body.
		const readQuestion: ReadQuestion =
			this.getNodeParameter('resource', 'message') === 'whatsappTemplate'
				? whatsappTemplate.sendAndWait.readQuestion
				: message.sendAndWait.readQuestion;
		const response = await sendAndWaitWebhook.call(this, readQuestion);
		if (response.workflowData) logWaitAnswered(this);
		return response;
	}
}
