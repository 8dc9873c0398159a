'use strict';
/*
 * Starts a queue-mode stack in a process of its own, for start-failure.e2e.js.
 *   node start-stack.child.js <case> <dir>
 *   postgres  Postgres is given a folder it cannot use: Redis is up or starting when it fails
 *   worker    the worker's health port is taken: Redis, Postgres and the main are up when it fails
 *   signal    a normal start; prints "main starting" once the main is being started and waits
 *             for the test's SIGTERM
 * A failed start prints the error's first line on stderr and exits 1.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const queue = require('../../scripts/lib/queue');

async function main() {
	const [which, dir] = process.argv.slice(2);
	const options = { dir: path.join(dir, 'stack'), workers: 1 };
	if (which === 'postgres') {
		options.pgRoot = path.join(dir, 'no-entry');
		fs.mkdirSync(options.pgRoot, { mode: 0o500 });
		fs.chmodSync(dir, 0o700);
	}
	if (which === 'worker') {
		const taken = net.createServer().listen(0, '127.0.0.1');
		await new Promise((resolve) => taken.once('listening', resolve));
		// Held while the stack starts; it must not keep this process alive after the start failed.
		taken.unref();
		options.workerEnv = { QUEUE_HEALTH_CHECK_PORT: String(taken.address().port) };
	}
	if (which === 'signal') {
		let said = false;
		options.log = (line) => {
			if (!said && line.startsWith('[n8n-main]')) {
				said = true;
				console.log('main starting');
			}
		};
	}
	try {
		const stack = await queue.startQueueStack(options);
		await stack.stop();
		console.log('started and stopped');
	} catch (error) {
		console.error(error.message.split('\n')[0]);
		process.exitCode = 1;
	}
}

void main();
