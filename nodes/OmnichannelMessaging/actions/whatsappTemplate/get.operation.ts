import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	channelIdFields,
	channelIdFrom,
	readRequestOptionsField,
	templateIdField,
	templateIdFrom,
} from '../common.descriptions';
import type { OperationContext } from '../../helpers/values';
import { runReadPipeline } from './read';
import type { ReadItem } from './read';
import { fetchTemplate } from '../../transport';

export const description: INodeProperties[] = [
	...channelIdFields('get'),
	templateIdField('get'),
	readRequestOptionsField('whatsappTemplate', 'get'),
];

/** The template as the service has it now (never from the sends' cache). */
const readTemplate: ReadItem = async function (itemIndex, connection, context) {
	const { node } = context;
	const where = {
		channelId: channelIdFrom(context.get('channelId', itemIndex, undefined), node, itemIndex),
		templateId: templateIdFrom(context.get('templateId', itemIndex, undefined), node, itemIndex),
	};
	return [
		(await fetchTemplate.call(this, connection, where, { itemIndex })) as unknown as IDataObject,
	];
};

/** Each item reads one template. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runReadPipeline.call(this, readTemplate, context);
}
