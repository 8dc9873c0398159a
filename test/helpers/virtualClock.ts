/* eslint-disable
	@n8n/community-nodes/no-restricted-globals
	-- test code, run by jest on Node: the rules for code that runs inside n8n do not apply */
/**
 * A clock that moves only when a test moves it: the delivery engine's stateful parts take one when
 * they are made (delivery/clock.ts's Clock), so their unit tests run their timings in no time.
 */
import type { Clock } from '../../nodes/OmnichannelMessaging/delivery/clock';

interface Wait {
	due: number;
	resolve(): void;
}

/** Lets every promise that can settle now settle (a few turns of the event loop). */
export async function settle(): Promise<void> {
	for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
}

export class VirtualClock implements Clock {
	private time = 1_000_000;

	private readonly waits = new Set<Wait>();

	now = (): number => this.time;

	/** The middle of the jitter range, so that a test's timings do not depend on chance. */
	random = (): number => 0.5;

	wait = async (ms: number, signal?: AbortSignal): Promise<void> =>
		await new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('aborted'));
			const wait: Wait = {
				due: this.time + ms,
				resolve: () => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				},
			};
			const onAbort = () => {
				this.waits.delete(wait);
				reject(new Error('aborted'));
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waits.add(wait);
		});

	/** How many waits have not ended yet. */
	get pending(): number {
		return this.waits.size;
	}

	/** Moves time to each wait due within `ms` in turn, letting what it sets off run, then to the end. */
	async advance(ms: number): Promise<void> {
		const end = this.time + ms;
		for (;;) {
			await settle();
			const next = [...this.waits]
				.filter((wait) => wait.due <= end)
				.sort((a, b) => a.due - b.due)[0];
			if (!next) break;
			this.time = Math.max(this.time, next.due);
			this.waits.delete(next);
			next.resolve();
		}
		this.time = end;
		await settle();
	}
}
