import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

/** The item's input (a field, an expression) stops it; nothing was sent for it. */
export function invalidInputError(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	const error = new NodeOperationError(node, `${field} (item ${itemIndex}): ${problem}`, {
		itemIndex,
		description: `${hint ? `${hint} ` : ''}Nothing was sent for this item.`,
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field });
}

/** Before sending, a foreign error is about the item's input, typically a broken expression. */
export function parameterReadError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = error instanceof Error ? error.message : String(error);
	const built = new NodeOperationError(
		node,
		`Item ${itemIndex}: a parameter could not be read: ${message}`,
		{
			itemIndex,
			description: "Check the expressions of this item's fields. Nothing was sent for this item.",
		},
	);
	return withFacts(built, { outcome: 'notSent', reason: 'invalidInput' });
}

/** The node's saved resource and operation are none this version knows. */
export function unknownOperationError(
	node: INode,
	resource: unknown,
	operation: unknown,
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`The operation "${String(operation)}" of "${String(resource)}" is not supported`,
		{
			description: 'Open the node and choose the resource and operation again. Nothing was sent.',
		},
	);
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field: 'Operation' });
}
