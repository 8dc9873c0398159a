import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { sendOperation } from '../../delivery';
import { prepareSendAttachment, sendAttachmentDescription } from './sendAttachment.operation';
import { prepareSendText, sendTextDescription } from './sendText.operation';

export const messageDescription: INodeProperties[] = [
	operationField(
		'message',
		[
			{
				name: 'Send Attachment',
				value: 'sendAttachment',
				action: 'Send an attachment',
				description: 'Send an image, video or document to a customer on any connected platform',
			},
			{
				name: 'Send Text',
				value: 'sendText',
				action: 'Send a text message',
				description: 'Send a plain text message to a customer on any connected platform',
			},
		],
		'sendText',
	),
	...sendTextDescription,
	...sendAttachmentDescription,
];

export const messageOperations = {
	sendText: sendOperation(prepareSendText),
	sendAttachment: sendOperation(prepareSendAttachment),
};
