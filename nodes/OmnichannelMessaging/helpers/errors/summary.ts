// The run's summary: the items sent, failed and not started, cancelled or stopped by an error.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { factsOf, withFacts } from './facts';

/** The execution was stopped before this item's message started. */
export function itemCancelledError(node: INode, itemIndex: number): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`The execution was cancelled: the message for item ${itemIndex} was not sent`,
		{ itemIndex },
	);
	return withFacts(error, { outcome: 'notSent', reason: 'notStarted' });
}

export function executionCancelledError(node: INode, sent: number[]): NodeOperationError {
	return new NodeOperationError(node, 'The execution was cancelled', {
		description: `Sent: items ${describeIndexes(sent)}. The other items were not sent.`,
	});
}

/** The error with more description, as a new error: errors are never edited in place. */
export function withMoreDescription(
	node: INode,
	error: NodeApiError | NodeOperationError,
	more: string,
): NodeApiError | NodeOperationError {
	const description = [error.description, more].filter(Boolean).join(' ');
	const itemIndex = error.context.itemIndex as number | undefined;
	const copy =
		error instanceof NodeApiError
			? new NodeApiError(
					node,
					(error.errorResponse as JsonObject | undefined) ?? { message: error.message },
					{
						itemIndex,
						httpCode: error.httpCode ?? undefined,
						message: error.message,
						description,
					},
				)
			: new NodeOperationError(node, error.message, { itemIndex, description });
	return withFacts(copy, factsOf(error), error.failure);
}

/** Every item was checked first, so nothing went out. */
export function nothingSentError(node: INode, error: NodeApiError | NodeOperationError) {
	return withMoreDescription(
		node,
		error,
		'No message was sent for any item: every item is checked before the first is sent.',
	);
}

export function partialSendError(
	node: INode,
	error: NodeApiError | NodeOperationError,
	items: { sent: number[]; failed: number[]; notStarted: number[] },
) {
	return withMoreDescription(
		node,
		error,
		[
			`Sent: items ${describeIndexes(items.sent)}.`,
			`Failed: items ${describeIndexes(items.failed)}.`,
			`Not started: items ${describeIndexes(items.notStarted)}.`,
			"Send again only the items that were not sent (n8n's Retry On Fail would send them all again).",
		].join(' '),
	);
}

/** Item indexes as ranges, for example "0-3, 7, 9-10". */
export function describeIndexes(indexes: number[]): string {
	if (indexes.length === 0) return 'none';
	const sorted = [...indexes].sort((a, b) => a - b);
	const parts: string[] = [];
	let start = sorted[0];
	let previous = sorted[0];
	for (const index of [...sorted.slice(1), Number.NaN]) {
		if (index === previous + 1) {
			previous = index;
			continue;
		}
		parts.push(start === previous ? `${start}` : `${start}-${previous}`);
		start = index;
		previous = index;
	}
	return parts.join(', ');
}
