import type { IExecuteFunctions } from 'n8n-workflow';

import { API_PREFIX } from '../constants';
import type { ItemResults } from './results';
import type { PreparedSend } from './session';

/** Step 2 of a dry run: each checked item shows the exact request it would have sent. Nothing is sent. */
export function reportDryRun(
	context: IExecuteFunctions,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): void {
	prepared.forEach((request, itemIndex) => {
		if (!request) return;
		results[itemIndex] = {
			json: {
				dryRun: true,
				request: { method: 'POST', path: `${API_PREFIX}${request.path}`, body: request.body },
				rendered: request.rendered ?? null,
			},
			pairedItem: { item: itemIndex },
		};
	});
	context.addExecutionHints({
		message: `Dry run: ${prepared.filter(Boolean).length} message(s) checked and built. Nothing was sent.`,
		location: 'outputPane',
	});
}
