'use strict';
/*
 * n8n's queue mode on this machine, with the parts users run: Redis and Postgres from Debian's
 * packages (installed when missing), an n8n main instance and `n8n worker` processes sharing
 * one database and one encryption key. Everything runs on 127.0.0.1 on free ports, with its data
 * under one git-ignored folder, and is stopped by process id. Every pid is also written to
 * <folder>/pids.json so that a run that died half-way is cleaned up by the next one (or by
 * jest's globalTeardown) without killing anything by name.
 * Used by the queue-mode tests (test/queue). Written for Node >= 20; n8n runs under Node 24.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');

const { installMissing } = require('./apt');
const n8n = require('./n8n');
const { node24Binary, envWithNode24 } = require('./node24');

const QUEUE_DIR = path.join(n8n.REPO_ROOT, '.tmp', 'queue');
const PIDS_FILE = 'pids.json';

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Debian's Postgres binaries: the newest /usr/lib/postgresql/<major>/bin that has initdb. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

function hasCommand(name) {
	try {
		execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** Installs redis-server and postgresql from Debian's packages when they are missing (CI runs as root). */
function ensureQueueServices({ log = console.log } = {}) {
	const missing = [];
	if (!hasCommand('redis-server')) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	installMissing('queue mode', missing, { log });
	return { redisServer: 'redis-server', pgBin: postgresBinDir() };
}

/** The pids file: what this run started, so a later run or jest's teardown can stop leftovers. */
function recordPid(dir, entry) {
	const file = path.join(dir, PIDS_FILE);
	const entries = readPids(dir).filter((e) => e.pid !== entry.pid);
	// The owner is the process that started it: while the owner lives, the entry is not a leftover.
	entries.push({ owner: process.pid, ownerCmdline: cmdlineOf(process.pid), ...entry });
	fs.writeFileSync(file, JSON.stringify(entries, null, 2));
}

function forgetPid(dir, pid) {
	const file = path.join(dir, PIDS_FILE);
	if (!fs.existsSync(file)) return;
	fs.writeFileSync(
		file,
		JSON.stringify(
			readPids(dir).filter((e) => e.pid !== pid),
			null,
			2,
		),
	);
}

function readPids(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, PIDS_FILE), 'utf8'));
	} catch {
		return [];
	}
}

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

/**
 * Stops what an earlier run recorded and left running. A pid only counts when its command line
 * is still the recorded one, so a reused pid of an unrelated process is never touched.
 */
async function stopRecorded(dir = QUEUE_DIR, { log = () => {} } = {}) {
	const stopped = [];
	const kept = [];
	for (const entry of readPids(dir)) {
		const cmdline = cmdlineOf(entry.pid);
		if (cmdline === undefined || cmdline !== entry.cmdline) continue;
		// Another run that is still going (npm run test:queue twice at once) keeps its processes.
		if (entry.owner !== process.pid && cmdlineOf(entry.owner) === entry.ownerCmdline) {
			kept.push(entry);
			continue;
		}
		log(`== stopping leftover ${entry.name} (pid ${entry.pid})`);
		const children = descendantsOf(entry.pid);
		// Postgres: SIGQUIT is its immediate shutdown, which also ends its backends.
		signal(entry.pid, entry.name === 'postgres' ? 'SIGQUIT' : 'SIGKILL');
		for (let i = 0; i < 50 && cmdlineOf(entry.pid) !== undefined; i++) await wait(100);
		for (const child of children) signal(child, 'SIGKILL');
		stopped.push(entry);
	}
	if (kept.length) fs.writeFileSync(path.join(dir, PIDS_FILE), JSON.stringify(kept, null, 2));
	else fs.rmSync(path.join(dir, PIDS_FILE), { force: true });
	return Object.assign(stopped, { kept });
}

/** Every process started here, so that the test process ending first takes them with it. */
const live = new Set();
process.on('exit', () => {
	for (const service of live) service.killNow();
});

