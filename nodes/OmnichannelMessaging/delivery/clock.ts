import { sleep } from 'n8n-workflow';

/** Time as the delivery engine's shared state sees it: n8n's real one, or a test's virtual one. */
export interface Clock {
	now(): number;
	/** Resolves after `ms`, or rejects once `signal` aborts. */
	wait(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The process's clock. n8n-workflow's sleep, because n8n Cloud code may not use Node's timers or
 * process hooks.
 */
export const REAL_CLOCK: Clock = Object.freeze({
	now: () => Date.now(),
	wait: async (ms: number, signal?: AbortSignal) => await sleep(ms, signal),
});
