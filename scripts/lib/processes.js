'use strict';
/*
 * The long-running processes a test stack or `npm run dev` starts (n8n, its workers and task
 * runners, Redis, Postgres), each stopped by process id together with what it started.
 *
 * Every process started here is in one registry per module instance (jest gives each test file
 * its own). `stopAll()` ends what is still running; the test configs call it after each file, so
 * a stack that failed half-way through its start leaves nothing behind. When this process exits,
 * or gets SIGINT or SIGTERM that nothing else handles, the registry is killed at once.
 * A pids file (<dir>/pids.json) records what was started under a folder, so that a run killed
 * with SIGKILL is cleaned up by the next one, without killing anything by name.
 * Written for Node >= 20.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const PIDS_FILE = 'pids.json';

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The command line of a live process, or undefined when there is none with that pid. */
function cmdlineOf(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return undefined;
	}
}

/** All live descendants of pid (children first found, then theirs), read from /proc. */
function descendantsOf(pid) {
	const parents = new Map();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// Field 4 (ppid) comes after the command name, which is in parentheses and may contain spaces.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			parents.set(Number(name), ppid);
		} catch {
			// the process ended while we looked
		}
	}
	const found = [];
	const queue = [pid];
	while (queue.length) {
		const current = queue.shift();
		for (const [child, parent] of parents) {
			if (parent === current && !found.includes(child)) {
				found.push(child);
				queue.push(child);
			}
		}
	}
	return found;
}

function signal(pid, sig) {
	try {
		process.kill(pid, sig);
		return true;
	} catch {
		return false;
	}
}

/** Postgres: SIGQUIT is its immediate shutdown, which also ends its backends. */
const killSignalFor = (name) => (name === 'postgres' ? 'SIGQUIT' : 'SIGKILL');

function readPids(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, PIDS_FILE), 'utf8'));
	} catch {
		return [];
	}
}

function writePids(dir, entries) {
	if (entries.length) fs.writeFileSync(path.join(dir, PIDS_FILE), JSON.stringify(entries, null, 2));
	else fs.rmSync(path.join(dir, PIDS_FILE), { force: true });
}

/** Records what this process started under dir, so a later run or a guard can stop leftovers. */
function recordPid(dir, entry) {
	const entries = readPids(dir).filter((e) => e.pid !== entry.pid);
	// The owner is the process that started it: while the owner lives, the entry is not a leftover.
	entries.push({ owner: process.pid, ownerCmdline: cmdlineOf(process.pid), ...entry });
	writePids(dir, entries);
}

function forgetPid(dir, pid) {
	if (fs.existsSync(path.join(dir, PIDS_FILE)))
		writePids(
			dir,
			readPids(dir).filter((e) => e.pid !== pid),
		);
}

/**
 * Stops what an earlier run recorded and left running. A pid only counts when its command line
 * is still the recorded one, so a reused pid of an unrelated process is never touched. A folder
 * recorded with it (`removeDir`, Postgres's cluster outside the repo) is removed once it is stopped.
 */
async function stopRecorded(dir, { log = () => {} } = {}) {
	const stopped = [];
	const kept = [];
	for (const entry of readPids(dir)) {
		// Another run that is still going (the same suite twice at once) keeps its processes.
		if (entry.owner !== process.pid && cmdlineOf(entry.owner) === entry.ownerCmdline) {
			kept.push(entry);
			continue;
		}
		const cmdline = cmdlineOf(entry.pid);
		if (cmdline !== undefined && cmdline === entry.cmdline) {
			log(`== stopping leftover ${entry.name} (pid ${entry.pid})`);
			const children = descendantsOf(entry.pid);
			signal(entry.pid, killSignalFor(entry.name));
			for (let i = 0; i < 50 && cmdlineOf(entry.pid) !== undefined; i++) await wait(100);
			for (const child of children) signal(child, 'SIGKILL');
			stopped.push(entry);
		}
		if (entry.removeDir) fs.rmSync(entry.removeDir, { recursive: true, force: true });
	}
	writePids(dir, kept);
	return Object.assign(stopped, { kept });
}

/** Every process started here and still running. */
const live = new Set();

function killAllNow() {
	for (const handle of live) handle.killNow();
}

