import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { PACING } from '../../constants';
import type { CredentialProblem } from '../credential';
import { errorItemJson, factsOf, withFacts } from './facts';
import { requestFailureError } from './service';

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

/** Nothing was sent: no request could carry this credential field (or no URL). */
export function invalidCredentialError(node: INode, problem: CredentialProblem): NodeOperationError {
	const error = new NodeOperationError(node, `Invalid credential: ${problem.reason}`, {
		description: `Open the Omnichannel Messaging API credential and fix the ${problem.field}. ${problem.hint} Nothing was sent.`,
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field: problem.field }, { cause: 'credential-invalid' });
}

/** A credential error becomes every item's error item (a tool's answer); any other error is thrown on. */
export function credentialErrorItems(error: unknown, itemCount: number): INodeExecutionData[] {
	const aboutCredential = error instanceof NodeOperationError && error.message.startsWith('Invalid credential: ');
	if (!aboutCredential) throw error;
	return Array.from({ length: itemCount }, (_, itemIndex) => ({ json: errorItemJson(error), pairedItem: { item: itemIndex } }));
}

/** Before sending, a foreign error is about the item's input, typically a broken expression. */
export function parameterReadError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = error instanceof Error ? error.message : String(error);
	const built = new NodeOperationError(node, `Item ${itemIndex}: a parameter could not be read: ${message}`, {
		itemIndex,
		description: "Check the expressions of this item's fields. Nothing was sent for this item.",
	});
	return withFacts(built, { outcome: 'notSent', reason: 'invalidInput' });
}

export function sendFailureError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
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
		const copy = new NodeOperationError(node, cause.message, { itemIndex: where.itemIndex, description: cause.description ?? undefined });
		return withFacts(copy, facts, cause.failure);
	}
	const loadError = new NodeApiError(node, (cause.errorResponse as JsonObject | undefined) ?? { message: cause.message }, {
		itemIndex: where.itemIndex,
		httpCode: cause.httpCode ?? undefined,
		message: `Template ${where.templateId} of channel ${where.channelId} could not be loaded (item ${where.itemIndex}): ${cause.message}`,
		description: `${cause.description ?? ''} Nothing was sent for this item.`.trim(),
	});
	return withFacts(loadError, facts, cause.failure);
}

export function rateLimitedError(
	node: INode,
	itemIndex: number,
	attempts: number,
	why: 'noProgress' | 'waitTooLong',
	retryAfterMs?: number,
): NodeApiError {
	const because =
		why === 'noProgress'
			? `no message to the service went through for ${Math.round(PACING.progressWindowMs / 1000)} seconds`
			: `it asked to wait ${Math.round((retryAfterMs ?? 0) / 1000)} seconds`;
	const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
	const error = new NodeApiError(
		node,
		{ httpCode: '429' },
		{
			itemIndex,
			httpCode: '429',
			message: `Rate limited by the service: the message for item ${itemIndex} was not sent`,
			description: `${attempts > 0 ? `The service refused it ${attempts} time(s) as too many requests` : 'The service was refusing every message as too many requests'}, and the node stopped trying because ${because}. The message was not sent. Send it again later, or lower Max Messages per Second.`,
		},
	);
	return withFacts(
		error,
		{ outcome: 'notSent', reason: 'rateLimited', httpCode: '429', retryAfterSeconds },
		{ cause: 'rate-limited', retryAfterMs },
	);
}

export function itemCancelledError(node: INode, itemIndex: number): NodeOperationError {
	const error = new NodeOperationError(node, `The execution was cancelled: the message for item ${itemIndex} was not sent`, { itemIndex });
	return withFacts(error, { outcome: 'notSent', reason: 'notStarted' });
}

export function channelListMissingError(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'This service has no channel list (it answered 404)', {
		description: 'Switch Channel to "By ID" and enter the channel number, for example 12.',
	});
}


/** n8n has had the processed-data store since 1.64. */
export function sendOnceUnsupportedError(node: INode): NodeOperationError {
	const error = new NodeOperationError(node, 'Send Once per Key needs n8n 1.64 or later', {
		description: "This n8n has no processed-data store for nodes. Update n8n, or clear the Send Once per Key option. Nothing was sent.",
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field: 'Send Once per Key' });
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
export function sendOnceHistoryTooSmallError(node: INode, keys: number, history: number): NodeOperationError {
	const count = (n: number) => n.toLocaleString('en-US');
	const error = new NodeOperationError(node, `This run has ${count(keys)} send-once keys, more than Send Once History remembers (${count(history)})`, {
		description: `Raise Options → Send Once History to at least ${count(keys)}, or send fewer items per run. Nothing was sent.`,
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field: 'Send Once History' });
}

export function unknownOperationError(node: INode, resource: unknown, operation: unknown): NodeOperationError {
	const error = new NodeOperationError(node, `The operation "${String(operation)}" of "${String(resource)}" is not supported`, {
		description: 'Open the node and choose the resource and operation again. Nothing was sent.',
	});
	return withFacts(error, { outcome: 'notSent', reason: 'invalidInput', field: 'Operation' });
}
