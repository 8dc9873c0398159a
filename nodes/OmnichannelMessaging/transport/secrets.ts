import { NodeApiError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { withDelivery, withFacts } from '../helpers/errors/facts';
import type { FailedSendOutcome } from '../helpers/errors/facts';
import type { ErrorPlace, ServiceResponse } from '../helpers/errors/service';

/** What stands where a secret was. */
export const HIDDEN = '[hidden]';

/**
 * Shorter values are not searched for: a one-letter user name would mangle every answer, and a
 * key that short guards little (the Base URL's user-info is never sent, so no service echoes it).
 */
const SHORTEST_SECRET = 6;

function decoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/**
 * The texts that must never leave the credential: the API key, and any user name and password
 * written into the Base URL, each also as it appears percent-encoded in a URL.
 */
export function secretsOf(data: ICredentialDataDecryptedObject): string[] {
	const found: string[] = [];
	if (typeof data.apiKey === 'string') found.push(data.apiKey);
	if (typeof data.baseUrl === 'string') {
		try {
			const { username, password } = new URL(data.baseUrl.trim());
			found.push(username, password, decoded(username), decoded(password));
		} catch {
			// Not a URL: the credential check says so, and nothing is sent.
		}
	}
	const all = found
		.flatMap((secret) => [secret, encodeURIComponent(secret)])
		.filter((secret) => secret.length >= SHORTEST_SECRET);
	// Longest first, so a secret inside another is not half replaced.
	return [...new Set(all)].sort((a, b) => b.length - a.length);
}

function scrubText(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets)
		if (result.includes(secret)) result = result.split(secret).join(HIDDEN);
	return result;
}

/**
 * The one scrubber: `value` with every secret replaced, in every string, key and nested entry.
 * What holds no secret is returned as it is (no copy), so a clean answer costs one walk.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	if (typeof value === 'string') return scrubText(value, secrets) as T;
	if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return value;
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((entry, index) => {
			const clean = scrubSecrets(entry, secrets);
			if (clean !== entry) (copy ??= [...value])[index] = clean;
		});
		return (copy ?? value) as T;
	}
	let copy: Record<string, unknown> | undefined;
	for (const [key, entry] of Object.entries(value)) {
		const cleanKey = scrubText(key, secrets);
		const clean = scrubSecrets(entry, secrets);
		if (clean === entry && cleanKey === key) continue;
		copy ??= { ...(value as Record<string, unknown>) };
		if (cleanKey !== key) delete copy[key];
		copy[cleanKey] = clean;
	}
	return (copy ?? value) as T;
}

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
