import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requestFailureError, serviceResponseError } from './errors';
import type { DeliveryOutcome, ServiceResponse } from './errors';
import { RETRY_LIMITS, backoffDelay, describeIndexes, parseRetryAfter } from './retry';
import { fetchTemplate } from './templates';
import { API_PREFIX, connectToService, sendServiceRequest } from './transport';
import type { ServiceConnection } from './transport';
import type { WhatsAppTemplate } from './types';

export interface SendOptions {
	concurrency: number;
	dryRun: boolean;
	timeout: number;
	validateTemplate: boolean;
	includeRenderedMessage: boolean;
	allowEmptyVariables: boolean;
}

/** A message checked and ready: the exact request, and what the customer will read. */
export interface PreparedSend {
	path: string;
	body: IDataObject;
	rendered?: IDataObject;
}

/** What one execution shares between its items: options and each template, fetched once. */
export class SendSession {
	private readonly templates = new Map<string, Promise<WhatsAppTemplate>>();

	private connection?: Promise<ServiceConnection>;

	constructor(
		private readonly context: IExecuteFunctions,
		readonly options: SendOptions,
	) {}

	/** The credential, read once for the template reads and all the sends of the execution. */
	async connect(): Promise<ServiceConnection> {
		this.connection ??= connectToService.call(this.context);
		return await this.connection;
	}

	async template(channelId: number, templateId: number, itemIndex: number): Promise<WhatsAppTemplate> {
		const key = `${channelId}:${templateId}`;
		let pending = this.templates.get(key);
		if (!pending) {
			pending = this.connect().then(
				async (connection) => await fetchTemplate.call(this.context, channelId, templateId, itemIndex, connection),
			);
			this.templates.set(key, pending);
		}
		try {
			return await pending;
		} catch (error) {
			// A credential problem (such as a base URL that is not http/https) is not about this template.
			if (error instanceof NodeOperationError) {
				throw new NodeOperationError(this.context.getNode(), error.message, {
					itemIndex,
					description: error.description ?? undefined,
				});
			}
			const cause = error as NodeApiError;
			throw new NodeOperationError(
				this.context.getNode(),
				`Template ${templateId} of channel ${channelId} could not be loaded (item ${itemIndex}): ${cause.message}`,
				{ itemIndex, description: `${cause.description ?? ''} Nothing was sent for this item.`.trim() },
			);
		}
	}
}

export type PrepareSend = (
	this: IExecuteFunctions,
	itemIndex: number,
	session: SendSession,
) => Promise<PreparedSend>;

function readSendOptions(context: IExecuteFunctions): SendOptions {
	const raw = context.getNodeParameter('options', 0, {}) as IDataObject;
	// Number() of an object from an expression can throw (no usable toString); only numbers and text count.
	const concurrency = typeof raw.concurrency === 'number' || typeof raw.concurrency === 'string' ? Number(raw.concurrency) : 5;
	return {
		concurrency: Number.isInteger(concurrency) ? Math.min(50, Math.max(1, concurrency)) : 5,
		dryRun: raw.dryRun === true,
		timeout: typeof raw.timeout === 'number' && raw.timeout > 0 ? raw.timeout : 30_000,
		validateTemplate: raw.validateTemplate !== false,
		includeRenderedMessage: raw.includeRenderedMessage === true,
		allowEmptyVariables: raw.allowEmptyVariables === true,
	};
}

function rateLimitedError(context: IExecuteFunctions, itemIndex: number, attempts: number, statusCode: number) {
	return new NodeApiError(
		context.getNode(),
		{ httpCode: String(statusCode) },
		{
			itemIndex,
			httpCode: String(statusCode),
			message: `Rate limited by the service: the message for item ${itemIndex} was not sent`,
			description: `The service answered ${statusCode === 429 ? '"too many requests" (429)' : '"unavailable, retry later" (503)'} ${attempts} time(s) and the node stopped waiting. The message was not sent. Lower the Concurrency option or send later.`,
		},
	);
}

function cancelledError(context: IExecuteFunctions, itemIndex: number) {
	return new NodeOperationError(
		context.getNode(),
		`The execution was cancelled: the message for item ${itemIndex} was not sent`,
		{ itemIndex },
	);
}

/** Waits, but wakes up at once when the execution is cancelled. */
async function waitUnlessCancelled(context: IExecuteFunctions, delay: number): Promise<void> {
	const cancel = context.getExecutionCancelSignal();
	if (!cancel) return await sleep(delay);
	if (cancel.aborted) return;
	await Promise.race([
		sleep(delay),
		new Promise<void>((resolve) => cancel.addEventListener('abort', () => resolve(), { once: true })),
	]);
}

function deliveryFor(response: ServiceResponse): DeliveryOutcome {
	return response.statusCode >= 400 && response.statusCode < 500 ? 'notSent' : 'unknown';
}

/**
 * Sends one message. Only a "not taken" answer (429, or 503 with Retry-After) is retried: any
 * other failure may come after the service accepted the message, and a second try could make
 * the customer get it twice.
 */
