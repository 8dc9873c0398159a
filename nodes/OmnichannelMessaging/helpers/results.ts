import type { INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItemJson } from './errors';

/** One slot per input item, so the output keeps input order. */
export type ItemResults = Array<INodeExecutionData | undefined>;

/**
 * With On Error set to "Continue (using error output)", n8n moves an item to the error output when
 * the item has `error` set (every n8n), or when its json holds only error words (2.x accepts
 * `details` among them, 1.x does not). An `error` n8n can see would also make it replace the
 * item's json with `{ error: message }` after routing, so it is not enumerable: the engine's copy
 * of the routed item (a spread, made when it pairs the item with its input) leaves it behind, and
 * no execution data ever holds it. It is set only there: on the regular output nothing copies the
 * item, and its json would be replaced.
 */
function routedToErrorOutput(error: NodeApiError | NodeOperationError): boolean {
	return error.node?.onError === 'continueErrorOutput' && !error.node.type.endsWith('Tool');
}

export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const item: INodeExecutionData = { json: errorItemJson(error), pairedItem: { item: itemIndex } };
	if (routedToErrorOutput(error)) {
		// Writable: n8n 1.63 clears it after routing.
		Object.defineProperty(item, 'error', {
			value: error,
			enumerable: false,
			writable: true,
			configurable: true,
		});
	}
	return item;
}

export function outputOf(results: ItemResults): INodeExecutionData[][] {
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
