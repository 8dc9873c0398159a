import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../helpers/operationContext';
import { connectToService } from '../transport';
import type { ServiceConnection } from '../transport';
import type { SendOptions } from './options';
import { RunLog } from './runLog';

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
