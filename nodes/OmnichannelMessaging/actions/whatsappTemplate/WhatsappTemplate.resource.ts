import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { readOperation } from './read';
import { sendOperation } from '../../delivery';
import { getAllDescription, readTemplateList } from './getAll.operation';
import { getDescription, readTemplate } from './get.operation';
import { prepareSendTemplate, sendDescription } from './send.operation';

export const whatsappTemplateDescription: INodeProperties[] = [
	operationField(
		'whatsappTemplate',
		[
			{
				name: 'Get',
				value: 'get',
				action: 'Get a template',
				description:
					'Get one approved template of a channel, with its body, header, buttons and variables',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many templates',
				description: 'List the approved templates of a channel',
			},
			{
				name: 'Send',
				value: 'send',
				action: 'Send a template message',
				description:
					'Send an approved template to a phone number. The service queues it (status "ongoing"): ' +
					'queued is not yet delivered.',
			},
		],
		'send',
	),
	...sendDescription,
	...getDescription,
	...getAllDescription,
];

export const whatsappTemplateOperations = {
	get: readOperation(readTemplate),
	getAll: readOperation(readTemplateList),
	send: sendOperation(prepareSendTemplate),
};
