import type { INodeProperties } from 'n8n-workflow';

import { operationField } from '../../helpers/displayOptions';
import { SEND_AND_WAIT_OPTION } from '../../sendAndWait/fields';

import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as send from './send.operation';
import * as sendAndWait from './sendAndWait.operation';

export { get, getAll, send, sendAndWait };

export const description: INodeProperties[] = [
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
			{
				...SEND_AND_WAIT_OPTION,
				action: 'Send template and wait for response',
				description:
					'Send an approved template with a link, in a variable you choose, to a page where the ' +
					'person answers; the workflow waits for the answer',
			},
		],
		'send',
	),
	...send.description,
	...sendAndWait.description,
	...get.description,
	...getAll.description,
];
