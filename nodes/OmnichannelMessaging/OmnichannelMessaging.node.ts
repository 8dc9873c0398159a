import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { BASE_URL_EXPRESSION, CREDENTIAL_TYPE } from './constants';
import { searchChannels } from './listSearch/searchChannels';
import { searchTemplates } from './listSearch/searchTemplates';
import { getTemplateVariables } from './resourceMapping/getTemplateVariables';
import { messageDescription, prepareSendAttachment, prepareSendText } from './resources/message';
import { prepareSendTemplate, whatsappTemplateDescription } from './resources/whatsappTemplate';
import { runSendPipeline } from './send/pipeline';
import type { PrepareSend } from './send/session';

function sendOperation(prepare: PrepareSend) {
	return async function (this: IExecuteFunctions) {
		return await runSendPipeline.call(this, prepare);
	};
}

export class OmnichannelMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Omnichannel Messaging',
		name: 'omnichannelMessaging',
		icon: { light: 'file:omnichannelMessaging.svg', dark: 'file:omnichannelMessaging.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send text, attachments and WhatsApp template messages to customers through the Omnichannel Messaging service',
		defaults: { name: 'Omnichannel Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// The reads (Get, Get Many) run through n8n's routing; their answers, errors included, reach postReceive.
		requestDefaults: {
			baseURL: BASE_URL_EXPRESSION,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			ignoreHttpStatusErrors: true,
		},
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
			...messageDescription,
			...whatsappTemplateDescription,
		],
	};

	methods = {
		listSearch: { searchChannels, searchTemplates },
		resourceMapping: { getTemplateVariables },
	};

	customOperations = {
		message: {
			sendText: sendOperation(prepareSendText),
			sendAttachment: sendOperation(prepareSendAttachment),
		},
		whatsappTemplate: {
			send: sendOperation(prepareSendTemplate),
		},
	};
}
