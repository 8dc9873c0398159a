import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { credentialErrorItems, unknownOperationError } from '../helpers/errors';
import { runsAsTool } from '../helpers/toolCall';
import { messageOperations } from './message/Message.resource';
import { whatsappTemplateOperations } from './whatsappTemplate/WhatsappTemplate.resource';

/** One operation of the node: what `execute` runs for the chosen resource and operation. */
export type Operation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** A resource's operations, by the `operation` parameter's value. */
export type Operations = Record<string, Operation>;

const OPERATIONS: Record<string, Operations> = {
	message: messageOperations,
	whatsappTemplate: whatsappTemplateOperations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0);
	const operation = this.getNodeParameter('operation', 0);
	const run = OPERATIONS[String(resource)]?.[String(operation)];
	if (!run) throw unknownOperationError(this.getNode(), resource, operation);
	// A tool's caller (a model) reads only its answer: a credential it cannot use is said there.
	// Asked only on a failure: getNode() deep-copies the node, on every execution otherwise.
	return await run.call(this).catch((error: unknown) => {
		if (!runsAsTool(this)) throw error;
		return [credentialErrorItems(error, this.getInputData().length)];
	});
}
