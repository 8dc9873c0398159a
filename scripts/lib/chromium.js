'use strict';
/*
 * The Chromium the browser test drives (through playwright-core). Debian's package, at
 * /usr/bin/chromium, is installed when missing and the test runs as root (a fresh CI machine);
 * CHROMIUM_PATH names another binary (GitHub's runner has Google Chrome), which is never installed.
 */
const fs = require('node:fs');

const { installMissing } = require('./apt');

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium binary to launch; installs Debian's package first when it is missing and we are root. */
function ensureChromium({
	env = process.env,
	log = console.log,
	debianPath = DEBIAN_CHROMIUM,
} = {}) {
	if (env.CHROMIUM_PATH) {
		if (fs.existsSync(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
		throw new Error(
			`CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist: point it at a Chromium or ` +
				`Chrome binary, or unset it to use Debian's chromium (${DEBIAN_CHROMIUM})`,
		);
	}
	if (fs.existsSync(debianPath)) return debianPath;
	installMissing('the browser test', ['chromium'], { log });
	if (fs.existsSync(debianPath)) return debianPath;
	throw new Error(
		`apt-get installed chromium, but ${debianPath} is still missing: set CHROMIUM_PATH to its binary`,
	);
}

module.exports = { ensureChromium, DEBIAN_CHROMIUM };
