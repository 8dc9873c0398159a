import type {
	IDataObject,
	INodeProperties,
	INodePropertyOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { SEND_ONCE } from '../../constants';
import { readRequiredText } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import type { SendOutcome } from '../../helpers/errors/facts';

export interface SendOnceOptions {
	scope: 'node' | 'workflow';
	unknown: 'skip' | 'send';
	history: number;
}

function twoWayChoice(
	displayName: string,
	name: string,
	description: string,
	options: [INodePropertyOptions, INodePropertyOptions],
): INodeProperties {
	const type = 'options';
	return { displayName, name, type, default: options[0].value, options, description };
}

export const SEND_ONCE_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Send Once per Key',
		name: 'sendOnceKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.orderId }}-shipped',
		description:
			'A key for each message: an item whose key was already sent is not sent again, in this ' +
			'execution or any later one (a webhook delivered twice, a re-run, Retry On Fail). Empty: ' +
			'off.',
		hint:
			'Use an expression that is the same every time this message would be sent, for example {{ ' +
			'$json.orderId }}-shipped',
	},
	twoWayChoice('Send Once Across', 'sendOnceScope', 'Where a key counts as already sent', [
		{ name: 'This Node', value: 'node', description: 'Keys sent by this node only' },
		{
			name: 'All Send Nodes in This Workflow',
			value: 'workflow',
			description: 'Keys sent by any send node of this workflow with this scope',
		},
	]),
	twoWayChoice(
		'If an Earlier Outcome Is Unknown',
		'sendOnceUnknown',
		'What to do with a key whose earlier send ended without a clear answer (a timeout, a cut ' +
			'connection, n8n stopping mid-broadcast)',
		[
			{
				name: 'Skip It',
				value: 'skip',
				description: 'Never risk a duplicate: the item is output as skipped',
			},
			{
				name: 'Send It',
				value: 'send',
				description: 'Send again a message that may already have arrived',
			},
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
			'How many keys to remember; the oldest are forgotten first. A run with more keys stops ' +
			'before sending. Every send reads and rewrites the whole history, so a larger one costs ' +
			'more time per message.',
	},
];

/** Judged on the parameter as saved: the key itself is read per item. */
export function readSendOnceOptions(
	raw: IDataObject,
	saved: IDataObject | undefined,
): SendOnceOptions | undefined {
	if (saved?.sendOnceKey === undefined || saved.sendOnceKey === '') return undefined;
	const history = Number(raw.sendOnceHistory);
	return {
		scope: raw.sendOnceScope === 'workflow' ? 'workflow' : 'node',
		unknown: raw.sendOnceUnknown === 'send' ? 'send' : 'skip',
		history: Number.isSafeInteger(history) && history > 0 ? history : SEND_ONCE.defaultHistory,
	};
}

export function readSendOnceKey(context: OperationContext, itemIndex: number): string {
	return readRequiredText(context, itemIndex, {
		parameter: 'options.sendOnceKey',
		field: 'Send Once per Key',
		what: 'text',
		advice: 'give each item a key, for example {{ $json.orderId }}-shipped',
	});
}

interface HeldClaim {
	outcome: Promise<SendOutcome>;
	settle(outcome: SendOutcome): void;
}

/** The keys this process's executions are sending now, by workflow, scope and key. */
export class Claims {
	private readonly held = new Map<string, HeldClaim>();

	/**
	 * All at once (nothing awaited in between): an execution only ever waits on executions that
	 * started before it, so two can never wait on each other.
	 */
	claimKeys(
		scopeKey: string,
		keys: string[],
	): { mine: Set<string>; others: Map<string, Promise<SendOutcome>> } {
		const mine = new Set<string>();
		const others = new Map<string, Promise<SendOutcome>>();
		for (const key of keys) {
			const held = this.held.get(`${scopeKey}\n${key}`);
			if (held) {
				others.set(key, held.outcome);
				continue;
			}
			let settle: (outcome: SendOutcome) => void = () => {};
			const outcome = new Promise<SendOutcome>((resolve) => (settle = resolve));
			this.held.set(`${scopeKey}\n${key}`, { outcome, settle });
			mine.add(key);
		}
		return { mine, others };
	}

	settleKey(scopeKey: string, key: string, outcome: SendOutcome): void {
		const held = this.held.get(`${scopeKey}\n${key}`);
		if (!held) return;
		this.held.delete(`${scopeKey}\n${key}`);
		held.settle(outcome);
	}
}

/** Every execution of this process claims through this one. */
export const PROCESS_CLAIMS = new Claims();

export type SkipReason = 'alreadySent' | 'duplicateInRun' | 'outcomeUnknown';

export function skippedItem(
	itemIndex: number,
	reason: SkipReason,
	sendOnceKey: string,
): INodeExecutionData {
	return { json: { skipped: true, reason, sendOnceKey }, pairedItem: { item: itemIndex } };
}
