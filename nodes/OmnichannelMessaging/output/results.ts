import type { INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItemJson } from '../errors';

/** One slot per input item: the pipeline's steps fill them, the output keeps input order. */
export type ItemResults = Array<INodeExecutionData | undefined>;

/** A failed item: the message, the description, and the facts a workflow can branch on (details.outcome, details.reason, …). */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	return { json: errorItemJson(error), pairedItem: { item: itemIndex } };
}

export function outputOf(results: ItemResults): INodeExecutionData[][] {
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
