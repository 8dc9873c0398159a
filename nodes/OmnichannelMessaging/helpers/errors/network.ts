import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { FailedSendOutcome } from '../outcome';
import { withFacts } from './facts';
import { isObject, withDelivery } from './service';
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
