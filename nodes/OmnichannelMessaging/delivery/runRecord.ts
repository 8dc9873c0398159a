import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemResults } from '../helpers/results';
import { REAL_CLOCK } from './clock';
import type { DeliveryReport } from './deliver';
import type { LogFigures } from './runLog';
import type { SendSession } from './session';
import { addRunSummary, failedToOf, runFigures, skippedCount, summaryMessage } from './summary';
import type { FailedTo, RunFigures } from './summary';

/** How the run ended: every item handled, stopped by an error, or a dry run that sent nothing. */
export type RunEnd = 'completed' | 'stopped' | 'dryRun';

const NO_PACE = { slowDowns: 0, byStatus: {}, pauses: 0 };

/** The figures of a run as log fields: counts, time, and the pace when the service slowed it. */
function logFields(figures: RunFigures): LogFigures {
	const fields: LogFigures = {
		items: figures.items,
		sent: figures.sent,
		failed: figures.failed,
		failedTo: figures.failedTo,
		skippedBySendOnce: skippedCount(figures.skipped),
		notStarted: figures.notStarted,
		wallMs: figures.wallMs,
		slowDowns: figures.pace.slowDowns,
		pauses: figures.pace.pauses,
	};
	if (figures.pace.settled) {
		fields.settledAtOnce = figures.pace.settled.atOnce;
		fields.settledPerSecond = Math.round(figures.pace.settled.perSecond * 10) / 10;
	}
	return fields;
}

/**
 * One send run as a builder and an operator see it: its start and end in n8n's log, and its
 * summary above the node's output. Time is the delivery engine's clock (delivery/clock.ts).
 */
export class RunRecord {
	private readonly startedAt = REAL_CLOCK.now();

	private readonly failedTo: FailedTo;

	private failedBeforeSending = 0;

	/** The delivery's report, once the checked items went out. */
	report?: DeliveryReport;

	constructor(
		private readonly functions: IExecuteFunctions,
		private readonly session: SendSession,
	) {
		this.failedTo = failedToOf(functions, session.context.node);
	}

	started(items: number): void {
		const { options, context } = this.session;
		const { resource, operation } = context.node.parameters;
		this.session.log.write('debug', `send run started: ${items} item(s)`, {
			operation: `${String(resource)}.${String(operation)}`,
			items,
			concurrency: options.concurrency,
			maxPerSecond: options.maxPerSecond,
			dryRun: options.dryRun,
			sendOnce: options.sendOnce ? `per key, across ${options.sendOnce.scope}` : 'off',
			timeoutMs: options.timeout,
			failedTo: this.failedTo,
		});
	}

	/** After the check: an item with a result that is not a Send Once skip failed its check. */
	checked(results: ItemResults): void {
		this.failedBeforeSending = results.filter((item) => item && item.json.skipped !== true).length;
	}

	/** The end line in the log, and (a completed run) the summary above the output. */
	ended(results: ItemResults, end: RunEnd): void {
		if (end === 'dryRun') {
			const failed = this.failedBeforeSending;
			this.session.log.write('debug', 'dry run ended: nothing was sent', {
				items: results.length,
				failed,
			});
			return;
		}
		const figures = runFigures(
			{
				results,
				sent: this.report?.sent.length ?? 0,
				failed: this.failedBeforeSending + (this.report?.failed.length ?? 0),
				pace: this.report?.pace ?? NO_PACE,
				wallMs: Math.max(0, REAL_CLOCK.now() - this.startedAt),
			},
			this.failedTo,
		);
		if (end === 'completed') addRunSummary(this.functions, figures);
		const { log } = this.session;
		if (this.session.options.sendOnce) {
			log.write('debug', 'Send Once decisions', { ...figures.skipped, sent: figures.sent });
		}
		const noteworthy = figures.failed + figures.notStarted + figures.pace.slowDowns > 0;
		log.write(noteworthy ? 'info' : 'debug', `send run ${end}: ${summaryMessage(figures)}`, {
			end,
			...logFields(figures),
		});
	}
}
