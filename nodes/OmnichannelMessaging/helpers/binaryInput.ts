import type { IExecuteFunctions } from 'n8n-workflow';

/** Whether the item carries n8n binary data: a file an earlier node produced or downloaded. */
export function carriesFile(functions: IExecuteFunctions, itemIndex: number): boolean {
	const binary = functions.getInputData()[itemIndex]?.binary;
	return binary !== undefined && binary !== null && Object.keys(binary).length > 0;
}
