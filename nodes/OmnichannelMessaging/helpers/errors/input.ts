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

/**
 * The item carries a file (n8n binary data) where the service takes a link: the service downloads
 * the file from a public URL, so the file has to be uploaded somewhere public first.
 */
export function fileInsteadOfLinkError(
	node: INode,
	itemIndex: number,
	field: string,
): NodeOperationError {
	return invalidInputError(
		node,
		itemIndex,
		field,
		'it is empty, and the item carries a file (binary data): the service takes a public link to ' +
			'the file, not the file itself',
		FILE_UPLOAD_ADVICE,
	);
}

/** What to do with a file the service cannot take. */
export const FILE_UPLOAD_ADVICE =
	'Upload the file first with a node before this one (for example to S3, Google Drive or ' +
	'Cloudinary), make it public, and pass its public URL in this field.';

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
