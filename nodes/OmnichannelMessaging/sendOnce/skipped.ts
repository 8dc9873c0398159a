import type { INodeExecutionData } from 'n8n-workflow';

/** Why an item was not sent on purpose: its send-once key was sent already, or may have been. */
export type SkipReason = 'alreadySent' | 'duplicateInRun' | 'outcomeUnknown';

export function skippedItem(itemIndex: number, reason: SkipReason, sendOnceKey: string): INodeExecutionData {
	return { json: { skipped: true, reason, sendOnceKey }, pairedItem: { item: itemIndex } };
}
