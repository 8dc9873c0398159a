/**
 * What the service spec (test/fixtures/spec/service-api.md §4, with test/fixtures/spec/field-notes.md) allows a request
 * to look like. Every request the fake records during the robustness runs is checked here.
 */
import type { RecordedRequest } from '../../fake-service';

export const PREFIX = '/stable/open';
export const SEND_PATHS = {
	sendText: `${PREFIX}/customers/send-text-message`,
	sendAttachment: `${PREFIX}/customers/send-attachment-message`,
	send: `${PREFIX}/whatsapp/send-template-message`,
} as const;
export const DETAIL_PATH = `${PREFIX}/whatsapp/get-template-detail`;
export const LIST_PATH = `${PREFIX}/whatsapp/get-template-list`;

const INTEGER = /^[1-9]\d*$/;
const E164 = /^\+[1-9]\d{6,14}$/;
const MEDIA_KEYS = ['image', 'audio', 'video', 'document'];
/** What a stringified non-value looks like; a field may carry these only when the input said exactly that. */
export const NON_VALUES = ['undefined', 'null', '[object Object]', 'NaN', 'Infinity', '-Infinity'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

function nonEmptyString(body: Record<string, unknown>, field: string, problems: string[]) {
	if (typeof body[field] !== 'string')
		problems.push(`${field} is ${typeof body[field]}, not a string`);
	else if ((body[field] as string).trim() === '') problems.push(`${field} is empty`);
}

function onlyKeys(body: Record<string, unknown>, allowed: string[], problems: string[]) {
	for (const key of Object.keys(body))
		if (!allowed.includes(key)) problems.push(`unexpected field ${key}`);
}

/** Everything about one request that the spec does not allow. */
export function specProblems(request: RecordedRequest, apiKey: string): string[] {
	const problems: string[] = [];
	if (request.headers['x-service-api-key'] !== apiKey)
		problems.push('missing or wrong X-Service-Api-Key');
	if (request.method === 'GET') {
		const expected =
			request.path === DETAIL_PATH
				? ['platform_id', 'template_id']
				: request.path === LIST_PATH
					? ['platform_id']
					: undefined;
		if (!expected) return [...problems, `GET of unknown path ${request.path}`];
		const keys = Object.keys(request.query).sort();
		if (keys.join() !== [...expected].sort().join())
			problems.push(`query has ${keys.join(', ')}, expected ${expected.join(', ')}`);
		for (const key of expected) {
			if (!INTEGER.test(request.query[key] ?? ''))
				problems.push(`${key}=${JSON.stringify(request.query[key])} is not an integer`);
		}
		if (request.rawBody !== '') problems.push('GET with a body');
		return problems;
	}
	if (request.method !== 'POST') return [...problems, `unexpected method ${request.method}`];
	if (!String(request.headers['content-type'] ?? '').includes('application/json'))
		problems.push('POST without JSON content type');
	const body = request.body as unknown;
	if (!isPlainObject(body))
		return [...problems, `body is not a JSON object: ${request.rawBody.slice(0, 80)}`];
	switch (request.path) {
		case SEND_PATHS.sendText:
			onlyKeys(body, ['customer_id', 'text'], problems);
			nonEmptyString(body, 'customer_id', problems);
			nonEmptyString(body, 'text', problems);
			break;
		case SEND_PATHS.sendAttachment:
			onlyKeys(body, ['customer_id', 'attachment_type', 'attachment_url'], problems);
			nonEmptyString(body, 'customer_id', problems);
			if (!['image', 'video', 'document'].includes(body.attachment_type as string))
				problems.push(`attachment_type ${JSON.stringify(body.attachment_type)}`);
			if (!isHttpUrl(body.attachment_url))
				problems.push(
					`attachment_url ${JSON.stringify(body.attachment_url)?.slice(0, 80)} is not an http(s) URL`,
				);
			break;
		case SEND_PATHS.send: {
			onlyKeys(
				body,
				['template_id', 'channel_id', 'customer_phone', 'attributes', 'attachment'],
				problems,
			);
			for (const field of ['template_id', 'channel_id']) {
				if (typeof body[field] !== 'string' || !INTEGER.test(body[field] as string))
					problems.push(`${field} ${JSON.stringify(body[field])} is not an integer-looking string`);
			}
			if (typeof body.customer_phone !== 'string' || !E164.test(body.customer_phone))
				problems.push(`customer_phone ${JSON.stringify(body.customer_phone)?.slice(0, 40)}`);
			if (body.attributes !== undefined) {
				if (!isPlainObject(body.attributes)) problems.push('attributes is not an object');
				else {
					for (const [key, value] of Object.entries(body.attributes)) {
						if (!INTEGER.test(key)) problems.push(`attributes key ${JSON.stringify(key)}`);
						if (typeof value !== 'string')
							problems.push(`attributes.${key} is ${typeof value}, not a string`);
					}
				}
			}
			if (body.attachment !== undefined) {
				const keys = isPlainObject(body.attachment) ? Object.keys(body.attachment) : [];
				if (keys.length !== 1 || !MEDIA_KEYS.includes(keys[0]))
					problems.push(`attachment ${JSON.stringify(body.attachment)?.slice(0, 80)}`);
				else if (!isHttpUrl((body.attachment as Record<string, unknown>)[keys[0]]))
					problems.push('attachment URL is not http(s)');
			}
			break;
		}
		default:
			problems.push(`POST to unknown path ${request.path}`);
	}
	return problems;
}
