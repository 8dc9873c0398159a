'use strict';
/*
 * The HTTP server under the test fakes (fake service, fake model): on 127.0.0.1 at a free port,
 * and closed with every connection it still holds, so no test leaves a socket or port behind.
 * A subclass implements handle(req, res); `basePath` is added to the URL it reports.
 *
 * An idle connection stays open until the server closes, unless `idleTimeoutMs` is given: a
 * client that keeps idle connections (n8n 1.x's request helper) would otherwise race the
 * server's idle timer, and a test's first send could meet a connection closed under it. A test
 * of that very race gives the timeout, and reads `idleClosedAt`: when the server closed an idle
 * connection (Date.now()), without telling the client beforehand, as a proxy does.
 */
const http = require('node:http');

class LocalServer {
	constructor(basePath = '', { idleTimeoutMs = 0 } = {}) {
		this.basePath = basePath;
		this.sockets = new Set();
		this.idleClosedAt = [];
		this.server = http.createServer((req, res) => this.handle(req, res));
		// Node's own idle timer also tells the client (Keep-Alive: timeout=N), which then closes
		// first; proxies in front of services seldom do. So the timer here is the service's alone.
		this.server.keepAliveTimeout = 0;
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
			// Set only while the connection is idle; Node's server then closes it.
			socket.on('timeout', () => this.idleClosedAt.push(Date.now()));
		});
		if (idleTimeoutMs > 0) {
			this.server.on('request', (req, res) => {
				req.socket.setTimeout(0);
				res.on('finish', () => req.socket.setTimeout(idleTimeoutMs));
			});
		}
	}

	async start(port = 0, host = '127.0.0.1') {
		await new Promise((resolve) => this.server.listen(port, host, resolve));
		this.url = `http://${host}:${this.server.address().port}${this.basePath}`;
		return this.url;
	}

	async close() {
		for (const socket of this.sockets) socket.destroy();
		await new Promise((resolve) => this.server.close(() => resolve()));
	}
}

module.exports = { LocalServer };
