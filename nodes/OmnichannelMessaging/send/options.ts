import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS, SEND_LIMITS, SEND_ONCE } from '../constants';
import { showFor } from '../helpers/displayOptions';

/** The options every send shares; a send with options of its own reads those itself. */
export interface SendOnceOptions {
	scope: 'node' | 'workflow';
	unknown: 'skip' | 'send';
	history: number;
}

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

/** An options field of two choices, the first the default. */
function twoWayChoice(
	displayName: string,
	name: string,
	description: string,
	options: [INodePropertyOptions, INodePropertyOptions],
): INodeProperties {
	const type = 'options';
	return { displayName, name, type, default: options[0].value, options, description };
}

/** Send once per key: n8n's own processed-data store remembers which keys went out. */
const SEND_ONCE_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Send Once per Key',
		name: 'sendOnceKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.orderId }}-shipped',
		description:
			'A key for each message: an item whose key was already sent is not sent again, in this execution or any later one (a webhook delivered twice, a re-run, Retry On Fail). Empty: off.',
		hint: 'Use an expression that is the same every time this message would be sent, for example {{ $json.orderId }}-shipped',
	},
	twoWayChoice('Send Once Across', 'sendOnceScope', 'Where a key counts as already sent', [
		{ name: 'This Node', value: 'node', description: 'Keys sent by this node only' },
		{ name: 'All Send Nodes in This Workflow', value: 'workflow', description: 'Keys sent by any send node of this workflow with this scope' },
	]),
	twoWayChoice(
		'If an Earlier Outcome Is Unknown',
		'sendOnceUnknown',
		'What to do with a key whose earlier send ended without a clear answer (a timeout, a cut connection, n8n stopping mid-broadcast)',
		[
			{ name: 'Skip It', value: 'skip', description: 'Never risk a duplicate: the item is output as skipped' },
			{ name: 'Send It', value: 'send', description: 'Send again a message that may already have arrived' },
		],
	),
	{
		displayName: 'Send Once History',
		name: 'sendOnceHistory',
		type: 'number',
		// SEND_ONCE.defaultHistory: the linter wants the literal here.
		default: 10000,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'How many keys to remember; the oldest are forgotten first. A run with more keys stops before sending. Every send reads and rewrites the whole history, so a larger one costs more time per message.',
	},
];

export interface SendOptionsConfig {
	resource: string;
	operation: string;
	extra?: INodeProperties[];
}

/** The Options collection of a send: the shared options, plus the operation's own. */
export function sendOptionsField({ resource, operation, extra = [] }: SendOptionsConfig): INodeProperties {
	const options: INodeProperties[] = [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			default: 20,
			typeOptions: { minValue: 1, maxValue: SEND_LIMITS.maxConcurrency, numberPrecision: 0 },
			description: `The most messages on their way to the service at once (1 to ${SEND_LIMITS.maxConcurrency}). The node finds the service's limit by itself and stays below it; this only caps it.`,
			hint: 'Executions in this n8n process that send with the same credential share one pace',
		},
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				'Whether to run every check and build the exact request without sending anything. Each item then shows the request that would have been sent.',
		},
		{
			displayName: 'Max Messages per Second',
			name: 'maxPerSecond',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description:
				"The most sends started per second to this service, for a plan's quota or WhatsApp's throughput (80 messages a second per business number by default). 0 means no cap.",
		},
		...SEND_ONCE_OPTIONS,
		...extra,
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

/**
 * The Options collection as given, but for the per-item ones; options apply to the whole
 * execution, so item 0's count. Each option is read by itself: in a real n8n every expression
 * read costs an evaluation in its expression sandbox, and a send-once key read here was thrown away.
 */
function readOptionsCollection(context: IExecuteFunctions, saved: IDataObject | undefined): IDataObject {
	const collection: IDataObject = {};
	for (const name of Object.keys(saved ?? {})) {
		if (!PER_ITEM_OPTIONS.has(name)) collection[name] = context.getNodeParameter(`options.${name}`, 0) as IDataObject[string];
	}
	return collection;
}

export function readSendOptions(context: IExecuteFunctions): SendOptions {
	const saved = context.getNode().parameters.options as IDataObject | undefined;
	const raw = readOptionsCollection(context, saved);
	// Number() of an object from an expression can throw (no usable toString); only numbers and text count.
	const concurrency =
		typeof raw.concurrency === 'number' || typeof raw.concurrency === 'string'
			? Number(raw.concurrency)
			: SEND_LIMITS.defaultConcurrency;
	return {
		concurrency: Number.isInteger(concurrency)
			? Math.min(SEND_LIMITS.maxConcurrency, Math.max(1, concurrency))
			: SEND_LIMITS.defaultConcurrency,
		maxPerSecond: typeof raw.maxPerSecond === 'number' && raw.maxPerSecond > 0 ? raw.maxPerSecond : 0,
		collection: raw,
		sendOnce: readSendOnceOptions(raw, saved),
		dryRun: raw.dryRun === true,
		timeout: typeof raw.timeout === 'number' && raw.timeout > 0 ? raw.timeout : REQUEST_TIMEOUT_MS,
	};
}

/** On when a key is given, judged on the parameter as saved: the key itself is read per item. */
function readSendOnceOptions(raw: IDataObject, saved: IDataObject | undefined): SendOnceOptions | undefined {
	if (saved?.sendOnceKey === undefined || saved.sendOnceKey === '') return undefined;
	const history = Number(raw.sendOnceHistory);
	return {
		scope: raw.sendOnceScope === 'workflow' ? 'workflow' : 'node',
		unknown: raw.sendOnceUnknown === 'send' ? 'send' : 'skip',
		history: Number.isSafeInteger(history) && history > 0 ? history : SEND_ONCE.defaultHistory,
	};
}
