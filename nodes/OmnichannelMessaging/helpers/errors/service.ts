import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { Failure, INode, JsonObject } from 'n8n-workflow';

import { DEFAULT_API_KEY_HEADER } from '../../constants';
import { withDelivery, withFacts, factsOf } from './facts';
import type { FailedSendOutcome, FailureReason } from './facts';
import { excerpt } from '../values';

// The service answered, and its answer is an error: an HTTP failure, an unusable success, or the
// too-many-requests refusals that made the node stop trying.

export interface ServiceResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, tag-free excerpt of whatever the service sent, so HTML error pages never flood a message. */
export function describeBody(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'an empty body';
	if (typeof body === 'string') {
		const text = body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
		return `"${excerpt(text, 160)}"`;
	}
	if (Buffer.isBuffer(body)) return `${body.length} bytes of data`;
	try {
		return excerpt(JSON.stringify(body), 160);
	} catch {
		return 'an unreadable body';
	}
}

/** The error part of an answer only, so that large bodies stay out of run data. */
function errorContext(response: ServiceResponse): JsonObject {
	const body = response.body;
	const context: JsonObject = { httpCode: String(response.statusCode) };
	if (isObject(body)) {
		for (const key of ['error', 'code', 'detail', 'success', 'message']) {
			const value = body[key];
			if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') {
				context[key] = typeof value === 'string' ? excerpt(value, 500) : value;
			}
		}
	} else {
		context.body = describeBody(body);
	}
	return context;
}

export type ExpectedAnswer = 'sendResult' | 'template' | 'templateList' | 'channelList';

const EXPECTED: Record<ExpectedAnswer, { holds: (body: unknown) => boolean; message: string }> = {
	sendResult: {
		holds: (body) =>
			isObject(body) &&
			((typeof body.id === 'string' && body.id !== '') || typeof body.id === 'number') &&
			typeof body.status === 'string',
		message: 'The service answered without the id and status of the message',
	},
	template: {
		holds: (body) =>
			isObject(body) &&
			(typeof body.id === 'number' || (typeof body.id === 'string' && /^\d+$/.test(body.id))),
		message: 'The service answered with something that is not a WhatsApp template',
	},
	templateList: {
		holds: Array.isArray,
		message: 'The service answered with something that is not a list of WhatsApp templates',
	},
	channelList: {
		holds: Array.isArray,
		message: 'The service answered with something that is not a list of channels',
	},
};

export interface ErrorPlace {
	itemIndex?: number;
	delivery?: FailedSendOutcome;
	expect?: ExpectedAnswer;
}

interface Words {
	message: string;
	description: string;
}

function successProblem(
	response: ServiceResponse,
	expect: ExpectedAnswer | undefined,
): Words | undefined {
	const { statusCode, body } = response;
	// Described only for an error: on a broadcast's hot path every answer passes through here.
	const returned = () => `It returned HTTP ${statusCode} with ${describeBody(body)}.`;
	if (!isObject(body) && !Array.isArray(body)) {
		return {
			message: 'The service answered without the expected JSON data',
			description: returned(),
		};
	}
	const expected = expect ? EXPECTED[expect] : undefined;
	if (expected && !expected.holds(body))
		return { message: expected.message, description: returned() };
	return undefined;
}

/** A 401 or 403: the credential, not the request, is what the user must fix. */
function rejectedKeyWords(statusCode: number, body: unknown): Words {
	const detail = isObject(body) && typeof body.detail === 'string' ? excerpt(body.detail, 200) : '';
	return {
		message: 'The API key was rejected',
		description:
			`The service answered ${statusCode}${detail ? `: "${detail}"` : ''}. Check the API key, and the ` +
			`API key header name (default ${DEFAULT_API_KEY_HEADER}), in the Omnichannel Messaging API credential.`,
	};
}

