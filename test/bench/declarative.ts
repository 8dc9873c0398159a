/*
 * "Today's engine" for comparison: the same node description, but the WhatsApp template send
 * made a plain declarative operation (routing on the parameters, no customOperations), run by
 * n8n-core's WorkflowExecute, which hands it to RoutingNode, through test/helpers/engine.ts.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { NODE_TYPE, loadPackage, runNode } from '../helpers/engine';
import type { CredentialData, RunResult } from '../helpers/engine';

export const SEND_URL = '/stable/open/whatsapp/send-template-message';

/** Deep copy of a node description that keeps functions (preSend, postReceive) by reference. */
function copyDescription<T>(value: T): T {
	if (Array.isArray(value)) return value.map((v) => copyDescription(v)) as T;
	if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyDescription(v)])) as T;
	}
	return value;
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show;
	return (
		!!show &&
		(show.resource as string[] | undefined)?.includes(resource) === true &&
		(show.operation as string[] | undefined)?.includes(operation) === true
	);
}

function bodyField(property: string, value = '={{ $value }}') {
	return { send: { type: 'body' as const, property, value, propertyInDotNotation: false } };
}

/** The template send's parameters the variant routes into the request body: field and value. */
const BODY_FIELDS = new Map<string, [string, string?]>([
	['channelId', ['channel_id', '={{ String($value) }}']],
	['templateId', ['template_id', '={{ String($value) }}']],
	['customerPhone', ['customer_phone']],
	['variables', ['attributes', '={{ $value.value }}']],
]);

/**
 * The loaded node type, with `customOperations` removed and routing added to the template send:
 * POST /stable/open/whatsapp/send-template-message with {template_id, channel_id, customer_phone,
 * attributes} taken from the parameters, as a declarative node would do it.
 */
export function declarativeVariant(base: INodeType): INodeType {
	const description = copyDescription(base.description);
	let routed = 0;
	for (const property of description.properties) {
		if (
			property.name === 'operation' &&
			property.displayOptions?.show?.resource?.includes('whatsappTemplate')
		) {
			const send = (property.options as INodePropertyOptions[]).find((o) => o.value === 'send');
			if (!send) throw new Error('no whatsappTemplate send operation in the description');
			send.routing = { request: { method: 'POST', url: SEND_URL } };
			routed++;
			continue;
		}
		if (!shownFor(property, 'whatsappTemplate', 'send')) continue;
		const routing = BODY_FIELDS.get(property.name);
		if (routing) {
			property.routing = bodyField(...routing);
			routed++;
		}
	}
	if (routed !== 5)
		throw new Error(`expected to route 5 properties of the template send, routed ${routed}`);
	return { description, methods: base.methods } as INodeType;
}

export interface VariantRunOptions {
	/** Which type to run: the package's node as built, or the declarative variant. */
	variant: 'custom' | 'declarative';
	parameters: INodeParameters;
	credentials: CredentialData;
	items: IDataObject[];
	continueOnFail: boolean;
	/** Simulated time of one credential read (database round trip), ms; default 0. */
	credentialReadMs?: number;
	executionId?: string;
}

let declarativeType: INodeType | undefined;

/** One execution through test/helpers/engine.ts's runNode, with the chosen variant of the node. */
export async function runVariant(
	options: VariantRunOptions,
): Promise<RunResult & { decryptCalls: number }> {
	const loader = await loadPackage();
	const base = loader.getNode(NODE_TYPE.split('.')[1]).type as INodeType;
	declarativeType ??= declarativeVariant(base);
	const result = await runNode({
		parameters: options.parameters,
		credentials: options.credentials,
		items: options.items,
		continueOnFail: options.continueOnFail,
		credentialReadMs: options.credentialReadMs,
		executionId: options.executionId,
		nodeType: options.variant === 'custom' ? base : declarativeType,
	});
	return { ...result, decryptCalls: result.credentialReads };
}
