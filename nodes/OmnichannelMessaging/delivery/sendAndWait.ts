import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { errorItemJson, sendAndWaitItemsError, sendAndWaitToolError } from '../helpers/errors';
import type { OperationContext } from '../helpers/values';
import { canWaitForAnswer } from '../helpers/toolCall';
import { runSendPipeline } from './pipeline';
import type { PrepareSend } from './session';

/** Whether the pipeline's item is a message the service took: not an error, a preview or a skip. */
function wasSent(item: INodeExecutionData | undefined): boolean {
	if (!item) return false;
	const { json } = item;
	return !('error' in json) && json.dryRun !== true && json.skipped !== true;
}

/** Stops before anything is sent when the node received more than the one item it asks about. */
export function checkOneItem(functions: IExecuteFunctions, context: OperationContext): void {
	const count = functions.getInputData().length;
	if (count !== 1) throw sendAndWaitItemsError(context.node, count);
}

/**
 * Send and Wait for Response: the one message goes through the send pipeline (checks, pacing,
 * error contract), then the execution waits until `waitTill` or an answer. Nothing waits when
 * nothing was sent: a failure is thrown or comes out as the pipeline's error item. As n8n's own
 * nodes do, the node outputs its input while waiting; n8n passes that input on when the limit
 * ends the wait (it does not run `execute` again), and the answer when one is recorded.
 */
export async function runSendAndWait(
	this: IExecuteFunctions,
	prepare: PrepareSend,
	context: OperationContext,
	waitTill: Date,
): Promise<INodeExecutionData[][]> {
	if (!canWaitForAnswer(this, context.node)) {
		// The caller is a model: it reads why nothing was sent as the tool's answer.
		const error = sendAndWaitToolError(context.node);
		return [[{ json: errorItemJson(error), pairedItem: { item: 0 } }]];
	}
	checkOneItem(this, context);
	const output = await runSendPipeline.call(this, prepare, context);
	if (!wasSent(output[0]?.[0])) return output;
	await this.putExecutionToWait(waitTill);
	return [this.getInputData()];
}
