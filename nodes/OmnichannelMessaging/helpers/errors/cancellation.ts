import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

/** The execution was stopped before this item's message started. */
export function itemCancelledError(node: INode, itemIndex: number): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`The execution was cancelled: the message for item ${itemIndex} was not sent`,
		{ itemIndex },
	);
	return withFacts(error, { outcome: 'notSent', reason: 'notStarted' });
}
