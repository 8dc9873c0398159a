import { sleep } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemCancelledError, rateLimitedError, sendFailureError, serviceResponseError } from '../errors';
import type { ServiceResponse } from '../errors';
import { serviceRequest } from '../transport';
import type { ServiceConnection } from '../transport';
import { backoffDelay, parseRetryAfter, RETRY_LIMITS } from './retryAfter';
import { errorItem } from './results';
import type { ItemResults } from './results';
import type { PreparedSend, SendSession } from './session';

/** Which items went out and which failed; the first failure in input order, for the summary. */
export interface DeliveryReport {
	sent: number[];
	failed: number[];
	firstFailure?: { itemIndex: number; error: NodeApiError | NodeOperationError };
}

/** Waits, but wakes up at once when the execution is cancelled. */
async function waitUnlessCancelled(cancel: AbortSignal | undefined, delay: number): Promise<void> {
	if (!cancel) return await sleep(delay);
	if (cancel.aborted) return;
	await Promise.race([
		sleep(delay),
		new Promise<void>((resolve) => cancel.addEventListener('abort', () => resolve(), { once: true })),
	]);
}

/** "Not taken": 429, or 503 with Retry-After. The only answers after which a send is tried again. */
function notTakenDelay(response: ServiceResponse): number | undefined | 'no' {
	const retryAfter = parseRetryAfter(response.headers['retry-after'], Date.now());
	if (response.statusCode === 429 || (response.statusCode === 503 && retryAfter !== undefined)) return retryAfter;
	return 'no';
}

/**
 * Sends one message. Only a "not taken" answer is retried: any other failure may come after the
 * service accepted the message, and a second try could make the customer get it twice.
 */
async function sendWithRetry(
	context: IExecuteFunctions,
	connection: ServiceConnection,
	request: PreparedSend,
	itemIndex: number,
	timeout: number,
): Promise<IDataObject> {
	const cancelSignal = context.getExecutionCancelSignal();
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		const response = await serviceRequest.call(
			context,
			connection,
			{ method: 'POST', path: request.path, body: request.body, timeout },
			{ itemIndex, delivery: 'unknown', cancelSignal },
		);
		const retryAfter = notTakenDelay(response);
		if (retryAfter === 'no') {
			const delivery = response.statusCode >= 400 && response.statusCode < 500 ? 'notSent' : 'unknown';
			const error = serviceResponseError(context, response, { itemIndex, delivery, expect: 'sendResult' });
			if (error) throw error;
			return response.body as IDataObject;
		}
		const delay = retryAfter ?? backoffDelay(attempt, Math.random());
		if (attempt >= RETRY_LIMITS.maxAttempts || waited + delay > RETRY_LIMITS.maxTotalWaitMs) {
			throw rateLimitedError(context.getNode(), itemIndex, attempt, response.statusCode);
		}
		waited += delay;
		await waitUnlessCancelled(cancelSignal, delay);
		if (cancelSignal?.aborted) throw itemCancelledError(context.getNode(), itemIndex);
	}
}

/**
 * Step 2: the checked items go out with at most `concurrency` requests in flight. Without
 * continue-on-fail no new send starts after a failure; requests in flight settle.
 */
export async function deliverAll(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): Promise<DeliveryReport> {
	const { context, options } = session;
	const queue = prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	const report: DeliveryReport = { sent: [], failed: [] };
	if (queue.length === 0) return report;
	const connection = await session.connect();
	const continueOnFail = context.continueOnFail();
	const cancelSignal = context.getExecutionCancelSignal();
	let next = 0;
	const worker = async () => {
		while (next < queue.length && !(report.firstFailure && !continueOnFail) && !cancelSignal?.aborted) {
			const itemIndex = queue[next++];
			const request = prepared[itemIndex] as PreparedSend;
			try {
				const body = await sendWithRetry(context, connection, request, itemIndex, options.timeout);
				report.sent.push(itemIndex);
				const json = request.outputRendered && request.rendered ? { ...body, rendered: request.rendered } : body;
				results[itemIndex] = { json, pairedItem: { item: itemIndex } };
			} catch (caught) {
				const error = sendFailureError(context.getNode(), caught, itemIndex);
				report.failed.push(itemIndex);
				if (!report.firstFailure || itemIndex < report.firstFailure.itemIndex) report.firstFailure = { itemIndex, error };
				if (continueOnFail) results[itemIndex] = errorItem(error, itemIndex);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(options.concurrency, queue.length) }, async () => await worker()));
	return report;
}
