import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { errorItemJson, sendAndWaitItemsError, sendAndWaitToolError } from '../helpers/errors';
import type { OperationContext } from '../helpers/operationContext';
import { runsAsTool } from '../helpers/toolCall';
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
 * A tool call can wait only where n8n's engine runs the tool as a step of the execution (AI Agent
 * 3 and later, a Human review): the engine marks that run `rewireOutputLogTo: ai_tool`, keeps the
 * agent's turn behind it, and hands the person's answer to the agent as the tool's result. An
 * agent or MCP Server Trigger that calls the tool inside its own loop (n8n-core's tool invocation,
 * no such mark) would give the model the tool's input at once while the execution waits: there
 * the model gets an error item instead, and nothing is sent.
 */
function toolCannotWait(functions: IExecuteFunctions, context: OperationContext) {
	const { node } = context;
	if (!runsAsTool(functions, node) || node.rewireOutputLogTo === NodeConnectionTypes.AiTool) {
		return undefined;
	}
	return [[{ json: errorItemJson(sendAndWaitToolError(node)), pairedItem: { item: 0 } }]];
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
	const refused = toolCannotWait(this, context);
	if (refused) return refused;
	checkOneItem(this, context);
	const output = await runSendPipeline.call(this, prepare, context);
	if (!wasSent(output[0]?.[0])) return output;
	await this.putExecutionToWait(waitTill);
	return [this.getInputData()];
}
