import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { getAllDescription, getAllRouting } from './getAll';
import { getDescription, getRouting } from './get';
import { sendDescription } from './send';

export { prepareSendTemplate } from './send';

export const whatsappTemplateDescription: INodeProperties[] = [
	operationField(
		'whatsappTemplate',
		[
			{
				name: 'Get',
				value: 'get',
				action: 'Get a template',
				description: 'Get one approved template of a channel, with its body, header, buttons and variables',
				routing: getRouting,
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many templates',
				description: 'List the approved templates of a channel',
				routing: getAllRouting,
			},
			{
				name: 'Send',
				value: 'send',
				action: 'Send a template message',
				description:
					'Send an approved template to a phone number. The service queues it (status "ongoing"): queued is not yet delivered.',
			},
		],
		'send',
	),
	...sendDescription,
	...getDescription,
	...getAllDescription,
];
