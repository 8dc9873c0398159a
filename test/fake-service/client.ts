/**
 * A bare node:http client of the fake service, as n8n's requests reach it: the key header, a JSON
 * body out, the status, Retry-After and the JSON body back. The fake service's limits test and the
 * benchmark's reference row (nothing of n8n measured) both send with it.
 */
import http from 'node:http';

export interface Answer<Body = unknown> {
	status: number;
	retryAfter?: string;
	body: Body;
}

export interface RequestOptions {
	method: 'GET' | 'POST';
	apiKey: string;
	body?: unknown;
	/** A keep-alive agent to share; by default each request opens a connection of its own, as n8n's do. */
	agent?: http.Agent | false;
}

/** One request to `url` (the service's address and the path). */
export async function requestJson<Body = unknown>(
	url: string,
	{ method, apiKey, body, agent = false }: RequestOptions,
): Promise<Answer<Body>> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	const contentHeaders = payload
		? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
		: {};
	return await new Promise<Answer<Body>>((resolve, reject) => {
		const headers = { Accept: 'application/json', 'X-Service-Api-Key': apiKey, ...contentHeaders };
		const req = http.request(url, { method, agent, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () =>
				resolve({
					status: res.statusCode ?? 0,
					retryAfter: res.headers['retry-after'],
					body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Body,
				}),
			);
		});
		req.on('error', reject);
		req.end(payload);
	});
}
