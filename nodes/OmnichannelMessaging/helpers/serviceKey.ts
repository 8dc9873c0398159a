/** FNV-1a, 64 bits: tells API keys apart without keeping them (this code may import nothing but n8n-workflow). */
function fingerprint(text: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const char of text) {
		hash ^= BigInt(char.codePointAt(0) ?? 0);
		hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
	}
	return hash.toString(16).padStart(16, '0');
}

/** What the pacers and the template cache key a service by: its base URL and a hash of the API key, never the key. */
export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return `${baseUrl} ${fingerprint(typeof apiKey === 'string' ? apiKey : '')}`;
}