function failureWords(response: ServiceResponse): Words {
	const { statusCode, body } = response;
	if (statusCode === 400 && isObject(body) && typeof body.error === 'string') {
		const code =
			typeof body.code === 'string' || typeof body.code === 'number' ? body.code : 'none';
		return {
			message: excerpt(body.error, 300),
			description: `The service refused the request (error code: ${code}).`,
		};
	}
	if (statusCode === 401 || statusCode === 403) return rejectedKeyWords(statusCode, body);
	if (statusCode === 404) {
		return {
			message: 'The service has no such resource (404)',
			description:
				'Check the base URL in the credential (for example https://api.example.com) and the channel ' +
				`and template IDs. The service sent ${describeBody(body)}.`,
		};
	}
	if (statusCode === 429) {
		return {
			message: 'The service is rate limiting requests (429)',
			description:
				'Too many requests were sent at once. Lower the concurrency option or try again later.',
		};
	}
	if (statusCode >= 500) {
		return {
			message: `The service failed with HTTP ${statusCode}`,
			description: `The service had an internal problem and sent ${describeBody(body)}.`,
		};
	}
	return {
		message: `The service answered HTTP ${statusCode}`,
		description: `The service sent ${describeBody(body)}.`,
	};
}

function failureKind(statusCode: number): { reason: FailureReason; failure?: Failure } {
	if (statusCode === 401 || statusCode === 403) {
		return {
			reason: 'unauthorized',
			failure: statusCode === 401 ? { cause: 'credential-invalid' } : undefined,
		};
	}
	if (statusCode === 404)
		return { reason: 'rejected', failure: { cause: 'configuration-invalid' } };
	if (statusCode === 429) return { reason: 'rateLimited', failure: { cause: 'rate-limited' } };
	if (statusCode === 503)
		return { reason: 'serviceError', failure: { cause: 'temporarily-unavailable' } };
	if (statusCode >= 400 && statusCode < 500) return { reason: 'rejected' };
	return { reason: 'serviceError' };
}

/** The one place where a service answer becomes an n8n error; undefined for a usable success. */
export function serviceResponseError(
	functions: { getNode(): INode },
	response: ServiceResponse,
	place: ErrorPlace = {},
): NodeApiError | undefined {
	const { statusCode, body } = response;
	const succeeded = statusCode >= 200 && statusCode < 300;
	const words = succeeded ? successProblem(response, place.expect) : failureWords(response);
	if (!words) return undefined;
	// getNode() copies the node: on a broadcast's hot path it is asked for only to build an error.
	const error = new NodeApiError(functions.getNode(), errorContext(response), {
		itemIndex: place.itemIndex,
		httpCode: String(statusCode),
		message: words.message,
		description: withDelivery(words.description, place),
	});
	const kind = succeeded ? { reason: 'serviceError' as const } : failureKind(statusCode);
	const serviceCode =
		isObject(body) && (typeof body.code === 'string' || typeof body.code === 'number')
			? body.code
			: undefined;
	const outcome = place.delivery ?? (statusCode >= 400 && statusCode < 500 ? 'notSent' : 'unknown');
	return withFacts(
		error,
		{ outcome, reason: kind.reason, httpCode: String(statusCode), serviceCode },
		kind.failure,
	);
}

/** Why the node stopped trying a message the service did not take (delivery/paceWindow.ts decides). */
export interface RateLimitStop {
	attempts: number;
	why: 'noProgress' | 'waitTooLong';
	retryAfterMs?: number;
	progressWindowMs: number;
}

/** How often the service refused the message, in the words of the error's description. */
function refusals(attempts: number): string {
	return attempts > 0
		? `The service refused it ${attempts} time(s) as too many requests`
		: 'The service was refusing every message as too many requests';
}

/** The service kept refusing the message as too many requests: it was not sent. */
export function rateLimitedError(
	node: INode,
	itemIndex: number,
	stop: RateLimitStop,
): NodeApiError {
	const { attempts, why, retryAfterMs } = stop;
	const because =
		why === 'noProgress'
			? `no message to the service went through for ${Math.round(stop.progressWindowMs / 1000)} seconds`
			: `it asked to wait ${Math.round((retryAfterMs ?? 0) / 1000)} seconds`;
	const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
	const error = new NodeApiError(
		node,
		{ httpCode: '429' },
		{
			itemIndex,
			httpCode: '429',
			message: `Rate limited by the service: the message for item ${itemIndex} was not sent`,
			description:
				`${refusals(attempts)}, ` +
				`and the node stopped trying because ${because}. The message was not sent. Send it again ` +
				`later, or lower Max Messages per Second.`,
		},
	);
	return withFacts(
		error,
		{ outcome: 'notSent', reason: 'rateLimited', httpCode: '429', retryAfterSeconds },
		{ cause: 'rate-limited', retryAfterMs },
	);
}

// A request that got no answer (the network, the editor's bound), and what failed while sending an
// item: its request, or the template it is checked against.

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
