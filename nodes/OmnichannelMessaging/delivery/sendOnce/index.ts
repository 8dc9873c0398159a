import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemResults } from '../../helpers/results';
import { SendOnceRun } from './run';
import type { SendOnceSetup } from './run';

// Send Once per Key (docs/send-once.md). Nothing else of this folder is imported from outside it.
export { SEND_ONCE_OPTIONS, readSendOnceKey, readSendOnceOptions } from './options';
export type { SendOnceOptions } from './options';
export type { SendOnceRun } from './run';

/** The execution's Send Once run; undefined when Send Once per Key is off. */
export function sendOnceFor(
	functions: IExecuteFunctions,
	setup: Omit<SendOnceSetup, 'settings'> & { settings?: SendOnceSetup['settings'] },
	results: ItemResults,
): SendOnceRun | undefined {
	const { settings } = setup;
	return settings ? new SendOnceRun(functions, { ...setup, settings }, results) : undefined;
}
