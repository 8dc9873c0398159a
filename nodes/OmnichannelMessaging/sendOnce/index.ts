import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemResults } from '../output/results';
import { forgetClaims } from './claims';
import { SendOnceRun } from './run';
import type { SendOnceSetup } from './run';
import { forgetHistoryRows } from './store';

/*
 * Send Once per Key (docs/send-once.md), as the send pipeline uses it: the fields and the key
 * reader for checking, then one SendOnceRun per execution, called at three points (open the
 * checked keys, the send order whose source hears each outcome, finish). Nothing else of this
 * folder is meant to be imported from outside it.
 */
export { SEND_ONCE_OPTIONS, readSendOnceKey, readSendOnceOptions } from './options';
export type { SendOnceOptions } from './options';
export type { KeyedItemSource, SendOnceRun } from './run';
export { sendOnceStoreFigures } from './store';

/** This execution's Send Once, or undefined when Send Once per Key is off. */
export function sendOnceFor(
	context: IExecuteFunctions,
	setup: Omit<SendOnceSetup, 'settings'> & { settings?: SendOnceSetup['settings'] },
	results: ItemResults,
): SendOnceRun | undefined {
	const { settings } = setup;
	return settings ? new SendOnceRun(context, { ...setup, settings }, results) : undefined;
}

/** What a restart of n8n forgets: the keys held in this process and the history rows' pending checks (tests). */
export function forgetSendOnceState(): void {
	forgetClaims();
	forgetHistoryRows();
}
