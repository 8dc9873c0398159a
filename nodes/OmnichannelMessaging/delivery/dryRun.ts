import type { IExecuteFunctions } from 'n8n-workflow';

import { API_PREFIX } from '../constants';
import type { ItemResults } from '../helpers/results';
import type { PreparedSend } from './session';

/** Step 2 of a dry run: each checked item shows the exact request it would have sent. Nothing is sent. */
export function reportDryRun(
	functions: IExecuteFunctions,
	prepared: Array<PreparedSend | undefined>,
	results: ItemResults,
): void {
	let built = 0;
	prepared.forEach((request, itemIndex) => {
		if (!request || results[itemIndex]) return;
		built += 1;
		results[itemIndex] = {
			json: {
				dryRun: true,
				request: {
					method: request.method,
					path: `${API_PREFIX}${request.path}`,
					body: request.body,
				},
				rendered: request.rendered ?? null,
			},
			pairedItem: { item: itemIndex },
		};
	});
	functions.addExecutionHints({
		message: `Dry run: ${built} message(s) checked and built. Nothing was sent.`,
		location: 'outputPane',
	});
}
