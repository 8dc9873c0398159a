import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { SEND_AND_WAIT_OPTION } from '../../sendAndWait/fields';

import * as sendAndWait from './sendAndWait.operation';
import * as sendAttachment from './sendAttachment.operation';
import * as sendText from './sendText.operation';

export { sendAndWait, sendAttachment, sendText };

export const description: INodeProperties[] = [
	operationField(
		'message',
		[
			SEND_AND_WAIT_OPTION,
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
	...sendText.description,
	...sendAttachment.description,
	...sendAndWait.description,
];
