'use strict';
const net = require('node:net');

/**
 * A service that accepts every connection and never answers: a wrong port on a host that keeps
 * connections open, or a service stuck in maintenance. `connections()` counts what reached it,
 * `givenUp()` the connections the caller closed (a client that stopped waiting).
 * Used by the engine test and the real-n8n test of the editor's calls.
 */
async function startSilentServer() {
	const sockets = new Set();
	let connections = 0;
	let givenUp = 0;
	let closing = false;
	const server = net.createServer((socket) => {
		connections += 1;
		sockets.add(socket);
		socket.on('close', () => {
			sockets.delete(socket);
			if (!closing) givenUp += 1;
		});
		socket.resume();
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		connections: () => connections,
		givenUp: () => givenUp,
		close: async () => {
			closing = true;
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

module.exports = { startSilentServer };
