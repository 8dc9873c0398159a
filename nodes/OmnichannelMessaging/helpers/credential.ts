import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { DEFAULT_API_KEY_HEADER } from '../constants';
import { normalizeBaseUrl } from './url';

export type CredentialCheck =
	| { ok: true; baseUrl: string; header: string; apiKey: string }
	| ({ ok: false } & CredentialProblem);

export interface CredentialProblem {
	field: 'Base URL' | 'API Key' | 'API Key Header';
	reason: string;
	hint: string;
}

// RFC 9110 §5.6.2: a header name is a token; anything else Node refuses to send.
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters (line breaks, tabs, NUL…) and what Node cannot put in a header value.
const UNSENDABLE_IN_VALUE = /[^\x20-\x7E\x80-\xFF]/;

/** Before any request: a value no server could be sent stops here, naming the field. */
export function checkCredential(data: ICredentialDataDecryptedObject): CredentialCheck {
	const base = normalizeBaseUrl(data.baseUrl);
	if (!base.ok)
		return {
			ok: false,
			field: 'Base URL',
			reason: base.reason,
			hint: 'Use the form https://api.example.com.',
		};
	const header =
		typeof data.apiKeyHeader === 'string' && data.apiKeyHeader !== ''
			? data.apiKeyHeader
			: DEFAULT_API_KEY_HEADER;
	if (!HEADER_TOKEN.test(header)) {
		return {
			ok: false,
			field: 'API Key Header',
			reason:
				'the API Key Header is not a valid HTTP header name (letters, digits and - only, no spaces or line breaks)',
			hint: `Use a header name such as ${DEFAULT_API_KEY_HEADER}, or leave the field empty for that default.`,
		};
	}
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	if (apiKey === '' || UNSENDABLE_IN_VALUE.test(apiKey)) {
		return {
			ok: false,
			field: 'API Key',
			reason:
				apiKey === ''
					? 'the API Key is empty'
					: 'the API Key contains a line break, tab or other character a header cannot carry',
			hint: "Paste the key alone, as the service's dashboard shows it, for example sk-live-1a2b3c4d5e6f.",
		};
	}
	return { ok: true, baseUrl: base.url, header, apiKey };
}
