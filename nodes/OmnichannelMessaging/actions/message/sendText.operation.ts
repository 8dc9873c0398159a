import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../helpers/displayOptions';
import { invalidInputError } from '../../helpers/errors/run';
import { runSendPipeline } from '../../delivery';
import type { PrepareSend } from '../../delivery';
import { toServiceString } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import {
	answerLinkFor,
	answerLinkOption,
	hasAnswerLink,
	textWithLink,
} from '../../answerLinks/linkOption';
import { messageSendFields, readCustomerId, textRequest } from './customer';

export const description: INodeProperties[] = messageSendFields(
	'sendText',
	[
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 4 },
			placeholder: 'e.g. Hi Anna, your order 1042 has shipped.',
			description: 'The message the customer receives, as plain text',
			displayOptions: showFor('message', 'sendText'),
		},
	],
	[answerLinkOption('text')],
);

/**
 * One item becomes one text message to its customer, with its Answer Link under the text when
 * the option is set; or the item's input error.
 */
const prepare: PrepareSend = async function (itemIndex, session) {
	const { context } = session;
	const customerId = readCustomerId(context, itemIndex);
	const raw = context.get('text', itemIndex, '');
	const text = toServiceString(raw);
	if (text === undefined || text.trim() === '') {
		throw invalidInputError(
			context.node,
			itemIndex,
			'Text',
			text === undefined ? `${JSON.stringify(raw) ?? 'nothing'} is not text` : 'it is empty',
			'Enter the message to send.',
		);
	}
	if (!hasAnswerLink(context)) return textRequest(customerId, text);
	const link = await answerLinkFor(session, itemIndex, { customerId });
	return textRequest(customerId, textWithLink(context, itemIndex, text, link));
};

/** Each item is sent as one text message through the delivery engine. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendPipeline.call(this, prepare, context);
}
