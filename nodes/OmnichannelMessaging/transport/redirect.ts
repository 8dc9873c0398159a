import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withDelivery, withFacts } from '../helpers/errors/facts';
import type { ErrorPlace, ServiceResponse } from '../helpers/errors/service';
import type { FailedSendOutcome } from '../helpers/outcome';

/** The node follows no 3xx: the key would go along to wherever it points. */
export function isRedirect(statusCode: number): boolean {
	return statusCode >= 300 && statusCode < 400;
}

/** An origin only: a Location's path and query may hold a token or the key itself. */
export function redirectTarget(response: ServiceResponse, baseUrl: string): string | undefined {
	const location = response.headers.location;
	if (typeof location !== 'string' || location.trim() === '') return undefined;
	try {
		const { origin } = new URL(location.trim(), baseUrl);
		return origin === 'null' ? undefined : origin;
	} catch {
		return undefined;
	}
}

/**
 * A 303 comes from a server that may have acted on the request; the others from a front that did
 * not (RFC 9110 §15.4.4).
 */
function redirectDelivery(statusCode: number): FailedSendOutcome {
	return [301, 302, 307, 308].includes(statusCode) ? 'notSent' : 'unknown';
}

export function redirectWords(
	statusCode: number,
	target: string | undefined,
): { message: string; description: string } {
	return {
		message: target
			? `The service redirected the request to ${target} (HTTP ${statusCode})`
			: `The service answered with a redirect (HTTP ${statusCode}) to no usable address`,
		description: target
			? `The node follows no redirect, so the API key never goes to another address. If ${target} ` +
				`is your service, set the credential's Base URL to it.`
			: "The node follows no redirect, so the API key never goes to another address. Check the credential's Base URL.",
	};
}

export function redirectError(
	node: INode,
	response: ServiceResponse,
	baseUrl: string,
	place: ErrorPlace = {},
): NodeApiError {
	const { statusCode } = response;
	const target = redirectTarget(response, baseUrl);
	const words = redirectWords(statusCode, target);
	const delivery = place.delivery ? redirectDelivery(statusCode) : undefined;
	const error = new NodeApiError(
		node,
		{ httpCode: String(statusCode), redirectedTo: target ?? 'unknown' },
		{
			itemIndex: place.itemIndex,
			httpCode: String(statusCode),
			message: words.message,
			description: withDelivery(words.description, { delivery }),
		},
	);
	const outcome = delivery ?? redirectDelivery(statusCode);
	return withFacts(
		error,
		{ outcome, reason: 'redirected', httpCode: String(statusCode) },
		{ cause: 'configuration-invalid' },
	);
}
