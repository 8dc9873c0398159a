import type { SendOutcome } from '../../helpers/outcome';

interface HeldClaim {
	outcome: Promise<SendOutcome>;
	settle(outcome: SendOutcome): void;
}

/** The keys this process's executions are sending now, by workflow, scope and key. */
export class Claims {
	private readonly held = new Map<string, HeldClaim>();

	/**
	 * All at once (nothing awaited in between): an execution only ever waits on executions that
	 * started before it, so two can never wait on each other.
	 */
	claimKeys(
		scopeKey: string,
		keys: string[],
	): { mine: Set<string>; others: Map<string, Promise<SendOutcome>> } {
		const mine = new Set<string>();
		const others = new Map<string, Promise<SendOutcome>>();
		for (const key of keys) {
			const held = this.held.get(`${scopeKey}\n${key}`);
			if (held) {
				others.set(key, held.outcome);
				continue;
			}
			let settle: (outcome: SendOutcome) => void = () => {};
			const outcome = new Promise<SendOutcome>((resolve) => (settle = resolve));
			this.held.set(`${scopeKey}\n${key}`, { outcome, settle });
			mine.add(key);
		}
		return { mine, others };
	}

	settleKey(scopeKey: string, key: string, outcome: SendOutcome): void {
		const held = this.held.get(`${scopeKey}\n${key}`);
		if (!held) return;
		this.held.delete(`${scopeKey}\n${key}`);
		held.settle(outcome);
	}
}

/** Every execution of this process claims through this one. */
export const PROCESS_CLAIMS = new Claims();
