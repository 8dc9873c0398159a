import type { INodeProperties, INodePropertyOptions, INode, INodePropertyMode } from 'n8n-workflow';

import { invalidInputError } from './errors';
import { locatorValue, toPositiveInteger } from './values';

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

export interface NumberedThing {
	/** The field's name in the editor, which errors name too. */
	field: string;
	/** What the number is of, for example "channel" or "template". */
	noun: string;
	example: number;
}

function mode(
	displayName: string,
	name: string,
	type: INodePropertyMode['type'],
	rest: Partial<INodePropertyMode>,
): INodePropertyMode {
	return { displayName, name, type, ...rest };
}

export function listOrIdField(
	thing: NumberedThing,
	field: Pick<
		INodeProperties,
		'name' | 'description' | 'hint' | 'builderHint' | 'displayOptions' | 'typeOptions'
	> & { searchListMethod: string },
): INodeProperties {
	const { searchListMethod, ...rest } = field;
	return {
		displayName: thing.field,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			mode('From List', 'list', 'list', {
				placeholder: `Select a ${thing.noun}...`,
				typeOptions: { searchListMethod, searchable: true, searchFilterRequired: false },
			}),
			mode('By ID', 'id', 'string', { placeholder: `e.g. ${thing.example}` }),
		],
		...rest,
	};
}

/** A plain number is one saved before the field became a locator; anything else is the item's input error. */
export function numberedIdFrom(
	thing: NumberedThing,
	parameter: unknown,
	node: INode,
	itemIndex: number,
): number {
	const raw = locatorValue(parameter);
	const id = toPositiveInteger(raw);
	if (id === undefined) {
		throw invalidInputError(
			node,
			itemIndex,
			thing.field,
			`${JSON.stringify(raw) ?? 'nothing'} is not a ${thing.noun} ID: give the ${thing.noun}'s ` +
				`number, for example ${thing.example}`,
			`Pick a ${thing.noun} from the list, or switch to "By ID" and enter its number, for example ${thing.example}.`,
		);
	}
	return id;
}
