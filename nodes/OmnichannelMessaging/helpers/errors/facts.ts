import type { Failure, IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FailedSendOutcome } from '../outcome';

/** Words a workflow can branch on (an IF or Switch on the error output). */
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

export interface FailureFacts {
	/** notSent: safe to send again. unknown: the service may have taken it. */
	outcome: FailedSendOutcome;
	reason: FailureReason;
	httpCode?: string;
	serviceCode?: string | number;
	field?: string;
	retryAfterSeconds?: number;
}

type NodeFailure = NodeApiError | NodeOperationError;

const FACTS_KEY = 'sendFailure';

/** Also n8n's `failure` cause, which n8n before 2.41 ignores. */
export function withFacts<E extends NodeFailure>(
	error: E,
	facts: FailureFacts,
	failure?: Failure,
): E {
	error.context[FACTS_KEY] = { ...facts } as unknown as IDataObject;
	if (failure) error.failure = failure;
	return error;
}

/** Anything not built here may have been delivered. */
export function factsOf(error: NodeFailure): FailureFacts {
	return (
		(error.context[FACTS_KEY] as FailureFacts | undefined) ?? {
			outcome: 'unknown',
			reason: 'serviceError',
		}
	);
}

/**
 * n8n 2.x replaces an item's json with { error: message } when it carries an error object, and routes
 * it to the error output when json holds only `error`, `message`, `details`: so json alone, facts in `details`.
 */
export function errorItemJson(error: NodeFailure): IDataObject {
	const details: IDataObject = {};
	for (const [key, value] of Object.entries(factsOf(error)))
		if (value !== undefined) details[key] = value;
	const json: IDataObject = { error: error.message };
	if (error.description) json.message = error.description;
	json.details = details;
	return json;
}

const DELIVERY_TEXT: Record<FailedSendOutcome, string> = {
	notSent: 'The message was not sent.',
	unknown:
		'The message may or may not have been delivered: check before sending it again. It was not ' +
		'retried, so that no customer gets it twice.',
};

/** The description with what became of the message, when the error is about one being sent. */
export function withDelivery(description: string, place: { delivery?: FailedSendOutcome }): string {
	return place.delivery ? `${description} ${DELIVERY_TEXT[place.delivery]}` : description;
}
