/**
 * One n8n process, as the engine tests see it: the package's modules as n8n loaded them (dist/,
 * through test/helpers/engine.ts's loader), its timings and its clock. Nothing of this is in the
 * package: a restart is a fresh copy of its modules (`jest.resetModules()`, the loader forgotten),
 * the timings are the package's constants.js mocked through jest, and the clock is its
 * delivery/clock.js mocked by a clock a test may move forward.
 */
import path from 'node:path';

import { PACKAGE_ROOT, forgetLoadedPackage } from './engine';

const NODE_DIST = path.join(PACKAGE_ROOT, 'dist', 'nodes', 'OmnichannelMessaging');

/** A dist module's path, for `jest.mock`, as n8n's loader requires it. */
export const distModule = (relative: string) => path.join(NODE_DIST, relative);

interface Wait {
	due: number;
	fire(): void;
	drop(): void;
}

/**
 * Real time plus however far a test moved it. A wait ends when its time comes, on the real timer or
 * by `advance`; a restart drops every wait of the process that ended (its timers die with it).
 */
export class ProcessClock {
	private offset = 0;

	private readonly waits = new Set<Wait>();

	now = (): number => Date.now() + this.offset;

	wait = async (ms: number, signal?: AbortSignal): Promise<void> =>
		await new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(signal.reason);
			const drop = () => {
				clearTimeout(timer);
				this.waits.delete(wait);
				signal?.removeEventListener('abort', onAbort);
			};
			const wait: Wait = { due: this.now() + ms, fire: () => (drop(), resolve()), drop };
			const onAbort = () => (drop(), reject(signal?.reason));
			const timer = setTimeout(wait.fire, Math.max(0, ms));
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waits.add(wait);
		});

	/**
	 * Moves time forward by `ms` in steps of `stepMs`, letting what each step set off (a store call,
	 * the next wait) run before the next step.
	 */
	async advance(ms: number, stepMs = 10): Promise<void> {
		for (let moved = 0; moved < ms; moved += stepMs) {
			this.offset += Math.min(stepMs, ms - moved);
			for (const wait of [...this.waits]) if (wait.due <= this.now()) wait.fire();
			for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
		}
	}

	/** The process ended: nothing it waited for happens. */
	stop(): void {
		for (const wait of [...this.waits]) wait.drop();
	}
}

type Timings = Record<string, number>;

/** A change of the package's timings (constants.ts), by constant: e.g. { SEND_ONCE: { verifyAfterMs: 600_000 } }. */
export type TimingChanges = Partial<
	Record<'PACING' | 'RATE_LIMIT' | 'TEMPLATE_CACHE' | 'SEND_ONCE', Timings>
>;

let clock = new ProcessClock();
let timingChanges: TimingChanges = {};

// A package loaded afresh shares n8n-workflow with n8n-core, as it does in n8n.
const n8nWorkflow: unknown = jest.requireActual('n8n-workflow');
jest.doMock('n8n-workflow', () => n8nWorkflow);

jest.doMock(distModule('constants.js'), () => {
	const actual = jest.requireActual<Record<string, Timings>>(distModule('constants.js'));
	const changed = Object.entries(timingChanges).map(([name, change]) => [
		name,
		Object.freeze({ ...actual[name], ...change }),
	]);
	return { ...actual, ...Object.fromEntries(changed) };
});

jest.doMock(distModule('delivery/clock.js'), () => ({
	...jest.requireActual<object>(distModule('delivery/clock.js')),
	REAL_CLOCK: { now: clock.now, wait: clock.wait, random: () => Math.random() },
}));

/** The clock of the process now running. */
export function processClock(): ProcessClock {
	return clock;
}

/** Ends this process and starts another, as a restart of n8n would: nothing learned or held survives. */
export function restartProcess(): void {
	clock.stop();
	clock = new ProcessClock();
	jest.resetModules();
	forgetLoadedPackage();
}

/** Runs `check` in a process with the package's timings changed, and restarts with the real ones after. */
export async function withTimings<T>(changes: TimingChanges, check: () => Promise<T>): Promise<T> {
	timingChanges = changes;
	restartProcess();
	try {
		return await check();
	} finally {
		timingChanges = {};
		restartProcess();
	}
}
