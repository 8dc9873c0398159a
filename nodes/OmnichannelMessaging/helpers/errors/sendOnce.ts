import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

/** n8n has had the processed-data store since 1.64. */
export function sendOnceUnsupportedError(node: INode): NodeOperationError {
	const error = new NodeOperationError(node, 'Send Once per Key needs n8n 1.64 or later', {
		description:
			'This n8n has no processed-data store for nodes. Update n8n, or clear the Send Once per ' +
			'Key option. Nothing was sent.',
	});
	return withFacts(error, {
		outcome: 'notSent',
		reason: 'invalidInput',
		field: 'Send Once per Key',
	});
}

/** Nothing more is sent, since nothing could be checked. */
export function sendOnceStoreError(node: INode, cause: unknown): NodeOperationError {
	const reason = cause instanceof Error ? cause.message : String(cause);
	const error = new NodeOperationError(node, 'The send-once history could not be read or written', {
		description: `n8n's processed-data store answered: ${reason.slice(0, 300)}. Messages not yet sent were not sent.`,
	});
	return withFacts(error, { outcome: 'notSent', reason: 'serviceError' });
}

/** The first keys would be forgotten while the run sends. */
export function sendOnceHistoryTooSmallError(
	node: INode,
	keys: number,
	history: number,
): NodeOperationError {
	const count = (n: number) => n.toLocaleString('en-US');
	const error = new NodeOperationError(
		node,
		`This run has ${count(keys)} send-once keys, more than Send Once History remembers (${count(history)})`,
		{
			description:
				`Raise Options → Send Once History to at least ${count(keys)}, or send fewer items per ` +
				`run. Nothing was sent.`,
		},
	);
	return withFacts(error, {
		outcome: 'notSent',
		reason: 'invalidInput',
		field: 'Send Once History',
	});
}
