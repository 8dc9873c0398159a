import type { IExecuteFunctions, INode, NodeExecutionHint } from 'n8n-workflow';

import type { ItemResults } from '../helpers/errors/facts';
import { REAL_CLOCK } from './clock';
import type { DeliveryReport } from './deliver';
import type { LogFigures } from './runLog';
import type { SendSession } from './session';
import { runsAsTool } from '../helpers/values';
import type { PaceFigures } from './pacer';

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

	/** An item failed its check: nothing was sent for it. */
	checkFailed(): void {
		this.failedBeforeSending += 1;
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

/*
 * The run summary: what a send run did, in figures a builder can act on, shown by n8n above the
 * node's output (an execution hint) and written to n8n's log at the run's end.
 */

/** Where the items that failed went: the run goes on past them, or (none) stops at the first. */
export type FailedTo = 'errorOutput' | 'regularOutput' | 'toolAnswer' | 'stop';

/** Items skipped by Send Once per Key, by why (delivery/sendOnce/options.ts). */
export interface SkippedFigures {
	alreadySent: number;
	duplicateInRun: number;
	outcomeUnknown: number;
}

export interface RunFigures {
	items: number;
	sent: number;
	failed: number;
	failedTo: FailedTo;
	skipped: SkippedFigures;
	notStarted: number;
	wallMs: number;
	pace: PaceFigures;
}

/** What the run's items ended as: the service's answers, the errors found, the skipped results. */
export interface RunOutcome {
	results: ItemResults;
	sent: number;
	failed: number;
	pace: PaceFigures;
	wallMs: number;
}

export function failedToOf(functions: IExecuteFunctions, node: INode): FailedTo {
	if (runsAsTool(functions, node)) return 'toolAnswer';
	if (node.onError === 'continueErrorOutput') return 'errorOutput';
	return functions.continueOnFail() ? 'regularOutput' : 'stop';
}

export function runFigures(outcome: RunOutcome, failedTo: FailedTo): RunFigures {
	const skipped: SkippedFigures = { alreadySent: 0, duplicateInRun: 0, outcomeUnknown: 0 };
	for (const item of outcome.results) {
		const reason = item?.json.skipped === true ? item.json.reason : undefined;
		if (typeof reason === 'string' && reason in skipped)
			skipped[reason as keyof SkippedFigures] += 1;
	}
	const items = outcome.results.length;
	const done = outcome.sent + outcome.failed + skippedCount(skipped);
	return {
		items,
		sent: outcome.sent,
		failed: outcome.failed,
		failedTo,
		skipped,
		notStarted: Math.max(0, items - done),
		wallMs: outcome.wallMs,
		pace: outcome.pace,
	};
}

export function skippedCount(skipped: SkippedFigures): number {
	return skipped.alreadySent + skipped.duplicateInRun + skipped.outcomeUnknown;
}

/** A duration as a builder reads it: 14.2 s, or 3 min 5 s. */
export function duration(ms: number): string {
	if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const FAILED_TO: Record<FailedTo, string> = {
	errorOutput: 'on the error output',
	regularOutput: 'on the output, each with an "error" field',
	toolAnswer: "in the tool's answer",
	stop: 'the run stopped',
};

const STATUS_WORDS: Record<string, string> = {
	'429': '429 Too Many Requests',
	'503': '503 Service Unavailable',
};

/** Why items were skipped, naming only the reasons that occurred. */
function skippedWords(skipped: SkippedFigures): string {
	const words = [
		[skipped.alreadySent, 'sent before'],
		[skipped.duplicateInRun, 'repeated in this run'],
		[skipped.outcomeUnknown, 'outcome of an earlier send unknown'],
	] as const;
	return words
		.filter(([count]) => count > 0)
		.map(([count, why]) => `${count} ${why}`)
		.join(', ');
}

/** The option that starts the next run at the pace settled at, unless it is set so already. */
function settingWords(pace: PaceFigures): string {
	const { settled, limits } = pace;
	if (!settled || !limits) return '';
	const rate = Math.max(1, Math.floor(settled.perSecond));
	if (settled.perSecond > 0 && (limits.maxPerSecond === 0 || rate < limits.maxPerSecond))
		return ` To start at that pace, set Options → Max Messages per Second to ${rate}.`;
	if (settled.atOnce < limits.ceiling)
		return ` To start at that pace, set Options → Concurrency to ${settled.atOnce}.`;
	return '';
}

/** How often the service asked to slow down, and the pace the node settled at, with what to set. */
function paceWords(pace: PaceFigures): string {
	const statuses = Object.entries(pace.byStatus)
		.map(([status, count]) => `${count}× ${STATUS_WORDS[status] ?? status}`)
		.join(', ');
	const asked = `The service asked the node to slow down ${pace.slowDowns} time(s) (${statuses})`;
	const paused = pace.pauses > 0 ? `; sending paused ${pace.pauses} time(s)` : '';
	const { settled } = pace;
	if (!settled) return `${asked}${paused}.`;
	const perSecond = Math.round(settled.perSecond * 10) / 10;
	const rate = perSecond > 0 ? `, at most ${perSecond} a second` : '';
	return (
		`${asked}${paused} and settled at ${settled.atOnce} message(s) at once${rate}. ` +
		`Messages refused this way were sent again, not failed.${settingWords(pace)}`
	);
}

/** The summary in plain words: only the figures that are not zero, sent always. */
export function summaryMessage(figures: RunFigures): string {
	const parts = [`${figures.sent} sent`];
	if (figures.failed > 0) parts.push(`${figures.failed} failed (${FAILED_TO[figures.failedTo]})`);
	const skipped = skippedCount(figures.skipped);
	if (skipped > 0) parts.push(`${skipped} skipped by Send Once (${skippedWords(figures.skipped)})`);
	if (figures.notStarted > 0) parts.push(`${figures.notStarted} not started`);
	const head = `${figures.items} item(s): ${parts.join(', ')}, in ${duration(figures.wallMs)}.`;
	return figures.pace.slowDowns > 0 ? `${head} ${paceWords(figures.pace)}` : head;
}

/**
 * Shows the summary above the node's output. n8n added execution hints for nodes in 1.x; where
 * the execution functions have none, the summary is in the log only.
 */
export function addRunSummary(functions: IExecuteFunctions, figures: RunFigures): boolean {
	const add = (functions as Partial<IExecuteFunctions>).addExecutionHints;
	if (typeof add !== 'function') return false;
	const hint: NodeExecutionHint = {
		message: summaryMessage(figures),
		type: figures.failed > 0 || figures.notStarted > 0 ? 'warning' : 'info',
		location: 'outputPane',
	};
	add.call(functions, hint);
	return true;
}
