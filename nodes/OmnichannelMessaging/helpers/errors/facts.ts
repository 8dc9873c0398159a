import type {
	Failure,
	IDataObject,
	NodeApiError,
	NodeOperationError,
	INodeExecutionData,
} from 'n8n-workflow';

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

/**
 * How a message's send ended: the service took it (`sent`), it was not sent and may be sent again
 * (`notSent`), or nobody can tell whether the customer got it (`unknown`).
 */
export type SendOutcome = 'sent' | 'notSent' | 'unknown';

/** How a failed send ended. */
export type FailedSendOutcome = Exclude<SendOutcome, 'sent'>;

/** One slot per input item, so the output keeps input order. */
export type ItemResults = Array<INodeExecutionData | undefined>;

/**
 * With On Error set to "Continue (using error output)", n8n moves an item to the error output when
 * the item has `error` set (every n8n), or when its json holds only error words (2.x accepts
 * `details` among them, 1.x does not). An `error` n8n can see would also make it replace the
 * item's json with `{ error: message }` after routing, so it is not enumerable: the engine's copy
 * of the routed item (a spread, made when it pairs the item with its input) leaves it behind, and
 * no execution data ever holds it. It is set only there: on the regular output nothing copies the
 * item, and its json would be replaced.
 */
function routedToErrorOutput(error: NodeApiError | NodeOperationError): boolean {
	return error.node?.onError === 'continueErrorOutput' && !error.node.type.endsWith('Tool');
}

export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const item: INodeExecutionData = { json: errorItemJson(error), pairedItem: { item: itemIndex } };
	if (routedToErrorOutput(error)) {
		// Writable: n8n 1.63 clears it after routing.
		Object.defineProperty(item, 'error', {
			value: error,
			enumerable: false,
			writable: true,
			configurable: true,
		});
	}
	return item;
}

export function outputOf(results: ItemResults): INodeExecutionData[][] {
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
