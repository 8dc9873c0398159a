'use strict';
/**
 * A queue-mode stack that cannot start stops what it started: the run fails at once with the
 * cause in its first line, and no Redis, Postgres or n8n process is left. The same when the
 * process starting it gets SIGTERM half-way. Each stack starts in a process of its own,
 * in a process group of its own, so that "left" means any process of that group, orphans included.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const CHILD = path.join(__dirname, 'start-stack.child.js');
const dirs = [];
const groups = [];

/** The live processes of a process group (a zombie waiting to be reaped has ended). */
function groupMembers(pgid) {
	const members = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
		} catch {
			// ended while we looked
		}
	}
	return members;
}

/** Starts the stack's process; resolves with its exit, its output and how long it ran. */
function startStack(which, { onLine } = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-start-'));
	dirs.push(dir);
	const started = Date.now();
	const child = spawn(process.execPath, [CHILD, which, dir], {
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	groups.push(child.pid);
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk) => {
		stdout += chunk;
		onLine?.(stdout, child);
	});
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const done = new Promise((resolve) =>
		child.on('exit', (code, signal) =>
			resolve({ code, signal, stdout, stderr, seconds: (Date.now() - started) / 1000 }),
		),
	);
	return { child, done };
}

/** Polls the group for up to 10 s after its leader ended: a process still in it was left. */
async function leftIn(pgid) {
	for (let i = 0; i < 100 && groupMembers(pgid).length > 0; i++)
		await new Promise((resolve) => setTimeout(resolve, 100));
	return groupMembers(pgid).map((pid) => {
		try {
			return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120);
		} catch {
			return `pid ${pid}`;
		}
	});
}

afterAll(() => {
	for (const pgid of groups) for (const pid of groupMembers(pgid)) process.kill(pid, 'SIGKILL');
	for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('Postgres cannot use its folder: the run fails within a minute, saying so, and Redis is stopped', async () => {
	const { child, done } = startStack('postgres');
	const { code, stderr, seconds } = await done;
	expect(code).toBe(1);
	expect(stderr.split('\n')[0]).toMatch(
		/^the queue-mode stack did not start: .*(cannot reach|initdb failed|EACCES)/,
	);
	expect(seconds).toBeLessThan(60);
	expect(await leftIn(child.pid)).toEqual([]);
}, 120_000);

test("a worker's port is taken: the run fails, saying so, and the main, Redis and Postgres are stopped", async () => {
	const { child, done } = startStack('worker');
	const { code, stderr, seconds } = await done;
	expect(code).toBe(1);
	expect(stderr.split('\n')[0]).toMatch(
		/^the queue-mode stack did not start: worker-1 ended .* before "n8n worker is now ready"/,
	);
	process.stderr.write(`(a worker that cannot start: failed after ${seconds} s)\n`);
	expect(await leftIn(child.pid)).toEqual([]);
}, 300_000);

// SIGINT takes the same path (processes.js); test/scripts/processes.test.ts runs both signals.
test('SIGTERM while the main starts: the process ends and nothing it started is left', async () => {
	const { child, done } = startStack('signal', {
		onLine: (stdout, proc) => stdout.includes('main starting') && proc.kill('SIGTERM'),
	});
	const result = await done;
	expect(result.stdout).toContain('main starting');
	expect(result.code).toBe(143);
	expect(await leftIn(child.pid)).toEqual([]);
}, 300_000);
