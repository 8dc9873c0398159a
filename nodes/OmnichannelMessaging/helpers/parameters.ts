import type { IExecuteFunctions, INode, NodeParameterValueType } from 'n8n-workflow';

/** Whether a saved parameter value holds an expression anywhere ("=…" text, n8n's mark). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value === null || typeof value !== 'object') return false;
	return Object.values(value).some(holdsExpression);
}

/**
 * An execution's parameter reads. In a real n8n every read resolves the value through the
 * workflow data proxy and `getNode()` deep-copies the node: a value without an expression is the
 * same for every item, so it is read once, and the node is copied once.
 */
export class ExecutionParameters {
	private readonly sameForEveryItem = new Map<string, unknown>();

	private savedNode?: INode;

	constructor(private readonly context: IExecuteFunctions) {}

	/** The node as saved, for errors and for telling fixed values from expressions. */
	get node(): INode {
		this.savedNode ??= this.context.getNode();
		return this.savedNode;
	}

	/** Top-level parameter `name` for the item. */
	get(name: string, itemIndex: number, fallback?: NodeParameterValueType): unknown {
		if (this.sameForEveryItem.has(name)) return this.sameForEveryItem.get(name);
		const value = this.context.getNodeParameter(name, itemIndex, fallback);
		if (!holdsExpression(this.node.parameters[name])) this.sameForEveryItem.set(name, value);
		return value;
	}
}
