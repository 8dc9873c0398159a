import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

// The display options and Operation field every resource and operation builds its fields with.

type Show = { resource: string[]; operation: string[] };

export function showFor(resource: string, operation: string): { show: Show } {
	return { show: { resource: [resource], operation: [operation] } };
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
