import { NodeOperationError } from 'n8n-workflow';
import type { INode, INodeExecutionData } from 'n8n-workflow';

import type { CredentialProblem } from '../credential';
import { errorItemJson, withFacts } from './facts';

/** Nothing was sent: no request could carry this credential field (or no URL). */
export function invalidCredentialError(
	node: INode,
	problem: CredentialProblem,
): NodeOperationError {
	const error = new NodeOperationError(node, `Invalid credential: ${problem.reason}`, {
		description:
			`Open the Omnichannel Messaging API credential and fix the ${problem.field}. ` +
			`${problem.hint} Nothing was sent.`,
	});
	return withFacts(
		error,
		{ outcome: 'notSent', reason: 'invalidInput', field: problem.field },
		{ cause: 'credential-invalid' },
	);
}

/**
 * Told by its type: an operation error whose cause, in n8n's own words for a failure, is an invalid
 * credential (a copy that names an item keeps it, see send.ts's templateLoadError).
 */
export function isCredentialError(error: unknown): error is NodeOperationError {
	return error instanceof NodeOperationError && error.failure?.cause === 'credential-invalid';
}

/** A credential error becomes every item's error item (a tool's answer); any other error is thrown on. */
export function credentialErrorItems(error: unknown, itemCount: number): INodeExecutionData[] {
	if (!isCredentialError(error)) throw error;
	return Array.from({ length: itemCount }, (_, itemIndex) => ({
		json: errorItemJson(error),
		pairedItem: { item: itemIndex },
	}));
}
