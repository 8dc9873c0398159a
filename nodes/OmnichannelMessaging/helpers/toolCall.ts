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

/**
 * Whether the execution can wait here and hand the answer to whoever called. A workflow step can. A
 * tool call can only where n8n's engine runs it as a step of the execution (AI Agent 3 and later,
 * a Human review; n8n-core's requests-response.ts): the engine marks the node `rewireOutputLogTo:
 * ai_tool`, keeps the agent's turn behind it and gives the agent what the node outputs on resuming.
 * An agent or MCP Server Trigger that invokes the tool in its own loop (AI Agent before 3) leaves
 * no mark, and would hand the model a result at once while the execution waits.
 */
export function canWaitForAnswer(functions: IExecuteFunctions, node: INode): boolean {
	return !runsAsTool(functions, node) || node.rewireOutputLogTo === NodeConnectionTypes.AiTool;
}
