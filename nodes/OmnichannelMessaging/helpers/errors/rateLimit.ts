import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { PACING } from '../../constants';
import { withFacts } from './facts';

/** The service kept refusing the message as too many requests: it was not sent. */
export function rateLimitedError(
	node: INode,
	itemIndex: number,
	attempts: number,
	why: 'noProgress' | 'waitTooLong',
	retryAfterMs?: number,
): NodeApiError {
	const because =
		why === 'noProgress'
			? `no message to the service went through for ${Math.round(PACING.progressWindowMs / 1000)} seconds`
			: `it asked to wait ${Math.round((retryAfterMs ?? 0) / 1000)} seconds`;
	const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
	const error = new NodeApiError(
		node,
		{ httpCode: '429' },
		{
			itemIndex,
			httpCode: '429',
			message: `Rate limited by the service: the message for item ${itemIndex} was not sent`,
			description: `${attempts > 0 ? `The service refused it ${attempts} time(s) as too many requests` : 'The service was refusing every message as too many requests'}, and the node stopped trying because ${because}. The message was not sent. Send it again later, or lower Max Messages per Second.`,
		},
	);
	return withFacts(
		error,
		{ outcome: 'notSent', reason: 'rateLimited', httpCode: '429', retryAfterSeconds },
		{ cause: 'rate-limited', retryAfterMs },
	);
}
