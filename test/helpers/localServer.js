'use strict';
/*
 * The HTTP server under the test fakes (fake service, fake model): on 127.0.0.1 at a free port,
 * and closed with every connection it still holds, so no test leaves a socket or port behind.
 * A subclass implements handle(req, res); `basePath` is added to the URL it reports.
 */
const http = require('node:http');

class LocalServer {
	constructor(basePath = '') {
		this.basePath = basePath;
		this.sockets = new Set();
		this.server = http.createServer((req, res) => this.handle(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
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
