import { WAIT_INDEFINITELY } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { runSendPipeline } from '../delivery';
import type { PrepareSend } from '../delivery';
import {
	errorItemJson,
	sendAndWaitCliError,
	sendAndWaitItemsError,
	sendAndWaitSettingError,
	sendAndWaitToolError,
} from '../helpers/errors';
import type { OperationContext } from '../helpers/values';
import { runsAsTool, whyNoAnswerCanCome } from '../helpers/values';
import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';

import { optionsField, shownWhen } from '../helpers/displayOptions';
import type { AnswerConfig } from './answer';
import { readAnswerConfig } from './webhook';

/*
 * The waiting side of Send and Wait: when the wait ends (Limit Wait Time, its option and its
 * reading), the links the message carries, and the run of one execution (one item, the send, then
 * the wait).
 */

/** n8n's Limit Wait Time option, its names, values and default (45 minutes) included. */
export const LIMIT_WAIT_TIME_OPTION: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting for an answer after a while. The node then outputs its input item ' +
		'unchanged, without "data".',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				optionsField(
					[
						'Limit Type',
						'limitType',
						'Stop waiting after an amount of time, or at a date and time',
					],
					'afterTimeInterval',
					[
						['After Time Interval', 'afterTimeInterval'],
						['At Specified Time', 'atSpecifiedTime'],
					],
				),
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 1,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					description: 'The time to wait',
					displayOptions: shownWhen({ limitType: ['afterTimeInterval'] }),
				},
				optionsField(
					['Unit', 'resumeUnit', 'Unit of the amount'],
					'hours',
					[
						['Minutes', 'minutes'],
						['Hours', 'hours'],
						['Days', 'days'],
					],
					{ displayOptions: shownWhen({ limitType: ['afterTimeInterval'] }) },
				),
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Stop waiting at this date and time',
					displayOptions: shownWhen({ limitType: ['atSpecifiedTime'] }),
				},
			],
		},
	],
};

const UNIT_MS: Record<string, number> = {
	minutes: 60_000,
	hours: 3_600_000,
	days: 86_400_000,
};

function afterInterval(limit: IDataObject, now: Date): Checked<Date> {
	const amount = Number(limit.resumeAmount ?? 1);
	const unit = String(limit.resumeUnit ?? 'hours');
	if (!Object.hasOwn(UNIT_MS, unit))
		return refused(`the unit ${JSON.stringify(unit)} is not minutes, hours or days`);
	if (!Number.isFinite(amount) || amount <= 0)
		return refused('the amount must be a number above 0');
	return accepted(new Date(now.getTime() + amount * UNIT_MS[unit]));
}

function atDate(limit: IDataObject, now: Date): Checked<Date> {
	const raw = limit.maxDateAndTime;
	const date =
		raw instanceof Date
			? raw
			: new Date(typeof raw === 'string' || typeof raw === 'number' ? raw : NaN);
	if (Number.isNaN(date.getTime())) return refused('the max date and time is not a date');
	if (date.getTime() <= now.getTime()) return refused('the max date and time has passed');
	return accepted(date);
}

/**
 * When the wait ends without an answer (n8n's configureWaitTillDate, with the same names): never
 * without a limit, else after the interval from `now`, or at the date. A limit that cannot be kept
 * (no amount, a date gone by) is refused, so that the message is not sent for a wait that would
 * end at once.
 */
export function waitTillFor(limit: IDataObject | undefined, now: Date): Checked<Date> {
	if (!limit || Object.keys(limit).length === 0) return accepted(WAIT_INDEFINITELY);
	const limitType = limit.limitType ?? 'afterTimeInterval';
	if (limitType === 'afterTimeInterval') return afterInterval(limit, now);
	if (limitType === 'atSpecifiedTime') return atDate(limit, now);
	return refused(`the limit type ${JSON.stringify(limitType)} is not known`);
}

/** n8n's `getSignedResumeUrl`: the execution's waiting URL for this node, signed with these parameters. */
export type SignResumeUrl = (parameters?: Record<string, string>) => string;

