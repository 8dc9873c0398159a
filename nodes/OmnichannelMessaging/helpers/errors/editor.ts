import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

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
