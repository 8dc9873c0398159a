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
