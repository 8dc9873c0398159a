import type { Failure, IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Why a send failed, in words a workflow can branch on (an IF or Switch on the error output). */
export type FailureReason =
	| 'invalidInput'
	| 'rejected'
	| 'unauthorized'
	| 'rateLimited'
	| 'serviceError'
	| 'timeout'
	| 'connectionLost'
	| 'notStarted'
	| 'redirected';

/** What an error item carries next to `error`. */
export interface FailureFacts {
	/** notSent: safe to send again. unknown: the service may have taken it. */
	outcome: 'notSent' | 'unknown';
	reason: FailureReason;
	httpCode?: string;
	serviceCode?: string | number;
	field?: string;
	retryAfterSeconds?: number;
}

type NodeFailure = NodeApiError | NodeOperationError;

const FACTS_KEY = 'sendFailure';

/** Sets the facts (and n8n's `failure` cause, which n8n before 2.41 ignores) while the error is built. */
export function withFacts<E extends NodeFailure>(error: E, facts: FailureFacts, failure?: Failure): E {
	error.context[FACTS_KEY] = { ...facts } as unknown as IDataObject;
	if (failure) error.failure = failure;
	return error;
}

/** The facts of an error built here; anything else may have been delivered. */
export function factsOf(error: NodeFailure): FailureFacts {
	return (error.context[FACTS_KEY] as FailureFacts | undefined) ?? { outcome: 'unknown', reason: 'serviceError' };
}

/**
 * The json of an error item. n8n (2.x) replaces the json of any item that carries an error object
 * with { error: message }, and sends an item to the error output when its json holds only
 * `error`, `message` and `details`: so the item is json alone, with what a workflow needs in `details`.
 */
export function errorItemJson(error: NodeFailure): IDataObject {
	const details: IDataObject = {};
	for (const [key, value] of Object.entries(factsOf(error))) if (value !== undefined) details[key] = value;
	const json: IDataObject = { error: error.message };
	if (error.description) json.message = error.description;
	json.details = details;
	return json;
}
