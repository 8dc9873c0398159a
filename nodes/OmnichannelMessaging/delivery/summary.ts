/*
 * The run summary: what a send run did, in figures a builder can act on, shown by n8n above the
 * node's output (an execution hint) and written to n8n's log at the run's end.
 */
import type { IExecuteFunctions, INode, NodeExecutionHint } from 'n8n-workflow';

import type { ItemResults } from '../helpers/results';
import { runsAsTool } from '../helpers/toolCall';
import type { PaceFigures } from './paceWatch';

/** Where the items that failed went: the run goes on past them, or (none) stops at the first. */
export type FailedTo = 'errorOutput' | 'regularOutput' | 'toolAnswer' | 'stop';

/** Items skipped by Send Once per Key, by why (delivery/sendOnce/skipped.ts). */
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
