'use strict';
/*
 * Started by queue.js next to a queue-mode deployment, in a session of its own: when the process
 * that started the deployment ends without stopping it (Ctrl-C, a crash, SIGKILL), this stops
 * what it recorded in <dir>/pids.json, by pid, then ends. Stopped by that process otherwise.
 *   node queue-guard.js <parent pid> <dir>
 */
const { stopRecorded } = require('./processes');

const [parentPid, dir] = [Number(process.argv[2]), process.argv[3]];

function parentAlive() {
	try {
		process.kill(parentPid, 0);
		return true;
	} catch {
		return false;
	}
}

process.on('SIGTERM', () => process.exit(0));
const timer = setInterval(() => {
	if (parentAlive()) return;
	clearInterval(timer);
	void stopRecorded(dir).finally(() => process.exit(0));
}, 250);
