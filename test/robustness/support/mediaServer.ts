import { createServer } from 'node:http';
import type { Server } from 'node:http';

/**
 * A second server on 127.0.0.1 that serves the media URLs the tests put in attachment and header
 * media fields. The node hands such URLs to the service and must never fetch them itself.
 */
export interface MediaServer {
	url: string;
	hits: Array<{ method?: string; url?: string }>;
	close(): Promise<void>;
}

export async function startMediaServer(): Promise<MediaServer> {
	const hits: MediaServer['hits'] = [];
	const server: Server = createServer((req, res) => {
		hits.push({ method: req.method, url: req.url });
		res.writeHead(200, { 'Content-Type': 'image/png' });
		res.end(Buffer.alloc(16));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}/media/offer.png`,
		hits,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
