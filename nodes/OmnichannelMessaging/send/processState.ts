import { HistoryRow } from '../sendOnce/historyRow';
import { Pacer } from './pacer';

/*
 * The state this node keeps between executions in one n8n process, in one place: one pacer per
 * service (keyed by the base URL and a hash of the API key, never the key itself), the templates
 * the sends check against (keyed by service, channel and template), the send-once keys being sent
 * right now (keyed by workflow, scope and key), and the group commit of each send-once history row
 * (keyed by workflow and scope).
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
	templateReads.clear();
	for (const held of claims.values()) held.settle('notSent');
	claims.clear();
	for (const row of historyRows.values()) row.forget();
	historyRows.clear();
}

/** A template read that serves the sends of every execution of this process (template/cache.ts decides when). */
export interface SharedRead {
	/** In flight or answered: whoever needs the template meanwhile awaits this same read. */
	readonly read: Promise<unknown>;
	readonly startedAt: number;
	/** Until when the answer serves; infinite while the read is in flight. */
	freshUntil: number;
}

const templateReads = new Map<string, SharedRead>();

/** `service` is a serviceKey: the API key never appears in clear. */
export function templateReadKey(service: string, channelId: number, templateId: number): string {
	return `${service}\n${channelId}\n${templateId}`;
}

export function sharedTemplateRead(key: string): SharedRead | undefined {
	return templateReads.get(key);
}

/** Holds `read` for `key`, and lets go of answers no longer fresh (templates an expression picked once). */
export function shareTemplateRead(key: string, read: SharedRead, now: number): void {
	for (const [heldKey, held] of templateReads) if (held.freshUntil <= now) templateReads.delete(heldKey);
	templateReads.set(key, read);
}

/** Forgets the read for `key`; with `only`, just when that read is still the one held. */
export function dropTemplateRead(key: string, only?: SharedRead): void {
	if (only === undefined || templateReads.get(key) === only) templateReads.delete(key);
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
