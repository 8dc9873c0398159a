import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS, SEND_LIMITS } from '../constants';
import { showFor } from '../helpers/displayOptions';
import type { OperationContext } from '../helpers/operationContext';
import { SEND_ONCE_OPTIONS, readSendOnceOptions } from './sendOnce';
import type { SendOnceOptions } from './sendOnce';

/** The options every send shares; a send with options of its own reads those itself. */
export interface SendOptions {
	/** The Options collection as read once for the execution, for an operation's own options. */
	collection: IDataObject;
	concurrency: number;
	/** Set when Send Once per Key is given. */
	sendOnce?: SendOnceOptions;
	maxPerSecond: number;
	dryRun: boolean;
	timeout: number;
}

export interface SendOptionsConfig {
	resource: string;
	operation: string;
	extra?: INodeProperties[];
	/** The shared options to offer, by name (all when not given). */
	shared?: readonly string[];
}

/** Every send's options, beside the Send Once ones and the operation's own. */
const SHARED_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		default: 20,
		typeOptions: { minValue: 1, maxValue: SEND_LIMITS.maxConcurrency, numberPrecision: 0 },
		description:
			`The most messages on their way to the service at once (1 to ` +
			`${SEND_LIMITS.maxConcurrency}). The node finds the service's limit by itself and stays ` +
			`below it; this only caps it.`,
		hint: 'Executions in this n8n process that send with the same credential share one pace',
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to run every check and build the exact request without sending anything. Each ' +
			'item then shows the request that would have been sent.',
	},
	{
		displayName: 'Max Messages per Second',
		name: 'maxPerSecond',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 0 },
		description:
			"The most sends started per second to this service, for a plan's quota or WhatsApp's " +
			'throughput (80 messages a second per business number by default). 0 means no cap.',
	},
	{
		displayName: 'Timeout',
		name: 'timeout',
		type: 'number',
		default: REQUEST_TIMEOUT_MS,
		typeOptions: { minValue: 1000, numberPrecision: 0 },
		description: 'How long to wait for the service to answer a request, in milliseconds',
		hint: 'A send that times out is not retried: the message may already have gone out',
	},
];

/** The Options collection of a send: the shared options, plus the operation's own. */
export function sendOptionsField({
	resource,
	operation,
	extra = [],
	shared,
}: SendOptionsConfig): INodeProperties {
	const offered = [...SHARED_OPTIONS, ...SEND_ONCE_OPTIONS].filter(
		(option) => !shared || shared.includes(option.name),
	);
	const options = [...offered, ...extra];
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: showFor(resource, operation),
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** Options read per item: reading them with the collection would evaluate their expressions for nothing. */
const PER_ITEM_OPTIONS = new Set(['sendOnceKey']);

/** Options apply to the whole execution, so item 0's count; a send-once key is read per item. */
export function readSendOptions(context: OperationContext): SendOptions {
	const saved = context.node.parameters.options as IDataObject | undefined;
	const raw = context.collection('options', PER_ITEM_OPTIONS);
	// Number() of an object from an expression can throw (no usable toString); only numbers and text count.
	const concurrency =
		typeof raw.concurrency === 'number' || typeof raw.concurrency === 'string'
			? Number(raw.concurrency)
			: SEND_LIMITS.defaultConcurrency;
	return {
		concurrency: Number.isInteger(concurrency)
			? Math.min(SEND_LIMITS.maxConcurrency, Math.max(1, concurrency))
			: SEND_LIMITS.defaultConcurrency,
		maxPerSecond:
			typeof raw.maxPerSecond === 'number' && raw.maxPerSecond > 0 ? raw.maxPerSecond : 0,
		collection: raw,
		sendOnce: readSendOnceOptions(raw, saved),
		dryRun: raw.dryRun === true,
		timeout: typeof raw.timeout === 'number' && raw.timeout > 0 ? raw.timeout : REQUEST_TIMEOUT_MS,
	};
}
