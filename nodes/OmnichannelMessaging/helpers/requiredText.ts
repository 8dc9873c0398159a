import { invalidInputError } from './errors';
import type { OperationContext } from './operationContext';
import { toServiceString } from './values';

/** A number from an expression counts as text. */
export interface RequiredText {
	parameter: string;
	field: string;
	/** "a customer ID": said of a value that is not text. */
	what: string;
	advice: string;
}

export function readRequiredText(
	context: OperationContext,
	itemIndex: number,
	text: RequiredText,
): string {
	const raw = context.get(text.parameter, itemIndex, '');
	const value = toServiceString(raw)?.trim();
	if (!value) {
		const problem =
			raw === '' || raw === undefined || raw === null
				? 'it is empty'
				: `${JSON.stringify(raw)} is not ${text.what}`;
		throw invalidInputError(context.node, itemIndex, text.field, `${problem}: ${text.advice}`);
	}
	return value;
}
