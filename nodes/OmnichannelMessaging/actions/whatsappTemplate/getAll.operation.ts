import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { channelIdFields, channelIdFrom, readRequestOptionsField } from '../common.descriptions';
import { invalidInputError } from '../../helpers/errors/run';
import { showFor, shownWhen } from '../../helpers/displayOptions';
import { objectsOf, toPositiveInteger } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import { runReadPipeline } from './read';
import type { ReadItem } from './read';
import { fetchTemplateList } from '../../transport';

export const description: INodeProperties[] = [
	...channelIdFields('getAll'),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: showFor('whatsappTemplate', 'getAll'),
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description: 'Max number of results to return',
		displayOptions: shownWhen(showFor('whatsappTemplate', 'getAll').show, { returnAll: [false] }),
	},
	readRequestOptionsField('whatsappTemplate', 'getAll'),
];

/** How many templates to return: all, or Limit, a whole number of 1 or more. */
function readLimit(context: OperationContext, itemIndex: number): number {
	if (context.get('returnAll', itemIndex, false) === true) return Number.POSITIVE_INFINITY;
	const raw = context.get('limit', itemIndex, 50);
	const limit = toPositiveInteger(raw);
	if (limit === undefined) {
		throw invalidInputError(
			context.node,
			itemIndex,
			'Limit',
			`${JSON.stringify(raw) ?? 'nothing'} is not a whole number of 1 or more`,
		);
	}
	return limit;
}

/** One n8n item per template, capped by Limit unless Return All is on (Limit is checked before the request). */
const readTemplateList: ReadItem = async function (itemIndex, connection, context) {
	const channelId = channelIdFrom(
		context.get('channelId', itemIndex, undefined),
		context.node,
		itemIndex,
	);
	const limit = readLimit(context, itemIndex);
	return objectsOf(await fetchTemplateList.call(this, connection, channelId, { itemIndex })).slice(
		0,
		limit,
	);
};

/** Each item lists the templates of one channel. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runReadPipeline.call(this, readTemplateList, context);
}
