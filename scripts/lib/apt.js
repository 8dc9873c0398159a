'use strict';
/*
 * Debian packages the tests need and npm cannot provide (Redis and Postgres for the queue-mode
 * test, Chromium for the browser test): installed with apt-get when the test runs as root, as on
 * a fresh CI machine. Anyone else is told what to install.
 */
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

/**
 * apt-get install without the packages' own services: on a machine without systemd their
 * install scripts would start a Redis on 6379 and a Postgres cluster on 5432 that nothing stops.
 * policy-rc.d answering 101 ("action forbidden") is Debian's way to say so; ours is removed after.
 */
function aptInstall(packages) {
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	try {
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const stdio = ['ignore', 'ignore', 'inherit'];
		execFileSync('apt-get', ['update', '-qq'], { stdio, env });
		execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
			stdio,
			env,
		});
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
}

/** Installs the missing packages as root; otherwise throws, saying what `what` needs and how to install it. */
function installMissing(what, missing, { log = console.log } = {}) {
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${what} needs ${missing.join(' and ')}: install ${missing.length === 1 ? 'it' : 'them'} ` +
				`(apt-get install -y ${missing.join(' ')}) or run as root`,
		);
	}
	log(`== installing ${missing.join(', ')} from Debian's packages`);
	aptInstall(missing);
}

module.exports = { aptInstall, installMissing };
