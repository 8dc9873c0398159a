import type { IDataObject, IExecuteFunctions, INode, NodeParameterValueType } from 'n8n-workflow';

import { connectToService } from '../transport';
import type { ServiceConnection } from '../transport';
import type { SendOnceQueue } from '../sendOnce/queue';
import type { SendOptions } from './options';

/** A message checked and ready: the exact request, and what the customer will read. */
export interface PreparedSend {
	path: string;
	body: IDataObject;
	/** What the customer reads; dry runs always show it. */
	rendered?: IDataObject;
	/** Whether a successful send's output carries `rendered` too. */
	outputRendered?: boolean;
	/** The item's send-once key, when Send Once per Key is on. */
	sendOnceKey?: string;
	/** The service refused the request (a 4xx other than 401 and 429): what it was checked against may be out of date. */
	onRefused?: () => void;
}

/** Whether a saved parameter value holds an expression anywhere ("=…" text, n8n's mark). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value === null || typeof value !== 'object') return false;
	return Object.values(value).some(holdsExpression);
}

/** What one execution shares between its items: the options, the credential, and whatever an operation loads once. */
export class SendSession {
	private readonly loaded = new Map<string, Promise<unknown>>();

	/** Parameters without an expression, read once: they are the same for every item. */
	private readonly sameForEveryItem = new Map<string, unknown>();

	private savedNode?: INode;

	private connection?: Promise<ServiceConnection>;

	/** With Send Once per Key (and not a dry run): this execution's keys, from the check to the end. */
	sendOnce?: SendOnceQueue;

	constructor(
		readonly context: IExecuteFunctions,
		readonly options: SendOptions,
	) {}

	/** The credential, read once for every request of the execution. */
	async connect(): Promise<ServiceConnection> {
		this.connection ??= connectToService.call(this.context);
		return await this.connection;
	}

	/** The node as saved, copied once: n8n's getNode() makes a deep copy on every call. */
	get node(): INode {
		this.savedNode ??= this.context.getNode();
		return this.savedNode;
	}

	/**
	 * Top-level parameter `name` for the item. In a real n8n every read resolves the value through
	 * the workflow data proxy; a value without an expression is read once for the execution.
	 */
	parameter(name: string, itemIndex: number, fallback?: NodeParameterValueType): unknown {
		if (this.sameForEveryItem.has(name)) return this.sameForEveryItem.get(name);
		const value = this.context.getNodeParameter(name, itemIndex, fallback);
		if (!holdsExpression(this.node.parameters[name])) this.sameForEveryItem.set(name, value);
		return value;
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
export type PrepareSend = (this: IExecuteFunctions, itemIndex: number, session: SendSession) => Promise<PreparedSend>;
