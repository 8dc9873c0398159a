import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import { serviceResponseError } from './errors';
import type { ExpectedAnswer } from './errors';

/**
 * Declarative reads ask n8n not to throw on HTTP errors, so that their answers reach the same
 * error mapping as every other request of the node.
 */
export function throwIfServiceError(
	this: IExecuteSingleFunctions,
	response: IN8nHttpFullResponse,
	expect?: ExpectedAnswer,
): void {
	const error = serviceResponseError(
		this,
		{ statusCode: response.statusCode, headers: response.headers ?? {}, body: response.body },
		{ itemIndex: this.getItemIndex(), expect },
	);
	if (error) throw error;
}

/** Get's answer: one template, checked like every other answer. */
export async function readTemplateBody(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	throwIfServiceError.call(this, response, 'template');
	return [{ json: response.body as INodeExecutionData['json'], pairedItem: { item: this.getItemIndex() } }];
}
