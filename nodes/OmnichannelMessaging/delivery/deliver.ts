import type {
	IDataObject,
	IExecuteFunctions,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { factsOf, errorItem } from '../helpers/errors/facts';
import type { ItemResults } from '../helpers/errors/facts';
import { itemCancelledError } from '../helpers/errors/run';
import {
	rateLimitedError,
	sendFailureError,
	serviceResponseError,
} from '../helpers/errors/service';
import { failuresBecomeItems } from '../helpers/values';
import { serviceRequest } from '../transport';
import type { ServiceConnection } from '../transport';
import { serviceKey } from './templateCache';
import { pacerFor, sendPaced, WatchedPacer } from './pacer';
import type { SendLimits, PaceFigures } from './pacer';
import type { ItemSource } from './sendQueue';
import type { PreparedSend, SendSession } from './session';

/** Which items went out and which failed; the first failure in input order, for the summary. */
export interface DeliveryReport {
	sent: number[];
	failed: number[];
	firstFailure?: { itemIndex: number; error: NodeApiError | NodeOperationError };
	/** What this execution saw of the service's pace. */
	pace?: PaceFigures;
}

/**
 * The service looked at the request and refused it; 401 (the credential) and 429 (the pace) say
 * nothing about the request.
 */
function refusedByService(statusCode: number): boolean {
	return statusCode >= 400 && statusCode < 500 && statusCode !== 401 && statusCode !== 429;
}

/** How this execution delivers: n8n's functions, the service, the service's pacer, its limits and timeout. */
interface DeliveryConfig {
	functions: IExecuteFunctions;
	connection: ServiceConnection;
	pacer: WatchedPacer;
	limits: SendLimits;
	timeout: number;
}

/**
 * Sends one message through the service's pacer (pacer.ts: what is tried again, and when
 * the node stops) and turns how it ended into its result or its error.
 */
async function sendWithPacing(
	config: DeliveryConfig,
	request: PreparedSend,
	itemIndex: number,
): Promise<IDataObject> {
	const { functions, connection, pacer, limits } = config;
	const cancelSignal = functions.getExecutionCancelSignal();
	const send = async () =>
		await serviceRequest.call(
			functions,
			connection,
			{ method: request.method, path: request.path, body: request.body, timeout: config.timeout },
			{ itemIndex, delivery: 'unknown', cancelSignal },
		);
	const end = await sendPaced(pacer, limits, cancelSignal, send);
	if (end.kind === 'cancelled') throw itemCancelledError(functions.getNode(), itemIndex);
	if (end.kind === 'gaveUp') {
		throw rateLimitedError(functions.getNode(), itemIndex, {
			attempts: end.tries,
			why: end.why,
			retryAfterMs: end.retryAfterMs,
			progressWindowMs: end.progressWindowMs,
		});
	}
	const response = end.answer;
	const delivery = response.statusCode >= 400 && response.statusCode < 500 ? 'notSent' : 'unknown';
	const error = serviceResponseError(functions, response, {
		itemIndex,
		delivery,
		expect: 'sendResult',
	});
	if (error && refusedByService(response.statusCode)) request.onRefused?.();
	if (error) throw error;
	return response.body as IDataObject;
}

/** One execution's delivery: where items come from, where their results go. */
interface Delivery {
	config: DeliveryConfig;
	prepared: Array<PreparedSend | undefined>;
	results: ItemResults;
	source: ItemSource;
	report: DeliveryReport;
	continueOnFail: boolean;
}

/** Sends one item and records how it ended, for the output, the summary and the source. */
async function deliverOne(delivery: Delivery, itemIndex: number): Promise<void> {
	const { config, results, source, report } = delivery;
	const request = delivery.prepared[itemIndex] as PreparedSend;
	// Not kept once sent: a broadcast of thousands holds only the requests still to go.
	delivery.prepared[itemIndex] = undefined;
	try {
		const body = await sendWithPacing(config, request, itemIndex);
		report.sent.push(itemIndex);
		const json =
			request.outputRendered && request.rendered ? { ...body, rendered: request.rendered } : body;
		results[itemIndex] = { json, pairedItem: { item: itemIndex } };
		await source.settle(itemIndex, 'sent');
	} catch (caught) {
		const error = sendFailureError(config.functions.getNode(), caught, itemIndex);
		report.failed.push(itemIndex);
		if (!report.firstFailure || itemIndex < report.firstFailure.itemIndex)
			report.firstFailure = { itemIndex, error };
		if (delivery.continueOnFail) results[itemIndex] = errorItem(error, itemIndex);
		await source.settle(itemIndex, factsOf(error).outcome);
	}
}

/** The execution's connection, and the service's pacer as this execution uses it (pacer.ts). */
async function deliveryConfig(session: SendSession): Promise<DeliveryConfig> {
	const { functions, options } = session;
	const connection = await session.connect();
	const limits = { ceiling: options.concurrency, maxPerSecond: options.maxPerSecond };
	const service = serviceKey(connection.baseUrl, connection.credentialsDecrypted.data?.apiKey);
	return {
		functions,
		connection,
		pacer: new WatchedPacer(pacerFor(service), limits, session.log),
		limits,
		timeout: options.timeout,
	};
}

/**
 * Step 2: the checked items go out through the service's pacer, at most `concurrency` of this
 * execution in flight. Without continue-on-fail no new send starts after a failure; requests in
 * flight settle.
 */
export async function deliverAll(
	session: SendSession,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
	source: ItemSource,
): Promise<DeliveryReport> {
	const { functions, options } = session;
	const report: DeliveryReport = { sent: [], failed: [] };
	const config = await deliveryConfig(session);
	const delivery: Delivery = {
		config,
		prepared,
		results,
		source,
		report,
		continueOnFail: failuresBecomeItems(functions, session.context.node),
	};
	const cancelSignal = functions.getExecutionCancelSignal();
	const worker = async () => {
		while (!(report.firstFailure && !delivery.continueOnFail) && !cancelSignal?.aborted) {
			const itemIndex = await source.take();
			if (itemIndex === undefined) return;
			await deliverOne(delivery, itemIndex);
		}
	};
	try {
		await Promise.all(Array.from({ length: options.concurrency }, async () => await worker()));
	} finally {
		report.pace = config.pacer.finish();
		await source.finish();
	}
	return report;
}
