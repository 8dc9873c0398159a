/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, run by jest on Node: the rules for code that runs inside n8n do not apply */
import { createServer } from 'node:net';
import type { Socket } from 'node:net';

/**
 * A service that accepts every connection and never answers: a wrong port on a host that keeps
 * connections open, or a service stuck in maintenance. `connections` counts what reached it.
 */
export async function startSilentServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
	const sockets = new Set<Socket>();
	let connections = 0;
	const server = createServer((socket) => {
		connections += 1;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.resume();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}`,
		connections: () => connections,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
