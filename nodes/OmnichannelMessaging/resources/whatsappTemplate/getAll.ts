import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { channelIdField, channelIdFrom } from '../../channel/fields';
import { PATHS } from '../../constants';
import { invalidInputError } from '../../errors';
import { showFor } from '../../helpers/displayOptions';
import { toPositiveInteger } from '../../helpers/values';
import { declarativeRead, objectsOf } from '../../transport/readAnswers';

export const getAllDescription: INodeProperties[] = [
	channelIdField('getAll'),
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
		displayOptions: { show: { resource: ['whatsappTemplate'], operation: ['getAll'], returnAll: [false] } },
	},
];

/** How many templates to return: all, or Limit, a whole number of 1 or more (checked before the request). */
function readLimit(this: IExecuteSingleFunctions): number {
	if (this.getNodeParameter('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	const raw = this.getNodeParameter('limit', 50);
	const limit = toPositiveInteger(raw);
	if (limit === undefined) {
		throw invalidInputError(
			this.getNode(),
			this.getItemIndex(),
			'Limit',
			`${JSON.stringify(raw) ?? 'nothing'} is not a whole number of 1 or more`,
		);
	}
	return limit;
}

/** One n8n item per template, capped by Limit unless Return All is on (Limit is checked before the request). */
export const getAllRouting = declarativeRead({
	path: PATHS.templateList,
	expect: 'templateList',
	query() {
		const channelId = channelIdFrom(this.getNodeParameter('channelId', undefined), this.getNode(), this.getItemIndex());
		readLimit.call(this);
		return { platform_id: channelId };
	},
	output(body) {
		return objectsOf(body).slice(0, readLimit.call(this));
	},
});
