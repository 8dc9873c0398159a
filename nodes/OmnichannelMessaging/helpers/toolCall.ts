import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

/**
 * n8n offers a usableAsTool node to agents and the MCP Server Trigger as `<type>Tool`; every agent
 * loop runs it. `node`: the execution's copy where it has one (getNode() deep-copies).
 */
export function runsAsTool(
	functions: IExecuteFunctions,
	node: INode = functions.getNode(),
): boolean {
	return node.type.endsWith('Tool');
}

/**
 * Always in a tool call: a failed tool call would end the agent's execution (AI Agent 3.x) or reach
 * the model without the field it names (AI Agent 2.x, MCP Server Trigger).
 */
export function failuresBecomeItems(functions: IExecuteFunctions, node?: INode): boolean {
	return functions.continueOnFail() || runsAsTool(functions, node);
}

/** Why the person's answer could not reach whoever runs Send and Wait (see `whyNoAnswerCanCome`). */
export type NoAnswerReason = 'toolLoop' | 'cli';

/**
 * Why the execution cannot wait here and hand the answer to whoever called, or undefined where it
 * can. A workflow step in a running n8n can. A tool call can only where n8n's engine runs it as a step of the
 * execution (AI Agent 3 and later, a Human review; n8n-core's requests-response.ts): the engine
 * marks the node `rewireOutputLogTo: ai_tool`, keeps the agent's turn behind it and gives the agent
 * what the node outputs on resuming. An agent or MCP Server Trigger that invokes the tool in its
 * own loop (AI Agent before 3) leaves no mark, and would hand the model a result at once while the
 * execution waits. `n8n execute` (the CLI, execution mode `cli`) prints the execution as it
 * stands once it starts waiting and exits: nothing in that run receives the answer, and the
 * execution is left waiting, without a limit unless one is set. This is the one place that decides.
 */
export function whyNoAnswerCanCome(
	functions: IExecuteFunctions,
	node: INode,
): NoAnswerReason | undefined {
	if (functions.getMode() === 'cli') return 'cli';
	if (runsAsTool(functions, node) && node.rewireOutputLogTo !== NodeConnectionTypes.AiTool)
		return 'toolLoop';
	return undefined;
}
