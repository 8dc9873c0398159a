'use strict';
/*
 * A small stand-in for n8n's task runner launcher, for an n8n started with N8N_RUNNERS_MODE=external.
 *
 * n8n 2.41 deprecates its internal runner mode: it asks for `external` plus a launcher that shares
 * N8N_RUNNERS_AUTH_TOKEN. The launcher itself ships only in n8n's Docker image, so this module does
 * its job for the JavaScript runner: trade the auth token for a one-time grant token at the task
 * broker (POST <broker>/runners/auth), start @n8n/task-runner under Node 24 with it, and start it
 * again with a fresh grant token if it exits. No Python runner: in external mode n8n does not look
 * for one, which is what keeps its "virtual environment is missing" message away.
 */
const path = require('node:path');
const { spawn } = require('node:child_process');

const RESTARTS_PER_MINUTE = 5;

function runnerStartScript(entry) {
	// n8n itself resolves '@n8n/task-runner/start' from its own package folder.
	return require.resolve('@n8n/task-runner/start', { paths: [path.dirname(path.dirname(entry))] });
}

/** Asks the broker for a grant token; retries while the broker is still starting. */
async function grantToken(brokerUrl, authToken, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(`${brokerUrl}/runners/auth`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ token: authToken }),
		}).catch(() => undefined); // not listening yet
		if (response?.status === 403) throw new Error('the task broker refused N8N_RUNNERS_AUTH_TOKEN');
		const body = response?.ok ? await response.json().catch(() => undefined) : undefined;
		if (body?.data?.token) return body.data.token;
		if (Date.now() > deadline)
			throw new Error(`no grant token from the task broker at ${brokerUrl}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

function runnerEnv(env, token, brokerUrl) {
	const keep = [
		'PATH',
		'HOME',
		'GENERIC_TIMEZONE',
		'NODE_FUNCTION_ALLOW_BUILTIN',
		'NODE_FUNCTION_ALLOW_EXTERNAL',
	];
	const out = Object.fromEntries(
		keep.filter((key) => env[key] !== undefined).map((key) => [key, env[key]]),
	);
	return {
		...out,
		N8N_RUNNERS_GRANT_TOKEN: token,
		N8N_RUNNERS_TASK_BROKER_URI: brokerUrl,
		N8N_RUNNERS_TASK_TIMEOUT: env.N8N_RUNNERS_TASK_TIMEOUT ?? '60',
		N8N_RUNNERS_MAX_CONCURRENCY: env.N8N_RUNNERS_MAX_CONCURRENCY ?? '10',
	};
}

/**
 * Keeps one JavaScript task runner connected to the broker of the n8n started with `env`.
 * Resolves once the first runner process is up; `stop()` ends it.
 */
async function startJsTaskRunner({ env, node, entry, log = () => {} }) {
	const brokerUrl = `http://127.0.0.1:${env.N8N_RUNNERS_BROKER_PORT}`;
	const script = runnerStartScript(entry);
	const flags = ['--disallow-code-generation-from-strings', '--disable-proto=delete'];
	let child;
	let stopping = false;
	const starts = [];

	async function launch() {
		const token = await grantToken(brokerUrl, env.N8N_RUNNERS_AUTH_TOKEN);
		starts.push(Date.now());
		// Own process group: a Ctrl-C in the terminal reaches n8n and us, and we stop the runner
		// ourselves, so that it is not restarted while n8n goes down.
		child = spawn(node, [...flags, script], {
			env: runnerEnv(env, token, brokerUrl),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const forward = (chunk) => {
			if (stopping) return; // its shutdown messages say nothing new
			for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
		};
		child.stdout.on('data', forward);
		child.stderr.on('data', forward);
		child.on('exit', (code, signal) => {
			if (stopping) return;
			const recent = starts.filter((time) => Date.now() - time < 60_000).length;
			if (recent >= RESTARTS_PER_MINUTE) {
				log(
					`the JavaScript task runner keeps exiting (${code ?? signal}); Code nodes will not run`,
				);
				return;
			}
			launch().catch((error) =>
				log(`could not restart the JavaScript task runner: ${error.message}`),
			);
		});
	}

	await launch();
	const killOnExit = () => child?.kill('SIGKILL');
	process.on('exit', killOnExit);
	return {
		async stop(graceMs = 10_000) {
			stopping = true;
			process.off('exit', killOnExit);
			if (!child || child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		},
	};
}

module.exports = { startJsTaskRunner };
