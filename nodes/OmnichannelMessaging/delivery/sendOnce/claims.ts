export type ClaimOutcome = 'accepted' | 'notSent' | 'unknown';

interface HeldClaim {
	outcome: Promise<ClaimOutcome>;
	settle(outcome: ClaimOutcome): void;
}

/** By workflow, scope and key. */
const claims = new Map<string, HeldClaim>();

/**
 * All at once (nothing awaited in between): an execution only ever waits on executions that started
 * before it, so two can never wait on each other.
 */
export function claimKeys(scopeKey: string, keys: string[]): { mine: Set<string>; others: Map<string, Promise<ClaimOutcome>> } {
	const mine = new Set<string>();
	const others = new Map<string, Promise<ClaimOutcome>>();
	for (const key of keys) {
		const held = claims.get(`${scopeKey}\n${key}`);
		if (held) {
			others.set(key, held.outcome);
			continue;
		}
		let settle: (outcome: ClaimOutcome) => void = () => {};
		const outcome = new Promise<ClaimOutcome>((resolve) => (settle = resolve));
		claims.set(`${scopeKey}\n${key}`, { outcome, settle });
		mine.add(key);
	}
	return { mine, others };
}

export function settleKey(scopeKey: string, key: string, outcome: ClaimOutcome): void {
	const held = claims.get(`${scopeKey}\n${key}`);
	if (!held) return;
	claims.delete(`${scopeKey}\n${key}`);
	held.settle(outcome);
}

/** A restart's clean slate (testing.ts): whoever waits is let go as if nothing was sent. */
export function forgetClaims(): void {
	for (const held of claims.values()) held.settle('notSent');
	claims.clear();
}
