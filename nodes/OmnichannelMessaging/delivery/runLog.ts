/*
 * What an operator reads of a send run in n8n's log (`this.logger`): its start and end, each pause
 * the service asked for, a change of pace, the Send Once decisions, the end of a wait. Only counts,
 * times and reasons: never a phone number, customer ID, text, variable value, link or key.
 */
import type { IDataObject, IExecuteFunctions, IWebhookFunctions, Logger } from 'n8n-workflow';

/** What n8n gives a node's run or its webhook: both carry the logger and say where they come from. */
type LogSource = IExecuteFunctions | IWebhookFunctions;

type Level = 'debug' | 'info' | 'warn';

/** The figures of one log line: counts, times in milliseconds, option values and reasons. */
export type LogFigures = Record<string, number | string | boolean>;

/** Where a line comes from, for an operator who runs many workflows: the node, the workflow, the execution. */
function origin(functions: LogSource): IDataObject {
	const safe = <T>(read: () => T): T | undefined => {
		try {
			return read();
		} catch {
			return undefined;
		}
	};
	return {
		node: safe(() => functions.getNode().name),
		workflowId: safe(() => functions.getWorkflow().id),
		executionId: safe(() => functions.getExecutionId()),
	};
}

/** n8n's logger for the execution, or none (an n8n that gives nodes none logs nothing of them). */
function loggerOf(functions: LogSource): Logger | undefined {
	try {
		const logger = (functions as Partial<LogSource>).logger;
		return typeof logger?.debug === 'function' ? logger : undefined;
	} catch {
		return undefined;
	}
}

/** One execution's lines, each with where it comes from. A logger that throws never stops a send. */
export class RunLog {
	private readonly logger: Logger | undefined;

	private readonly where: IDataObject;

	constructor(functions: LogSource) {
		this.logger = loggerOf(functions);
		this.where = this.logger ? origin(functions) : {};
	}

	write(level: Level, message: string, figures: LogFigures = {}): void {
		try {
			this.logger?.[level](`Omnichannel Messaging: ${message}`, { ...this.where, ...figures });
		} catch {
			// The log is for operators; a send never fails for it.
		}
	}
}

/**
 * One line when a person's answer ends a wait (Send and Wait's webhook): nothing of what they wrote.
 * A wait that runs out ends in n8n without the node, and n8n logs it.
 */
export function logWaitAnswered(functions: LogSource): void {
	new RunLog(functions).write('debug', 'wait ended (answered)', { outcome: 'answered' });
}
