import type { FakeService } from '../fake-service';

/**
 * Counts the turns of this process's event loop: a setImmediate callback runs once per turn, and
 * never while synchronous code (or a chain of settled promises) holds the loop. A count, not a
 * clock, so a test of it passes or fails alike on a fast or a busy machine.
 */
export function countTurns(): { readonly turns: number; stop(): void } {
	let turns = 0;
	let counting = true;
	const tick = () => {
		if (!counting) return;
		turns += 1;
		setImmediate(tick);
	};
	setImmediate(tick);
	return {
		get turns() {
			return turns;
		},
		stop() {
			counting = false;
		},
	};
}

/** At least one turn of the event loop for so many items checked, whatever the machine. */
export const MOST_ITEMS_BETWEEN_TURNS = 256;

/**
 * Runs a broadcast to `recipients` whose items tell when the node reads each phone, counted in
 * turns of the event loop, as is the first send `fake` (in this process) receives.
 */
export async function broadcastTurns<Result>(
	fake: FakeService,
	recipients: Array<{ phone: string; name: string }>,
	run: (items: Array<{ phone: string; name: string }>) => Promise<Result>,
): Promise<{ result: Result; firstSendAt: number; phoneReadAt: number[] }> {
	const turns = countTurns();
	const phoneReadAt: number[] = [];
	const items = recipients.map(
		(recipient, index) =>
			Object.defineProperty({ name: recipient.name }, 'phone', {
				enumerable: true,
				get: () => {
					phoneReadAt[index] = turns.turns;
					return recipient.phone;
				},
			}) as { phone: string; name: string },
	);
	let firstSendAt: number | undefined;
	fake.log = (request) => {
		if (request.method === 'POST') firstSendAt ??= turns.turns;
	};
	try {
		const result = await run(items);
		return { result, firstSendAt: firstSendAt ?? Number.NaN, phoneReadAt };
	} finally {
		turns.stop();
		fake.log = null;
	}
}

/** The turns the event loop had while the node read the phones of the first and the last item. */
export function turnsWhileChecking(phoneReadAt: number[]): number {
	return phoneReadAt[phoneReadAt.length - 1] - phoneReadAt[0];
}