/** A signal that nothing else handles would end this process and leave its children running. */
function onSignal(sig) {
	if (process.listenerCount(sig) > 1) return; // its other handler stops what it started
	killAllNow();
	process.exit(sig === 'SIGINT' ? 130 : 143);
}

let exitHandlersInstalled = false;
function installExitHandlers() {
	if (exitHandlersInstalled) return;
	exitHandlersInstalled = true;
	process.on('exit', killAllNow);
	for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, onSignal);
}

/** Stops every process this registry started and that is still running, each by its pid. */
async function stopAll(graceMs = 10_000) {
	await Promise.all([...live].map((handle) => handle.stop(graceMs)));
}

/** Resolves when `check()` holds; rejects when the process ends first or the time runs out. */
async function waitFor(handle, check, timeoutMs, what, listeners) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await check()) return;
		if (handle.exited) {
			throw new Error(
				`${handle.name} ended (${JSON.stringify(handle.exited)}) before ${what}:\n${handle.output().slice(-5000)}`,
			);
		}
		if (Date.now() > deadline) {
			throw new Error(
				`${handle.name}: no ${what} after ${timeoutMs} ms:\n${handle.output().slice(-5000)}`,
			);
		}
		await new Promise((resolve) => {
			const timer = setTimeout(done, 200);
			function done() {
				clearTimeout(timer);
				listeners?.delete(done);
				resolve();
			}
			listeners?.add(done);
		});
	}
}

/**
 * Spawns a long-running process, keeps the tail of its output, records its pid (under `dir`, when
 * given), and gives back a handle whose stop() ends it and what it started, by pid, within a
 * bounded time. `group`, an array, collects the handles of one stack so that it can be stopped
 * whole; `removeDir`, a folder of the process's own, is removed when it has ended.
 */
function startProcess({
	name,
	command,
	args,
	env,
	cwd,
	uid,
	gid,
	dir,
	group,
	removeDir,
	log = () => {},
	stopSignal = 'SIGTERM',
	keep = 200_000,
}) {
	installExitHandlers();
	const child = spawn(command, args, { env, cwd, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	const listeners = new Set();
	const onData = (chunk) => {
		output = (output + chunk).slice(-keep);
		for (const line of chunk.toString().split('\n')) if (line.trim()) log(`[${name}] ${line}`);
		for (const listener of listeners) listener(output);
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	let exited = null;
	const exit = new Promise((resolve) => {
		child.on('exit', (code, sig) => {
			exited = { code, signal: sig };
			live.delete(handle);
			if (dir) forgetPid(dir, child.pid);
			if (removeDir) fs.rmSync(removeDir, { recursive: true, force: true });
			resolve(exited);
		});
	});
	child.on('error', (error) => {
		// A command that cannot be started never emits 'exit'.
		exited ??= { error: error.message };
		live.delete(handle);
	});
	const handle = {
		name,
		pid: child.pid,
		child,
		exit,
		get exited() {
			return exited;
		},
		output: () => output,
		/** Resolves when `predicate(output)` holds; rejects when the process ends first or time runs out. */
		waitForOutput: (predicate, timeoutMs, what) =>
			waitFor(handle, () => predicate(output), timeoutMs, what, listeners),
		record() {
			if (dir && child.pid)
				recordPid(dir, { name, pid: child.pid, cmdline: cmdlineOf(child.pid), removeDir });
		},
		killNow() {
			if (exited) return;
			for (const pid of descendantsOf(child.pid)) signal(pid, 'SIGKILL');
			signal(child.pid, killSignalFor(name));
		},
		async stop(graceMs = 15_000) {
			if (exited) return exited;
			const children = descendantsOf(child.pid);
			signal(child.pid, stopSignal);
			const timer = setTimeout(() => handle.killNow(), graceMs);
			const result = await exit;
			clearTimeout(timer);
			// A child the process started and did not end (a task runner) must not outlive it.
			for (const pid of children) if (cmdlineOf(pid) !== undefined) signal(pid, 'SIGKILL');
			return result;
		},
	};
	if (child.pid === undefined) return handle;
	live.add(handle);
	group?.push(handle);
	handle.record();
	return handle;
}

module.exports = {
	wait,
	cmdlineOf,
	descendantsOf,
	readPids,
	recordPid,
	forgetPid,
	stopRecorded,
	startProcess,
	waitFor,
	stopAll,
	killAllNow,
};
