import type { INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItemJson } from './errors';

/** One slot per input item, so the output keeps input order. */
export type ItemResults = Array<INodeExecutionData | undefined>;

export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	return { json: errorItemJson(error), pairedItem: { item: itemIndex } };
}

export function outputOf(results: ItemResults): INodeExecutionData[][] {
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
