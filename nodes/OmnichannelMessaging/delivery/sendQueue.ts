import type { SendOutcome } from '../helpers/errors/facts';

/**
 * The items checked and ready to send, in input order. It grows while the check runs ahead of the
 * sends (continue-on-fail), or is filled whole before the first send (one bad item stops the run);
 * `close` says no more will come.
 */
export class CheckedItems {
	readonly items: number[] = [];

	private done = false;

	private grown?: { promise: Promise<void>; resolve: () => void };

	get closed(): boolean {
		return this.done;
	}

	push(itemIndex: number): void {
		this.items.push(itemIndex);
		this.wake();
	}

	close(): void {
		this.done = true;
		this.wake();
	}

	/** Resolves once an item is added or the list is closed. */
	async more(): Promise<void> {
		if (this.done) return;
		if (!this.grown) {
			let resolve = () => {};
			const promise = new Promise<void>((done) => (resolve = done));
			this.grown = { promise, resolve };
		}
		await this.grown.promise;
	}

	private wake() {
		const grown = this.grown;
		this.grown = undefined;
		grown?.resolve();
	}
}

/** Where the workers take their next item from, and tell how its send ended. */
export interface ItemSource {
	take(): Promise<number | undefined>;
	settle(itemIndex: number, outcome: SendOutcome): Promise<void>;
	finish(): Promise<void>;
}

/** The checked items in input order, nothing remembered. */
export function inInputOrder(checked: CheckedItems): ItemSource {
	let next = 0;
	return {
		take: async () => {
			while (next >= checked.items.length && !checked.closed) await checked.more();
			return checked.items[next++];
		},
		settle: async () => {},
		finish: async () => {},
	};
}
