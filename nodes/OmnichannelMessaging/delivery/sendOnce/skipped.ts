import type { INodeExecutionData } from 'n8n-workflow';

export type SkipReason = 'alreadySent' | 'duplicateInRun' | 'outcomeUnknown';

export function skippedItem(
	itemIndex: number,
	reason: SkipReason,
	sendOnceKey: string,
): INodeExecutionData {
	return { json: { skipped: true, reason, sendOnceKey }, pairedItem: { item: itemIndex } };
}
