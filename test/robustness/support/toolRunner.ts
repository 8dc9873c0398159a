/**
 * Runs the node the way n8n 2.x runs a tool an AI agent called (the "engine request" path of
 * n8n-core's requests-response.ts): the tool node gets the agent's arguments as one item on its
 * `main` input, `node.rewireOutputLogTo = 'ai_tool'`, and `$fromAI('name')` reads the argument.
 * A failure then becomes `{ error: message }` on the ai_tool output: the message (not the
 * description) is all the agent reads.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, IRun } from 'n8n-workflow';

import { runNode } from '../../helpers/engine';
import type { CredentialData } from '../../helpers/engine';

export interface ToolRunResult {
	run: IRun;
	/** What the agent gets back: the node's ai_tool output. */
	output: INodeExecutionData[];
}

/** One tool call: `args` are what the agent passed; parameters read them with `$fromAI(...)`. */
export async function runAsTool(
	parameters: INodeParameters,
	credentials: CredentialData,
	args: IDataObject,
): Promise<ToolRunResult> {
	const { run, output } = await runNode({
		parameters,
		credentials,
		items: [{ ...args, toolCallId: 'call_1' }],
		asAgentTool: true,
	});
	return { run, output };
}
