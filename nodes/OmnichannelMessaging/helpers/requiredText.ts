import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidInputError } from './errors';
import { toServiceString } from './values';

/** A number from an expression counts as text. */
export interface RequiredText {
	parameter: string;
	field: string;
	/** "a customer ID": said of a value that is not text. */
	what: string;
	advice: string;
}

export function readRequiredText(context: IExecuteFunctions, itemIndex: number, text: RequiredText): string {
	const raw = context.getNodeParameter(text.parameter, itemIndex, '');
	const value = toServiceString(raw)?.trim();
	if (!value) {
		const problem = raw === '' || raw === undefined || raw === null ? 'it is empty' : `${JSON.stringify(raw)} is not ${text.what}`;
		throw invalidInputError(context.getNode(), itemIndex, text.field, `${problem}: ${text.advice}`);
	}
	return value;
}
