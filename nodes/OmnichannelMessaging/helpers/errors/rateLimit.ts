import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { withFacts } from './facts';

/** Why the node stopped trying a message the service did not take (delivery/rateLimitPolicy.ts decides). */
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
