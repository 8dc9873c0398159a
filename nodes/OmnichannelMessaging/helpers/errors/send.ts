import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { factsOf, withFacts } from './facts';
import { requestFailureError } from './network';

/** What failed while sending an item: its request, or the template it is checked against. */
export function sendFailureError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return requestFailureError(node, error, { itemIndex, delivery: 'unknown' });
}

/** A service answer keeps its HTTP code; a credential problem keeps its own words. */
export function templateLoadError(
	node: INode,
	error: unknown,
	where: { channelId: number; templateId: number; itemIndex: number },
): NodeApiError | NodeOperationError {
	const cause = error as NodeApiError | NodeOperationError;
	const facts = { ...factsOf(cause), outcome: 'notSent' as const };
	if (cause instanceof NodeOperationError) {
		const copy = new NodeOperationError(node, cause.message, {
			itemIndex: where.itemIndex,
			description: cause.description ?? undefined,
		});
		return withFacts(copy, facts, cause.failure);
	}
	const loadError = new NodeApiError(
		node,
		(cause.errorResponse as JsonObject | undefined) ?? { message: cause.message },
		{
			itemIndex: where.itemIndex,
			httpCode: cause.httpCode ?? undefined,
			message:
				`Template ${where.templateId} of channel ${where.channelId} could not be loaded (item ` +
				`${where.itemIndex}): ${cause.message}`,
			description: `${cause.description ?? ''} Nothing was sent for this item.`.trim(),
		},
	);
	return withFacts(loadError, facts, cause.failure);
}
