import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { sendAttachmentDescription } from './sendAttachment';
import { sendTextDescription } from './sendText';

export { prepareSendAttachment } from './sendAttachment';
export { prepareSendText } from './sendText';

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
