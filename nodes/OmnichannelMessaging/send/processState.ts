import { Pacer } from './pacer';

/*
 * The state this node keeps between executions in one n8n process, in one place: one pacer per
 * service. Keys hold the base URL and a hash of the API key, never the key itself.
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
}
