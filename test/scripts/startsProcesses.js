'use strict';
/*
 * A process that starts processes through scripts/lib/processes.js, for processes.test.ts.
 *   node startsProcesses.js <mode> [dir]
 * Each service it starts is a node process that starts a grandchild; once all are up it prints one
 * JSON line: { pids } (every service and grandchild). Then, by mode:
 *   wait          waits to be signalled (SIGINT, SIGTERM or SIGKILL by the test)
 *   exit          exits with code 3 without stopping anything
 *   failed-start  starts a third service that ends at once; its failed start stops the others
 *   recorded      records the services under dir, then waits (the test kills it with SIGKILL)
 *   stop-recorded stops what an earlier run recorded under dir, prints { stopped }
 */
const path = require('node:path');

const processes = require(path.join(__dirname, '..', '..', 'scripts', 'lib', 'processes'));

const SERVICE =
	"const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)']," +
	" { stdio: 'ignore' }); console.log('grandchild ' + c.pid); setInterval(() => {}, 1e6);";

async function startService(name, { dir, removeDir, group } = {}) {
	const handle = processes.startProcess({
		name,
		command: process.execPath,
		args: ['-e', SERVICE],
		dir,
		removeDir,
		group,
	});
	let grandchild;
	await handle.waitForOutput(
		(output) => (grandchild = /grandchild (\d+)/.exec(output)?.[1]) !== undefined,
		20_000,
		'its grandchild',
	);
	return [handle.pid, Number(grandchild)];
}

async function main() {
	const [mode, dir] = process.argv.slice(2);
	if (mode === 'stop-recorded') {
		const stopped = await processes.stopRecorded(dir);
		console.log(JSON.stringify({ stopped: stopped.map((entry) => entry.pid) }));
		return;
	}
	const recordUnder = mode === 'recorded' ? { dir, removeDir: path.join(dir, 'own') } : {};
	if (recordUnder.removeDir) require('node:fs').mkdirSync(recordUnder.removeDir);
	const group = [];
	const pids = [
		...(await startService('first', { ...recordUnder, group })),
		...(await startService('second', { group })),
	];
	console.log(JSON.stringify({ pids }));
	if (mode === 'exit') process.exit(3);
	if (mode === 'failed-start') {
		const broken = processes.startProcess({
			name: 'broken',
			command: process.execPath,
			args: ['-e', 'process.exit(7)'],
			group,
		});
		try {
			await broken.waitForOutput(() => false, 20_000, 'readiness');
		} catch (error) {
			await Promise.all(group.map((handle) => handle.stop()));
			console.error(error.message.split('\n')[0]);
			process.exitCode = 1;
		}
		return;
	}
	setInterval(() => {}, 1e6);
}

main().catch((error) => {
	console.error(error);
	process.exit(2);
});
