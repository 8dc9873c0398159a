import type { INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

/** One slot per input item: the pipeline's steps fill them, the output keeps input order. */
export type ItemResults = Array<INodeExecutionData | undefined>;

export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

export function outputOf(results: ItemResults): INodeExecutionData[][] {
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
