// A request that got no answer (the network, the editor's bound), and what failed while sending an
// item: its request, or the template it is checked against.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { FailedSendOutcome } from '../outcome';
import { factsOf, withDelivery, withFacts } from './facts';
import { isObject } from './service';
import type { ErrorPlace } from './service';

/** What a request that got no answer tells the user, by the network's error code. */
const NETWORK_TEXT: Record<string, { message: string; delivery: FailedSendOutcome }> = {
	ECONNREFUSED: {
		message: 'The service refused the connection: is the base URL right and the service up?',
		delivery: 'notSent',
	},
	ENOTFOUND: {
		message: "The service's host name could not be found: check the base URL in the credential",
		delivery: 'notSent',
	},
	EAI_AGAIN: {
		message: "The service's host name could not be resolved right now: check the base URL and DNS",
		delivery: 'notSent',
	},
	ECONNRESET: {
		message: 'The connection to the service was cut before it answered',
		delivery: 'unknown',
	},
	ECONNABORTED: { message: 'The service did not answer in time', delivery: 'unknown' },
	ETIMEDOUT: { message: 'The service did not answer in time', delivery: 'unknown' },
	EPIPE: { message: 'The connection to the service was cut', delivery: 'unknown' },
};

/** The network's error code, from the error or any error it was caused by. */
export function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (isObject(current) && !seen.has(current)) {
		seen.add(current);
		const code = current.code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		if (typeof current.message === 'string') {
			const match =
				/\b(E(?:CONN\w+|NOTFOUND|AI_AGAIN|TIMEDOUT|PIPE|HOSTUNREACH|NETUNREACH))\b/.exec(
					current.message,
				);
			if (match) return match[1];
			if (/timeout of \d+ms exceeded|timed? ?out/i.test(current.message)) return 'ETIMEDOUT';
		}
		current = current.cause ?? current.reason;
	}
	return undefined;
}

/** The thrown error is not passed on: n8n's request errors carry the request, and with it the API key header. */
export function requestFailureError(
	node: INode,
	error: unknown,
	place: ErrorPlace = {},
): NodeApiError | NodeOperationError {
	if (error instanceof NodeOperationError) return error;
	const code = networkErrorCode(error) ?? 'UNKNOWN';
	const known = NETWORK_TEXT[code];
	const delivery = place.delivery ? (known?.delivery ?? 'unknown') : undefined;
	const message = known?.message ?? 'The request to the service failed before an answer came back';
	// No `code` is handed to NodeApiError: it would swap this message for its generic one.
	const built = new NodeApiError(
		node,
		{ message, networkError: code },
		{
			itemIndex: place.itemIndex,
			message,
			description: withDelivery(`Network error: ${code}.`, { ...place, delivery }),
		},
	);
	const reason = code === 'ETIMEDOUT' || code === 'ECONNABORTED' ? 'timeout' : 'connectionLost';
	return withFacts(built, { outcome: delivery ?? known?.delivery ?? 'unknown', reason });
}

/** The origin only: a Base URL can carry a user name and password, and its path says nothing here. */
function originOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).origin;
	} catch {
		return 'the Base URL';
	}
}

/**
 * An editor call (a list, the mapper) that got no answer within EDITOR_TIMEOUT_MS. The advice is in
 * the message itself: the editor shows only the message next to a list or the mapper.
 */
export function silentServiceError(node: INode, baseUrl: string, timeoutMs: number): NodeApiError {
	const seconds = Math.round(timeoutMs / 1000);
	const message =
		`The service at ${originOf(baseUrl)} did not answer within ${seconds} seconds: check the ` +
		`Base URL in the credential`;
	const error = new NodeApiError(
		node,
		{ message, networkError: 'ETIMEDOUT' },
		{
			message,
			description:
				'It accepted the connection but sent nothing back. If the Base URL is right, the service ' +
				'may be down or under maintenance: try again later.',
		},
	);
	return withFacts(error, { outcome: 'notSent', reason: 'timeout' });
}

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
