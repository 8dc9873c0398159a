import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

// The display options and Operation field every resource and operation builds its fields with.

/** What a parameter's display options test: parameter names and the values they must hold. */
export type Conditions = NonNullable<IDisplayOptions['show']>;

/**
 * The one way the node's parameters say when they are shown: every condition holds. (Hiding is
 * kept for the one case where showing cannot say it: a value the node does not know.)
 */
export function shownWhen(...conditions: Conditions[]): { show: Conditions } {
	return { show: Object.assign({}, ...conditions) as Conditions };
}

/** Shown for one operation of one resource. */
export function showFor(resource: string, operation: string): { show: Conditions } {
	return shownWhen({ resource: [resource], operation: [operation] });
}

export function operationField(
	resource: string,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}

/** An option as a builder reads it and the value the node stores, or n8n's own option object. */
type OptionEntry = [name: string, value: string] | INodePropertyOptions;

/**
 * An Options field: the node's Options fields differ only in their names, options, default and
 * display options, so one builder writes them all alike.
 */
export function optionsField(
	[displayName, name, description]: [string, string, string],
	defaultValue: string,
	entries: OptionEntry[],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	const options = entries.map((entry) =>
		Array.isArray(entry) ? { name: entry[0], value: entry[1] } : entry,
	);
	return {
		displayName,
		name,
		type: 'options',
		default: defaultValue,
		description,
		options,
		...extra,
	};
}
