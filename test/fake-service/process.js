'use strict';
/*
 * The fake service in a process of its own (process.child.js), so that its latency, its limits
 * and its idle timer are kept by its own event loop, not by the test's.
 */
const path = require('node:path');
const { fork } = require('node:child_process');

const { cmdlineOf, forgetPid, recordPid } = require('../../scripts/lib/processes');

/**
 * Starts process.child.js and gives back its url and an IPC client. `pidDir`, where given, records
 * the child's pid for scripts/lib/processes.js's clean-up.
 */
async function startFakeServiceChild(options, { timeoutMs = 15_000, pidDir } = {}) {
	const child = fork(path.join(__dirname, 'process.child.js'), [JSON.stringify(options)], {
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	if (pidDir)
		recordPid(pidDir, { name: 'fake-service', pid: child.pid, cmdline: cmdlineOf(child.pid) });
	const exit = new Promise((resolve) => child.once('exit', resolve));
	const url = await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error('the fake service did not start')), timeoutMs);
		child.once('message', (message) => {
			clearTimeout(timer);
			resolve(message.url);
		});
		child.once('exit', (code) => reject(new Error(`the fake service exited with ${code}`)));
	});
	let nextId = 0;
	const ask = (type) =>
		new Promise((resolve, reject) => {
			const id = ++nextId;
			const timer = setTimeout(
				() => reject(new Error(`the fake service did not answer "${type}"`)),
				timeoutMs,
			);
			const onMessage = (message) => {
				if (message.id !== id) return;
				clearTimeout(timer);
				child.off('message', onMessage);
				resolve(message);
			};
			child.on('message', onMessage);
			child.send({ type, id });
		});
	return {
		url,
		pid: child.pid,
		snapshot: () => ask('snapshot'),
		reset: () => ask('reset'),
		async stop() {
			if (child.exitCode !== null || child.signalCode !== null) return;
			child.send({ type: 'stop' });
			const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
			await exit;
			clearTimeout(timer);
			if (pidDir) forgetPid(pidDir, child.pid);
		},
	};
}

module.exports = { startFakeServiceChild };
