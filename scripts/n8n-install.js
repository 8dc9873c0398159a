#!/usr/bin/env node
'use strict';
/*
 * `node scripts/n8n-install.js [--background]`: installs both pinned n8n versions (2.x and 1.x)
 * side by side, each in its own process. With --background it returns at once and leaves the
 * installs running detached, their output in .tmp/n8n-install.log: .ci/run starts them before
 * lint and the unit tests, so that the downloads overlap that work. The end-to-end suites'
 * ensureN8n waits for an install under way, and installs itself if this one failed.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..');
const PINS = ['', '1.x'];

/** One pin's install in a child process: N8N_PIN picks the version, as in the test scripts. */
function installPin(pin) {
	const env = { ...process.env, N8N_PIN: pin };
	if (!pin) delete env.N8N_PIN;
	const code =
		"require('./scripts/lib/n8n').ensureN8n().catch((e) => { console.error(e); process.exit(1); })";
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['-e', code], { cwd: REPO_ROOT, env, stdio: 'inherit' });
		child.on('exit', (status) => resolve(status === 0));
	});
}

async function main() {
	if (process.argv.includes('--background')) {
		fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
		const out = fs.openSync(path.join(REPO_ROOT, '.tmp', 'n8n-install.log'), 'w');
		spawn(process.execPath, [__filename], { detached: true, stdio: ['ignore', out, out] }).unref();
		console.log('== n8n installs started in the background (.tmp/n8n-install.log)');
		return;
	}
	// Node 24 first, once: the two installs would otherwise both fetch it.
	require('./lib/node24').node24Binary();
	const done = await Promise.all(PINS.map(installPin));
	process.exitCode = done.every(Boolean) ? 0 : 1;
}

main();