/**
 * Spawns a long-running process, keeps the tail of its output, records its pid, and gives back a
 * handle whose stop() ends it (and what it started) by pid, waiting a bounded time.
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
	log = () => {},
	stopSignal = 'SIGTERM',
}) {
	const child = spawn(command, args, { env, cwd, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	const listeners = new Set();
	const onData = (chunk) => {
		output = (output + chunk).slice(-200_000);
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
			resolve(exited);
		});
	});
	child.on('error', (error) => {
		exited ??= { error: error.message };
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
			if (dir && child.pid) recordPid(dir, { name, pid: child.pid, cmdline: cmdlineOf(child.pid) });
		},
		killNow() {
			if (exited) return;
			for (const pid of descendantsOf(child.pid)) signal(pid, 'SIGKILL');
			signal(child.pid, name === 'postgres' ? 'SIGQUIT' : 'SIGKILL');
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
	live.add(handle);
	handle.record();
	return handle;
}

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

/** Sends one inline command to Redis over TCP and resolves with the first line of the answer. */
function redisCommand(port, command, timeoutMs = 2000) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1');
		const timer = setTimeout(() => socket.destroy(new Error('redis did not answer')), timeoutMs);
		let answer = '';
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (chunk) => {
			answer += chunk;
			if (answer.includes('\r\n')) {
				clearTimeout(timer);
				socket.end();
				resolve(answer.split('\r\n')[0]);
			}
		});
		socket.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
	});
}

async function startRedis({ dir, log } = {}) {
	const port = await n8n.freePort();
	const dataDir = path.join(dir, 'redis');
	fs.mkdirSync(dataDir, { recursive: true });
	const handle = startProcess({
		name: 'redis',
		command: 'redis-server',
		args: [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dataDir,
		],
		dir,
		log,
	});
	const ping = async () => (await redisCommand(port, 'PING').catch(() => '')) === '+PONG';
	await waitFor(handle, ping, 20_000, 'answer to PING');
	// redis-server renames its process title: record the command line it has now.
	handle.record();
	return Object.assign(handle, { port });
}
/** Postgres refuses to run as root: as root, run it as Debian's `postgres` user. */
function postgresUser() {
	if (process.getuid?.() !== 0) return {};
	const [, , uid, gid] = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' })
		.trim()
		.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

function chownTree(target, { uid, gid }) {
	if (uid === undefined) return;
	fs.chownSync(target, uid, gid);
	for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
		const full = path.join(target, entry.name);
		if (entry.isDirectory()) chownTree(full, { uid, gid });
		else fs.chownSync(full, uid, gid);
	}
}

/**
 * A throw-away Postgres cluster: initdb into <dir>/postgres/data (trust auth, nothing synced to
 * disk: the data is not kept), listening on 127.0.0.1 on a free port, its socket in <dir> too.
 */
