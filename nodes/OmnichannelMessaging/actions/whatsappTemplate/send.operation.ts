import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../helpers/displayOptions';
import { runSendPipeline, sendOptionsField } from '../../delivery';
import type { SendSession } from '../../delivery';
import type { OperationContext } from '../../helpers/values';
import {
	answerLinkFor,
	answerLinkOption,
	hasAnswerLink,
	linkVariableOf,
} from '../../answerLinks/linkOption';
import { prepareTemplateSend, withLinkVariable } from './sendInput';
import { TEMPLATE_OPTIONS, templateMessageFields } from './sendFields';
import { ANSWER_LINK_VARIABLE } from '../../constants';

export const description: INodeProperties[] = [
	{
		displayName:
			'The service queues template messages: status "ongoing" in the output means queued, not yet delivered',
		name: 'queuedNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor('whatsappTemplate', 'send'),
	},
	...templateMessageFields('send', [ANSWER_LINK_VARIABLE]),
	sendOptionsField({
		resource: 'whatsappTemplate',
		operation: 'send',
		extra: [...TEMPLATE_OPTIONS, answerLinkOption('template')],
	}),
];

/** With an Answer Link, its Link Variable receives the item's link, sealed for the phone it goes to. */
async function addAnswerLink(
	itemIndex: number,
	session: SendSession,
	values: Record<string, string>,
	phone: string,
): Promise<Record<string, string>> {
	const { context } = session;
	if (!hasAnswerLink(context)) return values;
	const position = linkVariableOf(context, itemIndex);
	const link = await answerLinkFor(session, itemIndex, { phone });
	return withLinkVariable(context, itemIndex, values, position, link);
}

const prepare = prepareTemplateSend(addAnswerLink);

/** Each item is sent as one template message through the delivery engine. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendPipeline.call(this, prepare, context);
}
