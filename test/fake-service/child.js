'use strict';
/*
 * The fake service in a process of its own (started with fork()), so that its latency and its
 * limits are kept by its own event loop, not by the test's or the bench's. One JSON argument: the
 * FakeService options. Over IPC: { type: 'stop' } closes the server and exits; `handlers` answer
 * the other message types. The parent going away never leaves the server running.
 */
const { FakeService } = require('./index');

/** Starts the fake, answers `handlers[message.type](fake, message)` with what it returns, and says where it listens. */
function serveFakeServiceOverIpc(handlers, listening = (fake, url) => ({ url })) {
	const main = async () => {
		const fake = new FakeService(JSON.parse(process.argv[2] ?? '{}'));
		const url = await fake.start(0, '127.0.0.1');
		process.on('message', (message) => {
			if (message.type === 'stop') return void fake.close().then(() => process.exit(0));
			const handler = handlers[message.type];
			if (handler) process.send(handler(fake, message));
		});
		process.on('disconnect', () => process.exit(0));
		process.send({ type: 'listening', ...listening(fake, url) });
	};
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}

/** How many times a key came beyond its first: for each phone, the sends a customer got twice. */
function repeatsOf(countsPerKey) {
	let repeats = 0;
	for (const n of countsPerKey.values()) repeats += n - 1;
	return repeats;
}

module.exports = { serveFakeServiceOverIpc, repeatsOf };
