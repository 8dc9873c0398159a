import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import { sendOptionsField } from '../../delivery';
import type { PrepareSend } from '../../delivery';
import { readRequiredText, toServiceString } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import {
	MESSAGE_BUTTON_LABEL_OPTION,
	FORM_PAGE_OPTIONS,
	SEND_AND_WAIT_SHARED_OPTIONS,
	messageField,
	responseFields,
} from '../../sendAndWait/fields';
import {
	LIMIT_WAIT_TIME_OPTION,
	answerLinks,
	messageWithLinks,
	resumeUrlSigner,
	runSendAndWait,
} from '../../sendAndWait/waiting';
import type { SendAndWaitSettings } from '../../sendAndWait/waiting';
import type { ReadParameter } from '../../sendAndWait/webhook';
import { customerIdField, readCustomerId, textRequest } from './customer';

export const description: INodeProperties[] = [
	customerIdField(SEND_AND_WAIT_OPERATION),
	messageField('message'),
	...responseFields('message'),
	sendOptionsField({
		resource: 'message',
		operation: SEND_AND_WAIT_OPERATION,
		shared: SEND_AND_WAIT_SHARED_OPTIONS,
		extra: [LIMIT_WAIT_TIME_OPTION, MESSAGE_BUTTON_LABEL_OPTION, ...FORM_PAGE_OPTIONS],
	}),
];

/** The item becomes one text: the message, then the answer link(s), each after its label. */
function prepareFor({ config }: SendAndWaitSettings): PrepareSend {
	return async function (itemIndex, { context }) {
		const customerId = readCustomerId(context, itemIndex);
		const message = readRequiredText(context, itemIndex, {
			parameter: 'message',
			field: 'Message',
			what: 'a message',
			advice: 'enter the question the person answers',
		});
		const links = answerLinks(resumeUrlSigner(this), config);
		const text = messageWithLinks(message, links);
		return textRequest(customerId, text);
	};
}

/** Sends the one item's message, then waits for the person's answer. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendAndWait.call(this, prepareFor, context);
}

/** The page's question: the message as sent, without the links, which lead back to the page. */
export async function readQuestion(
	this: IWebhookFunctions,
	read: ReadParameter,
): Promise<string | undefined> {
	return toServiceString(read('message', ''))?.trim();
}
