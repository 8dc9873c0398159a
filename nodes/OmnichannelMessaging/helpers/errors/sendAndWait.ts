import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

/**
 * Send and Wait asks one person one question per execution: n8n resumes an execution once.
 * More items stop the node before anything is sent, rather than answering for all but the first.
 */
export function sendAndWaitItemsError(node: INode, count: number): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`Send and Wait for Response takes one item per execution, and received ${count}`,
		{
			description:
				'One execution waits for one answer. To ask about each item, put the node in a Loop Over ' +
				'Items node with batch size 1, or call a sub-workflow per item. Nothing was sent.',
		},
	);
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput' });
}

/** A Send and Wait setting (Response Type, Limit Wait Time, Link Variable) cannot be used. */
export function sendAndWaitSettingError(
	node: INode,
	field: string,
	problem: string,
): NodeOperationError {
	const error = new NodeOperationError(node, `${field}: ${problem}`, {
		description: `Change ${field} in the node. Nothing was sent.`,
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field });
}
