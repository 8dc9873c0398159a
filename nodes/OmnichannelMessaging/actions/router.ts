import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { credentialErrorItems, unknownOperationError } from '../helpers/errors';
import { OperationContext } from '../helpers/operationContext';
import { runsAsTool } from '../helpers/toolCall';
import { messageOperations } from './message/Message.resource';
import { whatsappTemplateOperations } from './whatsappTemplate/WhatsappTemplate.resource';

/** One operation of the node: what `execute` runs for the chosen resource and operation. */
export type Operation = (
	this: IExecuteFunctions,
	context: OperationContext,
) => Promise<INodeExecutionData[][]>;

/** A resource's operations, by the `operation` parameter's value. */
export type Operations = Record<string, Operation>;

const OPERATIONS: Record<string, Operations> = {
	message: messageOperations,
	whatsappTemplate: whatsappTemplateOperations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const context = new OperationContext(this);
	const resource = context.get('resource', 0);
	const operation = context.get('operation', 0);
	const run = OPERATIONS[String(resource)]?.[String(operation)];
	if (!run) throw unknownOperationError(context.node, resource, operation);
	// A tool's caller (a model) reads only its answer: a credential it cannot use is said there.
	return await run.call(this, context).catch((error: unknown) => {
		if (!runsAsTool(this, context.node)) throw error;
		return [credentialErrorItems(error, this.getInputData().length)];
	});
}
