import type { Pacer, SendLimits } from './pacer';
import { RATE_LIMIT, waitsTooLong } from './rateLimitPolicy';

/** What the send loop needs of a pacer (a simulation may wrap another). */
export type PacerApi = Pick<Pacer, 'acquire' | 'answered' | 'ended' | 'makingProgress'>;

/** What the send loop needs of an answer; the transport's answers have more. */
export interface AnswerHead {
	statusCode: number;
	headers: Record<string, unknown>;
}

/** How one message's sends ended: answered (taken, or refused for a reason other than the pace), or not sent. */
export type PacedEnd<A> =
	| { kind: 'answered'; answer: A }
	| { kind: 'cancelled' }
	| {
			kind: 'gaveUp';
			why: 'noProgress' | 'waitTooLong';
			tries: number;
			retryAfterMs?: number;
			progressWindowMs: number;
	  };

/**
 * Sends one message through the pacer. Only a "not taken" answer is tried again, for as long as
 * the service makes progress: any other failure may come after the service accepted the message,
 * and a second try could make the customer get it twice. `send` rejects on a fault with no
 * answer (the place is given back first).
 */
export async function sendPaced<A extends AnswerHead>(
	pacer: PacerApi,
	limits: SendLimits,
	signal: AbortSignal | undefined,
	send: () => Promise<A>,
): Promise<PacedEnd<A>> {
	const progressWindowMs = RATE_LIMIT.progressWindowMs;
	for (let tries = 1; ; tries++) {
		const permit = await pacer.acquire(limits, signal);
		if (!permit) return { kind: 'cancelled' };
		if (!pacer.makingProgress()) {
			pacer.ended(permit);
			return { kind: 'gaveUp', why: 'noProgress', tries: tries - 1, progressWindowMs };
		}
		let answer: A | undefined;
		try {
			answer = await send();
		} finally {
			if (answer === undefined) pacer.ended(permit);
		}
		const refusal = pacer.answered(permit, limits, answer.statusCode, answer.headers);
		if (!refusal) return { kind: 'answered', answer };
		if (waitsTooLong(refusal))
			return {
				kind: 'gaveUp',
				why: 'waitTooLong',
				tries,
				retryAfterMs: refusal.retryAfterMs,
				progressWindowMs,
			};
	}
}
