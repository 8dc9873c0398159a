import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { credentialErrorItems, unknownOperationError } from './errors';
import { runsAsTool } from './helpers/toolCall';
import { searchChannels } from './listSearch/searchChannels';
import { searchTemplates } from './listSearch/searchTemplates';
import { getTemplateVariables } from './resourceMapping/getTemplateVariables';
import { messageDescription, messageOperations } from './resources/message';
import type { Operations } from './resources/operations';
import { whatsappTemplateDescription, whatsappTemplateOperations } from './resources/whatsappTemplate';

const OPERATIONS: Record<string, Operations> = {
	message: messageOperations,
	whatsappTemplate: whatsappTemplateOperations,
};

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
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send text, attachments and WhatsApp template messages to customers through the Omnichannel Messaging service',
		defaults: { name: 'Omnichannel Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0);
		const operation = this.getNodeParameter('operation', 0);
		const run = OPERATIONS[String(resource)]?.[String(operation)];
		if (!run) throw unknownOperationError(this.getNode(), resource, operation);
		// A tool's caller (a model) reads only its answer: a credential it cannot use is said there.
		// Asked only on a failure: getNode() deep-copies the node, on every execution otherwise.
		return await run.call(this).catch((error: unknown) => {
			if (!runsAsTool(this)) throw error;
			return [credentialErrorItems(error, this.getInputData().length)];
		});
	}
}
