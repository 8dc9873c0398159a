import type { SendOutcome } from '../helpers/outcome';

/** Where the workers take their next item from, and tell how its send ended. */
export interface ItemSource {
	take(): Promise<number | undefined>;
	settle(itemIndex: number, outcome: SendOutcome): Promise<void>;
	finish(): Promise<void>;
}

/** The items in input order, nothing remembered. */
export function inInputOrder(queue: number[]): ItemSource {
	let next = 0;
	return {
		take: async () => queue[next++],
		settle: async () => {},
		finish: async () => {},
	};
}
