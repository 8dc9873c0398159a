'use strict';
/*
 * n8n's queue mode on this machine, with the parts users run: Redis and Postgres from Debian's
 * packages (installed when missing), an n8n main instance, `n8n worker` processes and, when asked,
 * `n8n webhook` processes, sharing one database and one encryption key. Everything runs on
 * 127.0.0.1 on free ports, with its data under one git-ignored folder (Postgres's under the
 * system's temporary folder, see startPostgres), and is stopped by process id (processes.js).
 * Every pid is also written to <folder>/pids.json so that a run that died half-way is cleaned up
 * by the next one (or by jest's globalTeardown) without killing anything by name.
 * Used by the queue-mode tests (test/queue). Written for Node >= 20; n8n runs under Node 24.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const os = require('node:os');
const { execFileSync, spawn } = require('node:child_process');

const { installMissing } = require('./apt');
const n8n = require('./n8n');
const { node24Binary, envWithNode24 } = require('./node24');
const { descendantsOf, startProcess, stopRecorded, wait, waitFor } = require('./processes');
const { startRoundRobin } = require('./round-robin');

const QUEUE_DIR = path.join(n8n.REPO_ROOT, '.tmp', 'queue');

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

async function startRedis({ dir, group, log } = {}) {
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
		group,
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

/**
 * The folder for the cluster. Postgres runs as another user when we are root, and that user must
 * reach its data folder: a clone in a private folder (mktemp -d, a home folder of mode 0700) is
 * out of its reach, so the cluster lives in a folder of its own under the system's temporary
 * folder, owned by that user (mode 0700), and is removed when it stops.
 */
function clusterFolder(user, parent = os.tmpdir()) {
	const pgDir = fs.mkdtempSync(path.join(parent, 'omnichannel-queue-pg-'));
	if (user.uid === undefined) return pgDir;
	fs.chownSync(pgDir, user.uid, user.gid);
	try {
		execFileSync('sh', ['-c', 'test -w "$1"', 'sh', pgDir], { ...user, stdio: 'ignore' });
	} catch {
		fs.rmSync(pgDir, { recursive: true, force: true });
		throw new Error(
			`Postgres runs as the postgres user, which cannot reach ${parent}: set TMPDIR to a folder ` +
				'that user can enter',
		);
	}
	return pgDir;
}

/**
 * A throw-away Postgres cluster (trust auth, nothing synced to disk: the data is not kept),
 * listening on 127.0.0.1 on a free port, its socket beside its data. `pgRoot`: the folder to
 * make the cluster's folder in (the system's temporary folder unless given).
 */
async function startPostgres({
	dir,
	pgBin = postgresBinDir(),
	pgRoot,
	group,
	log,
	database = 'n8n',
}) {
	const user = postgresUser();
	const pgDir = clusterFolder(user, pgRoot);
	const dataDir = path.join(pgDir, 'data');
	const socketDir = path.join(pgDir, 'sock');
	const env = { PATH: process.env.PATH, HOME: pgDir, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
	try {
		execFileSync('mkdir', [socketDir], { ...user, stdio: 'ignore' });
		execFileSync(
			path.join(pgBin, 'initdb'),
			['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
			{ ...user, env, cwd: pgDir, stdio: ['ignore', 'ignore', 'pipe'] },
		);
	} catch (error) {
		fs.rmSync(pgDir, { recursive: true, force: true });
		throw new Error(`initdb failed in ${pgDir}: ${String(error.stderr ?? error.message).trim()}`);
	}
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
		group,
		removeDir: pgDir,
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
			// n8n pings its database every 2 s and, after a ping slower than 5 s, answers every request
			// with 503 until one succeeds: on a shared 2-core machine under load that refused the form
			// POSTs of the benchmark (seen on webhook processes). A slow ping is not the test's subject.
			DB_PING_TIMEOUT_MS: '30000',
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
		group: stack.started,
		log,
	});
}

/** Whether an n8n process on `url` is migrated and ready; `rest`: the REST routes answer too. */
function readyOn(url, { rest = false } = {}) {
	return async () => {
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			if (!response.ok || (await response.json()).status !== 'ok') return false;
			// Readiness means the database is migrated; the REST routes come a moment later.
			return !rest || (await fetch(`${url}/rest/settings`)).ok;
		} catch {
			return false;
		}
	};
}

/**
 * `n8n start` in queue mode: the editor and REST API; it runs no executions itself. With webhook
 * processes it serves no production webhooks either (N8N_DISABLE_PRODUCTION_MAIN_PROCESS), as
 * n8n's scaling guide sets them up; every process names their address (stack.webhookUrl).
 */
