'use strict';
/*
 * A round-robin HTTP proxy on 127.0.0.1, as a load balancer in front of n8n's webhook processes
 * sends each request to the next one. For the queue-mode tests and benchmark (not shipped): it
 * runs in the test's own process and counts the requests each target got by method and path
 * (`POST /webhook/<id>`, the query left out), so that a test can say which process received what.
 */
const http = require('node:http');

/** Starts the proxy in front of `targets` (base URLs); resolves with its url, counts and stop(). */
async function startRoundRobin(targets) {
	const counts = targets.map(() => ({}));
	let next = 0;
	const server = http.createServer((request, response) => {
		const index = next;
		next = (next + 1) % targets.length;
		const what = `${request.method} ${request.url.split('?')[0]}`;
		counts[index][what] = (counts[index][what] ?? 0) + 1;
		const target = new URL(targets[index]);
		// A connection per request: a kept-alive socket that n8n closes first would fail the next one.
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: request.method,
				path: request.url,
				headers: request.headers,
				agent: false,
			},
			(answer) => {
				response.writeHead(answer.statusCode, answer.rawHeaders);
				answer.pipe(response);
			},
		);
		upstream.on('error', () => {
			if (!response.headersSent) response.writeHead(502);
			response.end();
		});
		request.pipe(upstream);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		counts,
		stop: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startRoundRobin };
