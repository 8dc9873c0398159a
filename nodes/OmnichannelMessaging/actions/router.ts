import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { credentialErrorItems, unknownOperationError } from '../helpers/errors/run';
import { OperationContext, runsAsTool } from '../helpers/values';

import * as message from './message/Message.resource';
import * as whatsappTemplate from './whatsappTemplate/WhatsappTemplate.resource';

/** What every `*.operation.ts` exports besides its `description`: how it runs. */
export type OperationExecute = (
	this: IExecuteFunctions,
	context: OperationContext,
) => Promise<INodeExecutionData[][]>;

/** Each resource module exports its operations by the `operation` parameter's value, as n8n's Airtable v2 does. */
const RESOURCES: Record<string, Record<string, unknown>> = { message, whatsappTemplate };

function executeOf(resource: unknown, operation: unknown): OperationExecute | undefined {
	const module = RESOURCES[String(resource)]?.[String(operation)] as { execute?: unknown };
	return typeof module?.execute === 'function' ? (module.execute as OperationExecute) : undefined;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const context = new OperationContext(this);
	const resource = context.get('resource', 0);
	const operation = context.get('operation', 0);
	const execute = executeOf(resource, operation);
	if (!execute) throw unknownOperationError(context.node, resource, operation);
	// A tool's caller (a model) reads only its answer: a credential it cannot use is said there.
	return await execute.call(this, context).catch((error: unknown) => {
		if (!runsAsTool(this, context.node)) throw error;
		return [credentialErrorItems(error, this.getInputData().length)];
	});
}
