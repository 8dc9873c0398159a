'use strict';
/*
 * Whether a test run left a server running: n8n (or its task runner), Redis, Postgres, a browser
 * (Chromium, Firefox, WebKitGTK's MiniBrowser and its driver) or Xvfb.
 *   node scripts/leftovers.js snapshot FILE   records the ones running now
 *   node scripts/leftovers.js check FILE      lists the ones running now that FILE did not hold,
 *                                             and exits 1 when there are any
 * .ci/run takes a snapshot before the README's test command and checks after it. Only this
 * checkout's servers count: run from its folder, or naming it or a queue-mode Postgres folder on
 * their command line (another clone's tests on the same machine are not ours). A process that
 * ended and waits for its parent to reap it (a zombie) has ended.
 */
const fs = require('node:fs');
const path = require('node:path');

const CHECKOUT = path.resolve(__dirname, '..');

const SERVERS = [
	/(^|\/)redis-server/,
	/(^|\/)postgres/,
	/(^|\/)chromium/,
	/(^|\/)firefox(-esr)?( |$)/,
	/(^|\/)Xvfb /,
	/WebKitWebDriver|MiniBrowser/,
	/n8n\/bin\/n8n/,
	/@n8n\/task-runner/,
];

function ours(pid, cmdline) {
	if (cmdline.includes(CHECKOUT) || cmdline.includes('omnichannel-queue-pg-')) return true;
	try {
		const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
		return cwd === CHECKOUT || cwd.startsWith(`${CHECKOUT}/`);
	} catch {
		return false;
	}
}

function runningServers() {
	const found = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
			const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
			if (SERVERS.some((pattern) => pattern.test(cmdline)) && ours(name, cmdline))
				found.push({ pid: Number(name), cmdline: cmdline.slice(0, 160) });
		} catch {
			// ended while we looked
		}
	}
	return found;
}

const [command, file] = process.argv.slice(2);
if (command === 'snapshot') {
	fs.writeFileSync(file, JSON.stringify(runningServers().map((p) => p.pid)));
} else if (command === 'check') {
	const before = new Set(JSON.parse(fs.readFileSync(file, 'utf8')));
	const left = runningServers().filter((p) => !before.has(p.pid));
	if (left.length) {
		console.error(`== ${left.length} server process(es) left running by the tests:`);
		for (const p of left) console.error(`   pid ${p.pid}: ${p.cmdline}`);
		process.exitCode = 1;
	} else {
		console.log('== no server process left running');
	}
} else {
	console.error('usage: node scripts/leftovers.js snapshot|check FILE');
	process.exitCode = 2;
}
