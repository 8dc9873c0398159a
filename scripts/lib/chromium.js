'use strict';
/*
 * The Chromium the browser test drives (through playwright-core). Debian's package, at
 * /usr/bin/chromium, is installed when missing and the test runs as root (a fresh CI machine);
 * CHROMIUM_PATH names another binary (GitHub's runner has Google Chrome), which is never installed.
 * The same for the fonts of the page languages (ensureFonts).
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

/*
 * The fonts a phone has for the page languages' scripts, which a bare machine lacks: Noto's core
 * set (Debian's fonts-noto-core) holds Noto Nastaliq Urdu, Naskh Arabic and Devanagari.
 */
const PAGE_FONTS = {
	package: 'fonts-noto-core',
	file: '/usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Regular.ttf',
};

/** Installs the page languages' fonts when missing and we are root; otherwise says what to install. */
function ensureFonts({ log = console.log, fontFile = PAGE_FONTS.file } = {}) {
	if (fs.existsSync(fontFile)) return;
	installMissing('the browser test', [PAGE_FONTS.package], { log });
}

module.exports = { ensureChromium, ensureFonts, DEBIAN_CHROMIUM };
