import { HistoryRow } from '../sendOnce/historyRow';
import { Pacer } from './pacer';

/*
 * The state this node keeps between executions in one n8n process, in one place: one pacer per
 * service (keyed by the base URL and a hash of the API key, never the key itself), the
 * send-once keys being sent right now (keyed by workflow, scope and key), and the group commit of
 * each send-once history row (keyed by workflow and scope).
 */

const pacers = new Map<string, Pacer>();

/** FNV-1a, 64 bits: tells API keys apart without keeping them (this code may import nothing but n8n-workflow). */
function fingerprint(text: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const char of text) {
		hash ^= BigInt(char.codePointAt(0) ?? 0);
		hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
	}
	return hash.toString(16).padStart(16, '0');
}

export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return `${baseUrl} ${fingerprint(typeof apiKey === 'string' ? apiKey : '')}`;
}

/** The pacer every execution of this process shares for the service at `key`. */
export function pacerFor(key: string): Pacer {
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new Pacer();
		pacers.set(key, pacer);
	}
	return pacer;
}

/** The keys of the pacers that exist (for tests: which services this process paces). */
export function pacedServices(): string[] {
	return [...pacers.keys()];
}

/** Forgets every pacer, as a restart of n8n would (tests start each case from a fresh process state). */
export function forgetProcessState(): void {
	pacers.clear();
	for (const held of claims.values()) held.settle('notSent');
	claims.clear();
	for (const row of historyRows.values()) row.forget();
	historyRows.clear();
}

/** How a send with a send-once key ended, for an execution that waits on the same key. */
export type ClaimOutcome = 'accepted' | 'notSent' | 'unknown';

interface HeldClaim {
	outcome: Promise<ClaimOutcome>;
	settle(outcome: ClaimOutcome): void;
}

/** Send-once keys an execution of this process is sending right now, by workflow, scope and key. */
const claims = new Map<string, HeldClaim>();

/**
 * Takes every key that no other execution holds, at once (nothing awaited in between), and says
 * which keys others hold. An execution only ever waits on executions that started before it, so
 * two executions can never wait on each other.
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

/** Ends this execution's claim on `key`: whoever waits on it learns the outcome. */
export function settleKey(scopeKey: string, key: string, outcome: ClaimOutcome): void {
	const held = claims.get(`${scopeKey}\n${key}`);
	if (!held) return;
	claims.delete(`${scopeKey}\n${key}`);
	held.settle(outcome);
}

/** How many send-once keys executions of this process hold right now (for tests). */
export function heldKeyCount(): number {
	return claims.size;
}

/** The send-once history rows of n8n's processed-data store this process writes, by workflow and scope. */
const historyRows = new Map<string, HistoryRow>();

/** The group commit of one history row: every execution of this process writing that row goes through it. */
export function historyRowFor(rowKey: string): HistoryRow {
	let row = historyRows.get(rowKey);
	if (!row) {
		row = new HistoryRow();
		historyRows.set(rowKey, row);
	}
	return row;
}

/** Store calls made and history entries put back after another process's write lost them (tests, bench). */
export function sendOnceStoreFigures(): { calls: number; repaired: number } {
	const rows = [...historyRows.values()];
	return { calls: rows.reduce((sum, row) => sum + row.calls, 0), repaired: rows.reduce((sum, row) => sum + row.repaired, 0) };
}
