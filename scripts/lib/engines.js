'use strict';
/*
 * Chromium, Firefox ESR and WebKit (WebKitGTK's MiniBrowser) for a test that runs on any Node:
 * their drivers need Node 22 or later, so scripts/lib/engineDriver.js runs them under Node 24
 * (node24.js) and this file calls its tabs over HTTP on 127.0.0.1. Debian's packages are installed
 * when missing and we are root (apt.js); nothing fetches a browser.
 */
const fs = require('node:fs');
const path = require('node:path');

const { ensureChromium } = require('./chromium');
const { installMissing } = require('./apt');
const { BINARIES } = require('./engineDriver');
const { node24Binary } = require('./node24');
const { startProcess } = require('./processes');

const ENGINES = ['chromium', 'firefox', 'webkit'];

/** Installs the engines' Debian packages that are missing (as root; else says what to install). */
function ensureEngines({ log = console.log } = {}) {
	ensureChromium({ log });
	const missing = Object.values(BINARIES)
		.filter((binary) => !fs.existsSync(binary.path))
		.map((binary) => binary.debian);
	installMissing('the engines test', missing, { log });
}

/**
 * The three engines' driver, started: `tab(engine, { language })` opens a tab (`language`: the
 * browser's Accept-Language where the engine lets a driver set it), whose calls are those of
 * engineDriver.js's tab (`open`, `fill`, `click`, `select`, `attach`, `setAttribute`, `press`,
 * `html`, `overflow`, `axe`, `close`); `stop()` closes every browser and ends the driver.
 */
async function startEngines({ log = () => {} } = {}) {
	ensureEngines({ log });
	const handle = startProcess({
		name: 'engines',
		command: node24Binary({ log }),
		args: [path.join(__dirname, 'engineDriver.js')],
		env: process.env,
		log,
	});
	await handle.waitForOutput((out) => /engines on \d+/.test(out), 30_000, 'the engines driver');
	const url = `http://127.0.0.1:${/engines on (\d+)/.exec(handle.output())[1]}/`;
	const call = async (body) => {
		const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
		const answer = await response.json();
		if (answer.error !== undefined)
			throw new Error(`${body.engine ?? ''} ${body.call}: ${answer.error}`);
		return answer.value;
	};
	return {
		async tab(engine, options = {}) {
			const id = await call({ engine, call: 'tab', args: [options] });
			return new Proxy(
				{},
				// Not a promise: `then` is no call.
				{
					get: (_, name) =>
						name === 'then' ? undefined : (...args) => call({ engine, tab: id, call: name, args }),
				},
			);
		},
		async stop() {
			await call({ close: true }).catch(() => {});
			await handle.stop(10_000);
		},
	};
}

module.exports = { ENGINES, ensureEngines, startEngines };
