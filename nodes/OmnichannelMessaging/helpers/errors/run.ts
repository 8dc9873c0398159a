import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { errorItemJson, withFacts, factsOf } from './facts';
import type { Refused } from '../checked';

// What the user gave stops the run: an item's field or expression, the operation, the channel, the
// credential, a Send and Wait setting or its number of items.

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

/** The Channel list in the editor: this deployment offers none, so the channel is given by its ID. */
export function channelListMissingError(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'This service has no channel list (it answered 404)', {
		description: 'Switch Channel to "By ID" and enter the channel number, for example 12.',
	});
}

/**
 * Nothing was sent: no request could carry this credential field (or no URL). The refusal names the
 * field to fix and how (helpers/values.ts, checkCredential).
 */
export function invalidCredentialError(node: INode, refusal: Refused): NodeOperationError {
	const { reason, field, hint } = refusal;
	const error = new NodeOperationError(node, `Invalid credential: ${reason}`, {
		description:
			`Open the Omnichannel Messaging API credential and fix ${field ? `the ${field}` : 'it'}. ` +
			`${hint ? `${hint} ` : ''}Nothing was sent.`,
	});
	return withFacts(
		error,
		{ outcome: 'notSent', reason: 'invalidInput', field },
		{ cause: 'credential-invalid' },
	);
}

/**
 * Told by its type: an operation error whose cause, in n8n's own words for a failure, is an invalid
 * credential (a copy that names an item keeps it, see network.ts's templateLoadError).
 */
export function isCredentialError(error: unknown): error is NodeOperationError {
	return error instanceof NodeOperationError && error.failure?.cause === 'credential-invalid';
}

/** A credential error becomes every item's error item (a tool's answer); any other error is thrown on. */
export function credentialErrorItems(error: unknown, itemCount: number): INodeExecutionData[] {
	if (!isCredentialError(error)) throw error;
	return Array.from({ length: itemCount }, (_, itemIndex) => ({
		json: errorItemJson(error),
		pairedItem: { item: itemIndex },
	}));
}

/**
 * An execution the node refuses before it sends anything, for a reason of its setup rather than of
 * one item: the message says what happened, the description what to do instead.
 */
function invalidSetupError(node: INode, message: string, description: string): NodeOperationError {
	const error = new NodeOperationError(node, message, { description });
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput' });
}

/**
 * Send and Wait asks one person one question per execution: n8n resumes an execution once.
 * More items stop the node before anything is sent, rather than answering for all but the first.
 * The advice names the sub-workflow, not a loop: a loop around the node waits for each answer in
 * turn before asking the next person.
 */
export function sendAndWaitItemsError(node: INode, count: number): NodeOperationError {
	return invalidSetupError(
		node,
		`Send and Wait for Response takes one item per execution, and received ${count}`,
		'One execution waits for one answer. To ask many people at once, call a sub-workflow per ' +
			'item with Execute Workflow (Wait For Sub-Workflow Completion off); see "Asking many ' +
			'people at once" in the docs. Nothing was sent.',
	);
}

/**
 * Send and Wait as an agent's or MCP client's tool where nothing can wait for its answer. The model
 * reads this message (not the description), so it says what happened and what to use instead.
 */
export function sendAndWaitToolError(node: INode): NodeOperationError {
	return invalidSetupError(
		node,
		'Send and Wait for Response cannot wait for an answer when this agent or MCP client calls it ' +
			'as a tool, so nothing was sent. Use AI Agent 3 or later (it waits for the answer), connect ' +
			"the node as a Human review to approve another tool's calls, or put Send and Wait in a " +
			'workflow step.',
		'AI Agent up to 2.2 and the MCP Server Trigger run a tool inside their own loop and hand ' +
			'the model its result at once, before anyone could answer.',
	);
}

/**
 * Send and Wait in a run of `n8n execute`, as a workflow step or a tool: the command ends when the
 * execution starts waiting, so the answer would reach nobody. The model reads this message.
 */
export function sendAndWaitCliError(node: INode): NodeOperationError {
	return invalidSetupError(
		node,
		'Send and Wait for Response cannot wait for an answer in a run of n8n execute (the command ' +
			'line), so nothing was sent. Run the workflow in a running n8n instead: from its trigger ' +
			'once published, or from the editor.',
		'n8n execute stops when the execution starts to wait: no answer could reach this run, ' +
			'and the execution would be left waiting.',
	);
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

// The run's summary: the items sent, failed and not started, cancelled or stopped by an error.

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
