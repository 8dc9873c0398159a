import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../helpers/displayOptions';
import { runSendPipeline, sendOptionsField } from '../../delivery';
import type { OperationContext } from '../../helpers/values';
import { prepareTemplateSend } from './sendInput';
import { TEMPLATE_OPTIONS, templateMessageFields } from './sendFields';

export const description: INodeProperties[] = [
	{
		displayName:
			'The service queues template messages: status "ongoing" in the output means queued, not yet delivered',
		name: 'queuedNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor('whatsappTemplate', 'send'),
	},
	...templateMessageFields('send'),
	sendOptionsField({ resource: 'whatsappTemplate', operation: 'send', extra: TEMPLATE_OPTIONS }),
];

const prepare = prepareTemplateSend();

/** Each item is sent as one template message through the delivery engine. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendPipeline.call(this, prepare, context);
}
