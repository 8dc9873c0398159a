import type { IExecuteFunctions, INode } from 'n8n-workflow';

/**
 * n8n offers a node marked usableAsTool to AI agents and the MCP Server Trigger as a variant of its
 * own type named `<type>Tool`; every agent loop (the AI Agent's engine requests, its older direct
 * invocation, the MCP server) runs that variant. `node`: the execution's copy where it has one
 * (getNode() deep-copies the node).
 */
export function runsAsTool(context: IExecuteFunctions, node: INode = context.getNode()): boolean {
	return node.type.endsWith('Tool');
}

/**
 * Whether one item's failure becomes an output item instead of stopping the run: with continue on
 * fail, and always in a tool call, whose answer is all its caller (a model) reads. A failed tool
 * call would otherwise end the agent's whole execution (AI Agent 3.x) or reach the model as a bare
 * description without the field it names (AI Agent 2.x, MCP Server Trigger).
 */
export function failuresBecomeItems(context: IExecuteFunctions, node?: INode): boolean {
	return context.continueOnFail() || runsAsTool(context, node);
}
