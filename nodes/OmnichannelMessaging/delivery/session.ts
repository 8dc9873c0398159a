import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { OperationContext } from '../helpers/values';
import { connectToService } from '../transport';
import type { ServiceConnection } from '../transport';
import { RunLog } from './runLog';
import { REQUEST_TIMEOUT_MS, SEND_LIMITS } from '../constants';
import { showFor } from '../helpers/displayOptions';
import { SEND_ONCE_OPTIONS, readSendOnceOptions } from './sendOnce';
import type { SendOnceOptions } from './sendOnce';

/** A message checked and ready: the exact request, and what the customer will read. */
export interface PreparedSend {
	/** Every send is a POST today; the request says so itself. */
	method: 'POST';
	path: string;
	body: IDataObject;
	/** What the customer reads; dry runs always show it. */
	rendered?: IDataObject;
	/** Whether a successful send's output carries `rendered` too. */
	outputRendered?: boolean;
	/** The service refused the request (a 4xx other than 401 and 429): what it was checked against may be out of date. */
	onRefused?: () => void;
}

/** What one execution shares between its items: the options, the credential, and whatever an operation loads once. */
export class SendSession {
	private readonly loaded = new Map<string, Promise<unknown>>();

	private connection?: Promise<ServiceConnection>;

	/** What n8n gives the execution. */
	readonly functions: IExecuteFunctions;

	/** The execution's lines in n8n's log: counts and reasons only. */
	readonly log: RunLog;

	constructor(
		/** The operation's context: the node, its parameters, each fixed one read once. */
		readonly context: OperationContext,
		readonly options: SendOptions,
	) {
		this.functions = context.functions;
		this.log = new RunLog(context.functions);
	}

	/** The credential, read once for every request of the execution. */
	async connect(): Promise<ServiceConnection> {
		this.connection ??= connectToService.call(this.functions, this.context.node);
		return await this.connection;
	}

	/** `load` runs once per key and execution; every item asking for the key shares its result. */
	async once<T>(key: string, load: () => Promise<T>): Promise<T> {
		let pending = this.loaded.get(key) as Promise<T> | undefined;
		if (!pending) {
			pending = load();
			this.loaded.set(key, pending);
		}
		return await pending;
	}
}

/** How an operation turns item `itemIndex` into a checked request (or throws the item's input error). */
export type PrepareSend = (
	this: IExecuteFunctions,
	itemIndex: number,
	session: SendSession,
) => Promise<PreparedSend>;

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
const PER_ITEM_OPTIONS = new Set(['sendOnceKey', 'answerLink']);

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
