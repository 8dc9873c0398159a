import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	NodeParameterValueType,
} from 'n8n-workflow';

/** Whether a saved parameter value holds an expression anywhere ("=…" text, n8n's mark). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value === null || typeof value !== 'object') return false;
	return Object.values(value).some(holdsExpression);
}

/** The saved value at a parameter path such as `options.sendOnceKey`. */
function savedValue(parameters: IDataObject, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.'))
		value = value !== null && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
	return value;
}

/**
 * One execution of an operation, and the one way the node reads its parameters. In a real n8n
 * every read resolves the value through the workflow data proxy and `getNode()` deep-copies the
 * node: the node is copied once, and a value without an expression, the same for every item, is
 * read once.
 */
export class OperationContext {
	private readonly sameForEveryItem = new Map<string, unknown>();

	private savedNode?: INode;

	constructor(readonly functions: IExecuteFunctions) {}

	/** The node as saved, for errors and for telling fixed values from expressions. */
	get node(): INode {
		this.savedNode ??= this.functions.getNode();
		return this.savedNode;
	}

	/** Parameter `name` (a path such as `options.timeout` too) for the item; `fallback` where it is not set. */
	get(name: string, itemIndex: number, fallback?: NodeParameterValueType): unknown {
		const key = `${name}\n${JSON.stringify(fallback) ?? ''}`;
		if (this.sameForEveryItem.has(key)) return this.sameForEveryItem.get(key);
		const value = this.functions.getNodeParameter(name, itemIndex, fallback);
		if (!holdsExpression(savedValue(this.node.parameters, name)))
			this.sameForEveryItem.set(key, value);
		return value;
	}

	/**
	 * The collection `name` as given, for the whole execution (item 0), but for the options in
	 * `perItem`. Each option is read by itself: in a real n8n every expression read costs an
	 * evaluation in its sandbox, and an option read per item would be read here for nothing.
	 */
	collection(name: string, perItem: ReadonlySet<string> = new Set()): IDataObject {
		const saved = this.node.parameters[name] as IDataObject | undefined;
		const collection: IDataObject = {};
		for (const option of Object.keys(saved ?? {})) {
			if (!perItem.has(option))
				collection[option] = this.get(`${name}.${option}`, 0) as IDataObject[string];
		}
		return collection;
	}
}

/** A parameter of the node open in the editor, for its lists and mapper (methods/). */
export function editorParameter(functions: ILoadOptionsFunctions, name: string): unknown {
	return functions.getCurrentNodeParameter(name);
}

/** Whether the item carries n8n binary data: a file an earlier node produced or downloaded. */
export function carriesFile(functions: IExecuteFunctions, itemIndex: number): boolean {
	const binary = functions.getInputData()[itemIndex]?.binary;
	return binary !== undefined && binary !== null && Object.keys(binary).length > 0;
}