async function sendWithRetry(
	context: IExecuteFunctions,
	connection: ServiceConnection,
	prepared: PreparedSend,
	itemIndex: number,
	options: SendOptions,
): Promise<IDataObject> {
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		const response = await sendServiceRequest.call(
			context,
			{ method: 'POST', path: prepared.path, body: prepared.body, timeout: options.timeout },
			connection,
			'unknown',
			itemIndex,
		);
		const retryAfter = parseRetryAfter(response.headers['retry-after'], Date.now());
		const notTaken =
			response.statusCode === 429 || (response.statusCode === 503 && retryAfter !== undefined);
		if (!notTaken) {
			const error = serviceResponseError(context, response, {
				itemIndex,
				delivery: deliveryFor(response),
				expect: 'sendResult',
			});
			if (error) throw error;
			return response.body as IDataObject;
		}
		const delay = retryAfter ?? backoffDelay(attempt, Math.random());
		if (attempt >= RETRY_LIMITS.maxAttempts || waited + delay > RETRY_LIMITS.maxTotalWaitMs) {
			throw rateLimitedError(context, itemIndex, attempt, response.statusCode);
		}
		waited += delay;
		await waitUnlessCancelled(context, delay);
		if (context.getExecutionCancelSignal()?.aborted) throw cancelledError(context, itemIndex);
	}
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	return {
		json: { error: error.message },
		error,
		pairedItem: { item: itemIndex },
	};
}

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return requestFailureError(context.getNode(), error, { itemIndex, delivery: 'unknown' });
}

/** Before sending, anything else thrown is about the item's input, typically a broken expression. */
function asInputError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(context.getNode(), `Item ${itemIndex}: a parameter could not be read: ${message}`, {
		itemIndex,
		description: 'Check the expressions of this item\'s fields. Nothing was sent for this item.',
	});
}

/**
 * The one send pipeline of the three send operations: every item is checked first (so bad input
 * stops nothing but itself, and nothing is sent for it), then the checked items go out with at
 * most `concurrency` requests in flight, in input order, each result paired to its item.
 */
export async function runSendPipeline(
	this: IExecuteFunctions,
	prepare: PrepareSend,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = readSendOptions(this);
	const session = new SendSession(this, options);
	const continueOnFail = this.continueOnFail();
	const results: Array<INodeExecutionData | undefined> = new Array(items.length);
	const prepared: Array<PreparedSend | undefined> = new Array(items.length);

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared[itemIndex] = await prepare.call(this, itemIndex, session);
		} catch (caught) {
			const error = asInputError(this, caught, itemIndex);
			if (!continueOnFail) {
				error.description = `${error.description ?? ''} No message was sent for any item: every item is checked before the first is sent.`.trim();
				throw error;
			}
			results[itemIndex] = errorItem(error, itemIndex);
		}
	}

	if (options.dryRun) {
		prepared.forEach((request, itemIndex) => {
			if (!request) return;
			results[itemIndex] = {
				json: {
					dryRun: true,
					request: { method: 'POST', path: `${API_PREFIX}${request.path}`, body: request.body },
					rendered: request.rendered ?? null,
				},
				pairedItem: { item: itemIndex },
			};
		});
		this.addExecutionHints({
			message: `Dry run: ${prepared.filter(Boolean).length} message(s) checked and built. Nothing was sent.`,
			location: 'outputPane',
		});
		return [results.filter((item): item is INodeExecutionData => item !== undefined)];
	}

	const queue = prepared.flatMap((request, itemIndex) => (request ? [itemIndex] : []));
	if (queue.length === 0) return [results.filter((item): item is INodeExecutionData => item !== undefined)];
	const connection = await session.connect();
	const sent: number[] = [];
	const failed: number[] = [];
	let firstFailure: { itemIndex: number; error: NodeApiError | NodeOperationError } | undefined;
	let next = 0;
	const cancelSignal = this.getExecutionCancelSignal();

	const worker = async () => {
		while (next < queue.length && !(firstFailure && !continueOnFail) && !cancelSignal?.aborted) {
			const itemIndex = queue[next++];
			const request = prepared[itemIndex] as PreparedSend;
			try {
				const body = await sendWithRetry(this, connection, request, itemIndex, options);
				sent.push(itemIndex);
				results[itemIndex] = {
					json: options.includeRenderedMessage && request.rendered ? { ...body, rendered: request.rendered } : body,
					pairedItem: { item: itemIndex },
				};
			} catch (caught) {
				const error = asNodeError(this, caught, itemIndex);
				failed.push(itemIndex);
				if (!firstFailure || itemIndex < firstFailure.itemIndex) firstFailure = { itemIndex, error };
				if (continueOnFail) results[itemIndex] = errorItem(error, itemIndex);
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(options.concurrency, queue.length) }, async () => await worker()),
	);

	if (firstFailure && !continueOnFail) {
		const done = new Set([...sent, ...failed]);
		const notStarted = queue.filter((itemIndex) => !done.has(itemIndex));
		const { error } = firstFailure;
		error.description = [
			error.description,
			`Sent: items ${describeIndexes(sent)}.`,
			`Failed: items ${describeIndexes(failed)}.`,
			`Not started: items ${describeIndexes(notStarted)}.`,
			"Send again only the items that were not sent (n8n's Retry On Fail would send them all again).",
		]
			.filter(Boolean)
			.join(' ');
		throw error;
	}
	if (cancelSignal?.aborted) {
		throw new NodeOperationError(this.getNode(), 'The execution was cancelled', {
			description: `Sent: items ${describeIndexes(sent)}. The other items were not sent.`,
		});
	}
	return [results.filter((item): item is INodeExecutionData => item !== undefined)];
}