async function startMain(stack, { log, timeoutMs = 240_000 } = {}) {
	const port = await n8n.freePort();
	const url = `http://127.0.0.1:${port}`;
	stack.webhookUrl ??= url;
	const env = queueEnv({
		stack,
		userFolder: processFolder(stack.dir, 'main'),
		port,
		brokerPort: await n8n.freePort(),
		extra: {
			...webhookUrlEnv(stack.webhookUrl),
			...(stack.webhookUrl === url ? {} : { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' }),
			...stack.mainEnv,
		},
	});
	const handle = spawnN8n({ stack, name: 'n8n-main', args: ['start'], env, log });
	await waitFor(handle, readyOn(url, { rest: true }), timeoutMs, 'readiness');
	return Object.assign(handle, { port, url });
}

/**
 * `n8n webhook` on `port`: production webhooks, forms and waiting executions' resumes, each
 * execution handed to the workers over Redis. The package in its own nodes folder, as on a worker.
 */
async function startWebhookProcess(stack, { name, port, log, timeoutMs = 120_000 }) {
	const url = `http://127.0.0.1:${port}`;
	const env = queueEnv({
		stack,
		userFolder: processFolder(stack.dir, name),
		port,
		brokerPort: await n8n.freePort(),
		extra: webhookUrlEnv(stack.webhookUrl),
	});
	const handle = spawnN8n({ stack, name, args: ['webhook'], env, log });
	await waitFor(handle, readyOn(url), timeoutMs, 'readiness');
	return Object.assign(handle, { port, url });
}

/** `n8n worker`: takes executions from the Redis queue; its own task-broker and health ports. */
async function startWorker(stack, { name, concurrency, extraEnv, log, timeoutMs = 120_000 }) {
	const env = queueEnv({
		stack,
		userFolder: processFolder(stack.dir, name),
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		extra: {
			// Links a worker writes into messages (signed resume URLs of send and wait) lead to where
			// webhooks are received; without it they would name the worker's own port.
			...webhookUrlEnv(stack.webhookUrl),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(await n8n.freePort()),
			...extraEnv,
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
 * Where production webhooks are received: the main when `count` is 0, else `count` webhook
 * processes on ports chosen now (their address goes into every process's environment), behind a
 * round-robin proxy on 127.0.0.1 when there are two or more.
 */
async function webhookAddress(stack, count) {
	const ports = await Promise.all(Array.from({ length: count }, () => n8n.freePort()));
	if (count > 1) stack.balancer = await startRoundRobin(ports.map((p) => `http://127.0.0.1:${p}`));
	if (count > 0) stack.webhookUrl = stack.balancer?.url ?? `http://127.0.0.1:${ports[0]}`;
	return ports;
}

/** Starts every one of `starts` (functions returning a promise); when one fails, throws its error. */
async function allStarted(starts) {
	// allSettled: a part that fails must not leave the others still starting, unstopped.
	const settled = await Promise.allSettled(starts.map((start) => start()));
	const failed = settled.find((result) => result.status === 'rejected');
	if (failed) throw failed.reason;
	return settled.map((result) => result.value);
}

/**
 * The whole deployment: Redis, Postgres, one main, `workers` workers and `webhooks` webhook
 * processes (see webhookAddress). Leftovers of an earlier run are stopped first. When any part
 * fails to start, everything already started (or starting) is stopped by pid before the error is
 * thrown, with the cause first in its message. `pgRoot`: where Postgres's folder is made (see
 * startPostgres); `workerEnv`, `mainEnv`: extra variables of the workers, of the main.
 */
async function startQueueStack({
	dir = QUEUE_DIR,
	workers = 2,
	webhooks = 0,
	workerConcurrency,
	workerEnv,
	mainEnv,
	pgRoot,
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
		webhooks: [],
		started: [],
		timings: {},
		mainEnv,
	};
	stack.stop = () => stopQueueStack(stack);
	stack.guard = startGuard(dir);
	const group = stack.started;
	const t0 = Date.now();
	try {
		[stack.redis, stack.postgres] = await allStarted([
			() => startRedis({ dir, group, log }),
			() => startPostgres({ dir, pgBin, pgRoot, group, log }),
		]);
		stack.timings.servicesMs = Date.now() - t0;
		const webhookPorts = await webhookAddress(stack, webhooks);
		// The main migrates the database; the others start after it so they do not race the migration.
		stack.main = await startMain(stack, { log });
		stack.timings.mainMs = Date.now() - t0;
		const names = Array.from({ length: workers }, (_, i) => `worker-${i + 1}`);
		// n8n's start is bound by the CPU: processes started at once on two cores take as many
		// times as long, so each is given a minute per process starting beside it.
		const timeoutMs = 60_000 * Math.max(2, workers + webhooks);
		const worker = (name) => () =>
			startWorker(stack, {
				name,
				concurrency: workerConcurrency,
				extraEnv: workerEnv,
				log,
				timeoutMs,
			});
		const webhook = (port, i) => () =>
			startWebhookProcess(stack, { name: `webhook-${i + 1}`, port, log, timeoutMs });
		const started = await allStarted([...names.map(worker), ...webhookPorts.map(webhook)]);
		stack.workers = started.slice(0, workers);
		stack.webhooks = started.slice(workers);
		stack.timings.workersMs = Date.now() - t0;
	} catch (error) {
		await stopQueueStack(stack);
		error.message = `the queue-mode stack did not start: ${error.message}`;
		throw error;
	}
	return stack;
}

/**
 * Stops the webhook processes, the workers, the main, then Redis and Postgres, each by its pid and
 * within a bounded time, then anything else the stack started (a part that was still starting
 * when another failed), and the proxy.
 */
async function stopQueueStack(stack) {
	const results = {};
	const stopAll = async (handles) =>
		await Promise.all(handles.filter(Boolean).map(async (h) => (results[h.name] = await h.stop())));
	await stopAll(stack.webhooks ?? []);
	await stopAll(stack.workers ?? []);
	await stopAll([stack.main]);
	await stopAll([stack.redis, stack.postgres]);
	await stopAll(stack.started ?? []);
	await stopRecorded(stack.dir);
	await stack.balancer?.stop();
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
	descendantsOf,
	stopRecorded,
	redisCommand,
	startRedis,
	startPostgres,
	queueEnv,
	startMain,
	startWorker,
	startWebhookProcess,
	startQueueStack,
	stopQueueStack,
};