async function startPostgres({ dir, pgBin = postgresBinDir(), log, database = 'n8n' }) {
	const user = postgresUser();
	const pgDir = path.join(dir, 'postgres');
	const dataDir = path.join(pgDir, 'data');
	const socketDir = path.join(pgDir, 'sock');
	fs.mkdirSync(socketDir, { recursive: true });
	chownTree(pgDir, user);
	const env = { PATH: process.env.PATH, HOME: pgDir, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
	execFileSync(
		path.join(pgBin, 'initdb'),
		['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ ...user, env, cwd: pgDir, stdio: ['ignore', 'ignore', 'pipe'] },
	);
	const port = await n8n.freePort();
	const handle = startProcess({
		name: 'postgres',
		command: path.join(pgBin, 'postgres'),
		args: [
			'-D',
			dataDir,
			'-p',
			String(port),
			'-k',
			socketDir,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			// Statement counts (the CRM-events test counts the processed-data store's calls with it).
			'-c',
			'shared_preload_libraries=pg_stat_statements',
		],
		env,
		cwd: pgDir,
		...user,
		dir,
		log,
		// Fast shutdown: ends the sessions of n8n processes that are still connected.
		stopSignal: 'SIGINT',
	});
	// SQL too long for a command-line argument (a prefilled history) goes in on stdin.
	const psql = (sql, db = 'postgres') =>
		execFileSync(
			path.join(pgBin, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				db,
				'-At',
				'-v',
				'ON_ERROR_STOP=1',
				'-f',
				'-',
			],
			{
				encoding: 'utf8',
				env,
				input: /;\s*$/.test(sql) ? sql : `${sql};`,
				stdio: ['pipe', 'pipe', 'pipe'],
				timeout: 20_000,
				maxBuffer: 64 * 1024 * 1024,
			},
		);
	const ready = () => {
		try {
			return psql('select 1').trim() === '1';
		} catch {
			return false;
		}
	};
	await waitFor(handle, ready, 30_000, 'connection');
	psql(`CREATE DATABASE ${database}`);
	return Object.assign(handle, {
		port,
		database,
		user: 'postgres',
		psql: (sql) => psql(sql, database),
	});
}
/** The environment every n8n process of the deployment shares: queue mode, Postgres, Redis, one key. */
function queueEnv({ stack, userFolder, port, brokerPort, extra = {} }) {
	return n8n.n8nEnv({
		userFolder,
		port,
		brokerPort,
		extra: {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(stack.postgres.port),
			DB_POSTGRESDB_DATABASE: stack.postgres.database,
			DB_POSTGRESDB_USER: stack.postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(stack.redis.port),
			N8N_ENCRYPTION_KEY: stack.encryptionKey,
			// A main waits this long for executions a killed worker will never finish, then stops.
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			...extra,
		},
	});
}

/** The public address of webhooks: N8N_WEBHOOK_URL on n8n 2.x (WEBHOOK_URL is deprecated there), else WEBHOOK_URL. */
function webhookUrlEnv(url) {
	const major = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]);
	return { [major >= 2 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL']: `${url}/` };
}

/** A user folder of its own per process, the package installed in it as `npm run dev` does. */
function processFolder(dir, name) {
	const userFolder = path.join(dir, name);
	fs.mkdirSync(userFolder, { recursive: true });
	n8n.installPackageInto(userFolder);
	return userFolder;
}

function spawnN8n({ stack, name, args, env, log }) {
	const node = node24Binary({ log });
	return startProcess({
		name,
		command: node,
		args: [path.join(n8n.N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n'), ...args],
		env: envWithNode24(node, env),
		dir: stack.dir,
		log,
	});
}

/** `n8n start` in queue mode: the editor, REST API and production webhooks; it runs no executions itself. */
async function startMain(stack, { log, timeoutMs = 240_000 } = {}) {
	const port = await n8n.freePort();
	const url = `http://127.0.0.1:${port}`;
	const env = queueEnv({
		stack,
		userFolder: processFolder(stack.dir, 'main'),
		port,
		brokerPort: await n8n.freePort(),
		extra: webhookUrlEnv(url),
	});
	const handle = spawnN8n({ stack, name: 'n8n-main', args: ['start'], env, log });
	const ready = async () => {
		try {
			// Readiness means the database is migrated; the REST routes come a moment later.
			const response = await fetch(`${url}/healthz/readiness`);
			return (
				response.ok &&
				(await response.json()).status === 'ok' &&
				(await fetch(`${url}/rest/settings`)).ok
			);
		} catch {
			return false;
		}
	};
	await waitFor(handle, ready, timeoutMs, 'readiness');
	return Object.assign(handle, { port, url });
}

/** `n8n worker`: takes executions from the Redis queue; its own task-broker and health ports. */
async function startWorker(stack, { name, concurrency, log, timeoutMs = 120_000 }) {
	const env = queueEnv({
		stack,
		userFolder: processFolder(stack.dir, name),
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		extra: {
			// Links a worker writes into messages (signed resume URLs of send and wait) lead to the main,
			// which receives webhooks; without it they would name the worker's own port.
			...webhookUrlEnv(stack.main.url),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(await n8n.freePort()),
		},
	});
	const args = ['worker', ...(concurrency ? [`--concurrency=${concurrency}`] : [])];
	const handle = spawnN8n({ stack, name, args, env, log });
	// The worker logs each execution it takes: the only place that says which worker ran what.
	const started = [];
	let rest = '';
	handle.child.stdout.on('data', (chunk) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			const match = /Worker started execution (\d+)/.exec(line);
			if (match) started.push({ executionId: match[1], at: Date.now() });
		}
	});
	await handle.waitForOutput(
		(output) => output.includes('n8n worker is now ready'),
		timeoutMs,
		'"n8n worker is now ready"',
	);
	return Object.assign(handle, { started, healthPort: Number(env.QUEUE_HEALTH_CHECK_PORT) });
}

/**
 * The whole deployment: Redis, Postgres, one main, `workers` workers. Leftovers of an earlier run
 * are stopped first; a failure half-way stops what was already started.
 */
async function startQueueStack({
	dir = QUEUE_DIR,
	workers = 2,
	workerConcurrency,
	log = () => {},
} = {}) {
	const { kept } = await stopRecorded(dir, { log });
	if (kept.length) {
		throw new Error(
			`another queue-mode run (pid ${kept[0].owner}) is using ${dir}: wait for it or stop it first`,
		);
	}
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const { pgBin } = ensureQueueServices({ log });
	const stack = {
		dir,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
		workers: [],
		timings: {},
	};
	stack.stop = () => stopQueueStack(stack);
	stack.guard = startGuard(dir);
	const t0 = Date.now();
	try {
		[stack.redis, stack.postgres] = await Promise.all([
			startRedis({ dir, log }),
			startPostgres({ dir, pgBin, log }),
		]);
		stack.timings.servicesMs = Date.now() - t0;
		// The main migrates the database; workers start after it so they do not race the migration.
		stack.main = await startMain(stack, { log });
		stack.timings.mainMs = Date.now() - t0;
		stack.workers = await Promise.all(
			Array.from({ length: workers }, (_, i) =>
				startWorker(stack, { name: `worker-${i + 1}`, concurrency: workerConcurrency, log }),
			),
		);
		stack.timings.workersMs = Date.now() - t0;
	} catch (error) {
		await stopQueueStack(stack);
		throw error;
	}
	return stack;
}

/** Stops the workers, the main, then Redis and Postgres, each by its pid and within a bounded time. */
async function stopQueueStack(stack) {
	const results = {};
	const stopAll = async (handles) =>
		await Promise.all(handles.filter(Boolean).map(async (h) => (results[h.name] = await h.stop())));
	await stopAll(stack.workers ?? []);
	await stopAll([stack.main]);
	await stopAll([stack.redis, stack.postgres]);
	await stopRecorded(stack.dir);
	stack.guard?.kill('SIGTERM');
	return results;
}

/**
 * Ctrl-C or a kill of the test process skips every exit handler: a guard process in its own
 * session watches this one and stops the recorded pids when it is gone.
 */
function startGuard(dir) {
	const guard = spawn(
		process.execPath,
		[path.join(__dirname, 'queue-guard.js'), String(process.pid), dir],
		{
			detached: true,
			stdio: 'ignore',
		},
	);
	guard.unref();
	return guard;
}
module.exports = {
	QUEUE_DIR,
	wait,
	postgresBinDir,
	ensureQueueServices,
	recordPid,
	forgetPid,
	readPids,
	cmdlineOf,
	descendantsOf,
	stopRecorded,
	startProcess,
	redisCommand,
	startRedis,
	startPostgres,
	queueEnv,
	startMain,
	startWorker,
	startQueueStack,
	stopQueueStack,
};
