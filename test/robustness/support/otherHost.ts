/**
 * Another host a hostile or broken service points requests to (a redirect's Location): a real
 * HTTP server on 127.0.0.1 that records whatever reaches it and answers as a service would, so a
 * request that got there would look like a success.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface OtherHost {
	url: string;
	received: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }>;
	close(): Promise<void>;
}

export async function startOtherHost(): Promise<OtherHost> {
	const received: OtherHost['received'] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: Buffer.concat(chunks).toString(),
			});
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({ id: 'elsewhere-1', status: 'sent', platform_id: 12, name: 'elsewhere' }),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** The other host, started once per test file and emptied before each test. */
export function useOtherHost() {
	const state = {} as { host: OtherHost };
	beforeAll(async () => {
		state.host = await startOtherHost();
	});
	beforeEach(() => {
		state.host.received.length = 0;
	});
	afterAll(async () => await state.host.close());
	return state;
}
