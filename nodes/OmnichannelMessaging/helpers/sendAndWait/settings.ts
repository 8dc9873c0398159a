import type { IDataObject } from 'n8n-workflow';

import { sendAndWaitSettingError } from '../errors';
import type { OperationContext } from '../values';
import { readAnswerConfig } from './config';
import type { AnswerConfig } from './config';
import { waitTillFor } from './waitTime';

/** What a Send and Wait execution decides before sending: the answer asked for, and the wait's end. */
export interface SendAndWaitSettings {
	config: AnswerConfig;
	waitTill: Date;
}

/** Read once for the execution (item 0, as n8n's nodes do); a setting that cannot work stops it unsent. */
export function readSendAndWaitSettings(
	context: OperationContext,
	now: Date = new Date(),
): SendAndWaitSettings {
	const config = readAnswerConfig((name, fallback) => context.get(name, 0, fallback as string));
	if ('problem' in config)
		throw sendAndWaitSettingError(context.node, config.field, config.problem);
	const limit = context.get('options.limitWaitTime.values', 0, {}) as IDataObject | undefined;
	const wait = waitTillFor(limit, now);
	if (!wait.ok) throw sendAndWaitSettingError(context.node, 'Limit Wait Time', wait.reason);
	return { config, waitTill: wait.waitTill };
}
