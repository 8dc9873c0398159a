export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** The service downloads media URLs, so they must be absolute and public; the node never fetches them. */
export function checkMediaUrl(raw: unknown): UrlCheck {
	if (typeof raw !== 'string') return { ok: false, reason: 'it must be text (a URL)' };
	const value = raw.trim();
	if (value === '') return { ok: false, reason: 'it is empty' };
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return {
			ok: false,
			reason: 'it is not an absolute URL, for example https://example.com/file.pdf',
		};
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return {
			ok: false,
			reason: `the scheme "${parsed.protocol}" is not allowed: use an http:// or https:// URL`,
		};
	}
	if (parsed.hostname === '') return { ok: false, reason: 'it has no host name' };
	return { ok: true, url: value };
}

/** Every path starts with API_PREFIX, so a base URL ending in it (or "/") loses it here once. */
export function normalizeBaseUrl(raw: unknown): UrlCheck {
	if (typeof raw !== 'string' || raw.trim() === '') {
		return { ok: false, reason: 'the credential has no base URL' };
	}
	let parsed: URL;
	try {
		parsed = new URL(raw.trim());
	} catch {
		return {
			ok: false,
			reason: `the credential's base URL is not a URL: use the form https://api.example.com`,
		};
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return {
			ok: false,
			reason: `the credential's base URL must start with https:// (or http://), not "${parsed.protocol}"`,
		};
	}
	const path = parsed.pathname.replace(/\/+$/, '').replace(/\/stable\/open$/i, '');
	return { ok: true, url: `${parsed.protocol}//${parsed.host}${path}` };
}