/** n8n 1.x's execute functions have this; n8n 2.x checks a send-and-wait link's signature always. */
type OlderExecuteFunctions = IExecuteFunctions & { setSignatureValidationRequired?: () => void };

/**
 * The execution's signed links. n8n 1.x checks a waiting link's signature only once the node has
 * asked for it (setSignatureValidationRequired, as its own nodes do): without that, a link with
 * any signature would be taken.
 */
export function resumeUrlSigner(functions: IExecuteFunctions): SignResumeUrl {
	(functions as OlderExecuteFunctions).setSignatureValidationRequired?.();
	return (parameters) => functions.getSignedResumeUrl(parameters);
}

export interface AnswerLink {
	label: string;
	url: string;
}

/**
 * The links the message carries, as n8n's messaging nodes send them: one per approval button
 * (each with its value signed in), or one to the page. A link opens a page; only the page's
 * button records the answer.
 */
export function answerLinks(sign: SignResumeUrl, config: AnswerConfig): AnswerLink[] {
	if (config.kind === 'form') return [{ label: config.linkLabel, url: sign({}) }];
	const { name, buttons, linkLabel } = config;
	if (linkLabel !== undefined) return [{ label: linkLabel, url: sign({}) }];
	return buttons.map((button) => ({ label: button.label, url: sign({ [name]: button.value }) }));
}

/** One link for every button (a template variable holds one): its page shows each button. */
export function pageLink(sign: SignResumeUrl): string {
	return sign({});
}

/** The message, then each link on its own line after its label. */
export function messageWithLinks(message: string, links: AnswerLink[]): string {
	const lines = links.map((link) => `${link.label}: ${link.url}`);
	return `${message.trim()}\n\n${lines.join('\n\n')}`;
}

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
	if (!config.ok)
		throw sendAndWaitSettingError(context.node, config.field ?? 'Response Type', config.reason);
	const limit = context.get('options.limitWaitTime.values', 0, {}) as IDataObject | undefined;
	const wait = waitTillFor(limit, now);
	if (!wait.ok) throw sendAndWaitSettingError(context.node, 'Limit Wait Time', wait.reason);
	return { config: config.value, waitTill: wait.value };
}

/** Whether the pipeline's item is a message the service took: not an error, a preview or a skip. */
function wasSent(item: INodeExecutionData | undefined): boolean {
	if (!item) return false;
	const { json } = item;
	return !('error' in json) && json.dryRun !== true && json.skipped !== true;
}

/**
 * Send and Wait for Response: one item only (checked once, before anything else), the settings,
 * then the one message goes through the send pipeline (checks, pacing, error contract), then the
 * execution waits until the limit or an answer. Nothing waits when nothing was sent: a failure is
 * thrown or comes out as the pipeline's error item. As n8n's own nodes do, the node outputs its
 * input while waiting; n8n passes that input on when the limit ends the wait (it does not run
 * `execute` again), and the answer when one is recorded.
 */
export async function runSendAndWait(
	this: IExecuteFunctions,
	prepareFor: (settings: SendAndWaitSettings) => PrepareSend,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	if (count !== 1) throw sendAndWaitItemsError(context.node, count);
	const noAnswer = whyNoAnswerCanCome(this, context.node);
	if (noAnswer) {
		const error =
			noAnswer === 'cli' ? sendAndWaitCliError(context.node) : sendAndWaitToolError(context.node);
		// A workflow step fails before sending; a model reads why nothing was sent as the tool's answer.
		if (!runsAsTool(this, context.node)) throw error;
		return [[{ json: errorItemJson(error), pairedItem: { item: 0 } }]];
	}
	const settings = readSendAndWaitSettings(context);
	const output = await runSendPipeline.call(this, prepareFor(settings), context);
	if (!wasSent(output[0]?.[0])) return output;
	await this.putExecutionToWait(settings.waitTill);
	return [this.getInputData()];
}
