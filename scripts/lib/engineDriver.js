'use strict';
/*
 * The answer page in the three browser engines customers' phones run, behind one small driver
 * (scripts/lib/engines.js starts this file under Node 24 and calls it over HTTP on 127.0.0.1):
 * Chromium (Blink) through playwright-core, Firefox ESR (Gecko) through puppeteer-core over
 * WebDriver BiDi, and WebKitGTK's MiniBrowser (WebKit, Safari's engine) through selenium-webdriver
 * and WebKitWebDriver, under Xvfb: it has no headless mode. All are Debian's builds; nothing here
 * fetches a browser. Each back end gives the same few steps (go, evaluate, type, click, attach a
 * file); a tab (`open`, `fill`, `press`, `html`, `overflow`, `axe`) is built on them once.
 */
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const { spawn } = require('node:child_process');

const { ensureChromium } = require('./chromium');

/**
 * Debian's binaries of the other two engines, each with its package; FIREFOX_PATH names another
 * Firefox (as CHROMIUM_PATH another Chromium), which is never installed.
 */
const BINARIES = {
	firefox: { path: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', debian: 'firefox-esr' },
	webkitDriver: { path: '/usr/bin/WebKitWebDriver', debian: 'webkit2gtk-driver' },
	xvfb: { path: '/usr/bin/Xvfb', debian: 'xvfb' },
	xauth: { path: '/usr/bin/xauth', debian: 'xauth' },
};
const WIDTH = 320;
const HEIGHT = 640;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chromium as the other browser tests drive it: a context that is a phone 320 px wide. */
async function chromium() {
	const { chromium: launcher } = require('playwright-core');
	const browser = await launcher.launch({
		executablePath: ensureChromium(),
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
	return {
		async tab({ language }) {
			const context = await browser.newContext({
				viewport: { width: WIDTH, height: HEIGHT },
				isMobile: true,
				hasTouch: true,
				locale: language,
			});
			const page = await context.newPage();
			page.setDefaultTimeout(20_000);
			return {
				go: (url) => page.goto(url),
				evaluate: (fn, arg) => page.evaluate(fn, arg),
				script: (source) => page.evaluate(source),
				type: (selector, text) => page.locator(selector).fill(text),
				click: (selector) => page.locator(selector).click(),
				attach: (selector, paths) => page.locator(selector).setInputFiles(paths),
				close: () => context.close(),
			};
		},
		close: () => browser.close(),
	};
}

/** Firefox ESR over WebDriver BiDi: a page whose viewport is 320 px wide. */
async function firefox() {
	const puppeteer = require('puppeteer-core');
	const browser = await puppeteer.launch({
		browser: 'firefox',
		executablePath: BINARIES.firefox.path,
		headless: true,
	});
	return {
		async tab({ language }) {
			const page = await browser.newPage();
			page.setDefaultTimeout(20_000);
			await page.setViewport({ width: WIDTH, height: HEIGHT });
			if (language) await page.setExtraHTTPHeaders({ 'accept-language': language });
			return {
				go: (url) => page.goto(url),
				evaluate: (fn, arg) => page.evaluate(fn, arg),
				script: (source) => page.evaluate(source),
				async type(selector, text) {
					await page.$eval(selector, (element) => (element.value = ''));
					await page.type(selector, text);
				},
				click: (selector) => page.click(selector),
				attach: async (selector, paths) => (await page.$(selector)).uploadFile(...paths),
				close: () => page.close(),
			};
		},
		close: () => browser.close(),
	};
}

/** A port free on 127.0.0.1 now, for WebKitWebDriver. */
function freePort() {
	return new Promise((resolve, reject) => {
		const probe = net.createServer().listen(0, '127.0.0.1', () => {
			const { port } = probe.address();
			probe.close(() => resolve(port));
		});
		probe.on('error', reject);
	});
}

/** Resolves once `ready()` holds, checked every 100 ms for at most 10 s; false if it never did. */
async function until(ready) {
	for (let tries = 0; tries < 100; tries++) {
		if (await ready()) return true;
		await wait(100);
	}
	return false;
}

/** A free X display for MiniBrowser: Xvfb on the first of :90–:139 whose lock file is free. */
async function startXvfb() {
	for (let display = 90; display < 140; display++) {
		if (fs.existsSync(`/tmp/.X${display}-lock`)) continue;
		const args = [`:${display}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'];
		const xvfb = spawn(BINARIES.xvfb.path, args, { stdio: 'ignore' });
		const socket = `/tmp/.X11-unix/X${display}`;
		await until(() => xvfb.exitCode !== null || fs.existsSync(socket));
		if (xvfb.exitCode === null) return { xvfb, display: `:${display}` };
	}
	throw new Error('no free X display between :90 and :139 for Xvfb');
}

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver. Its window is at least 447 px wide whatever
 * WebDriver asks, and the page forbids frames (frame-ancestors 'none'): the 320 px layout is
 * measured by drawing the page's markup again in a 320 px frame of a blank page (`overflow`); axe
 * checks the page itself, 447 px wide. It sends Accept-Language `en-US`, which WebDriver cannot
 * change (nor LANGUAGE=ar in its environment): `language` is not used.
 */
async function webkit() {
	const { Builder } = require('selenium-webdriver');
	const { xvfb, display } = await startXvfb();
	const port = await freePort();
	const driverProcess = spawn(BINARIES.webkitDriver.path, [`--port=${port}`], {
		stdio: 'ignore',
		env: { ...process.env, DISPLAY: display },
	});
	const status = `http://127.0.0.1:${port}/status`;
	await until(() =>
		fetch(status).then(
			(response) => response.ok,
			() => false,
		),
	);
	const sessions = new Set();
	return {
		async tab() {
			const driver = await new Builder()
				.usingServer(`http://127.0.0.1:${port}`)
				.withCapabilities({
					browserName: 'MiniBrowser',
					'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
				})
				.build();
			sessions.add(driver);
			await driver.manage().window().setRect({ width: WIDTH, height: HEIGHT });
			const find = (selector) => driver.findElement({ css: selector });
			// A function's promise, awaited in the page; its rejection thrown here, as the others do.
			const evaluate = async (fn, arg) => {
				const result = await driver.executeAsyncScript(
					`const done = arguments[arguments.length - 1];
					Promise.resolve((${fn})(arguments[0])).then(
						(value) => done({ value }),
						(error) => done({ thrown: String(error) }),
					);`,
					arg,
				);
				if ('thrown' in result) throw new Error(result.thrown);
				return result.value;
			};
			return {
				go: (url) => driver.get(url),
				evaluate,
				script: (source) => driver.executeScript(source),
				async type(selector, text) {
					await (await find(selector)).clear();
					await (await find(selector)).sendKeys(text);
				},
				click: async (selector) => (await find(selector)).click(),
				attach: async (selector, paths) => (await find(selector)).sendKeys(paths.join('\n')),
				async layoutOverflow(html) {
					await driver.get('about:blank');
					return await evaluate(frameOverflow, { html, width: WIDTH, height: HEIGHT });
				},
				async close() {
					sessions.delete(driver);
					await driver.quit();
				},
			};
		},
		async close() {
			for (const driver of sessions) await driver.quit().catch(() => {});
			driverProcess.kill('SIGTERM');
			xvfb.kill('SIGTERM');
		},
	};
}

/** In a blank page: the page's markup in a frame `width` px wide, and how much wider it lays out. */
function frameOverflow({ html, width, height }) {
	return new Promise((resolve) => {
		const frame = globalThis.document.createElement('iframe');
		frame.style.cssText = `width:${width}px;height:${height}px;border:0`;
		frame.onload = () => {
			const root = frame.contentDocument.documentElement;
			resolve(Math.max(0, root.scrollWidth - root.clientWidth));
		};
		frame.srcdoc = html;
		globalThis.document.body.append(frame);
	});
}

const BACK_ENDS = { chromium, firefox, webkit };

let axeSource;

/**
 * axe-core's WCAG 2.1 A/AA rules on the page as shown: each violated rule with its elements. The
 * page's CSP forbids its scripts (and eval); a driver's own evaluation is the browser's, and runs.
 */
async function axeViolations(steps) {
	axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
	if (!(await steps.evaluate(() => 'axe' in globalThis))) await steps.script(axeSource);
	return await steps.evaluate(
		(tags) =>
			globalThis.axe
				.run(globalThis.document, { runOnly: { type: 'tag', values: tags } })
				.then((result) =>
					result.violations.map((violation) => ({
						rule: violation.id,
						nodes: violation.nodes.map((node) => node.target.join(' ')),
					})),
				),
		AXE_TAGS,
	);
}

/** The driver-neutral tab over one back end's steps. */
function tabOf(steps) {
	// The page the press brought: the mark set on the page before it is gone, and it has loaded.
	const loaded = () =>
		steps
			.evaluate(
				() => !('engineMark' in globalThis) && globalThis.document.readyState === 'complete',
			)
			.then((done) => done === true)
			.catch(() => false);
	const settled = async () => {
		if (!(await until(loaded))) throw new Error('the page after the press did not load in 10 s');
	};
	return {
		open: async (url) => void (await steps.go(url)),
		fill: (selector, text) => steps.type(selector, text),
		click: (selector) => steps.click(selector),
		attach: (selector, paths) => steps.attach(selector, paths),
		/** Options of a <select> chosen by their values (the drivers differ most here). */
		select: (selector, values) =>
			steps.evaluate(
				({ selector: css, values: chosen }) => {
					for (const option of globalThis.document.querySelector(css).options)
						option.selected = chosen.includes(option.value);
				},
				{ selector, values },
			),
		/** Sets an attribute, as a page sent earlier or a crafted request would have it. */
		setAttribute: (selector, name, value) =>
			steps.evaluate(
				({ selector: css, name: attribute, value: to }) =>
					globalThis.document.querySelector(css).setAttribute(attribute, to),
				{ selector, name, value },
			),
		/** Clicks a submit button and waits for the page the answer brings. */
		async press(selector) {
			await steps.evaluate(() => (globalThis.engineMark = true));
			await steps.click(selector);
			await settled();
		},
		html: () => steps.evaluate(() => globalThis.document.documentElement.outerHTML),
		/** How many CSS pixels wider than a 320 px screen the page lays out (0: it reflows). */
		async overflow() {
			if (steps.layoutOverflow) return await steps.layoutOverflow(await this.html());
			return await steps.evaluate(() => {
				const root = globalThis.document.documentElement;
				return Math.max(0, root.scrollWidth - root.clientWidth);
			});
		},
		axe: () => axeViolations(steps),
		close: () => steps.close(),
	};
}

/**
 * The driver's HTTP face: POST / with `{ engine, tab, call, args }` runs one call on a tab
 * (`call: 'tab'` opens one with options `args[0]` and answers its id); `{ close: true }` ends all.
 */
function serve() {
	const engines = new Map();
	const tabs = new Map();
	let next = 0;
	const engineOf = async (name) => {
		if (!engines.has(name)) engines.set(name, BACK_ENDS[name]());
		return await engines.get(name);
	};
	const closeAll = async () => {
		for (const engine of engines.values()) await (await engine).close().catch(() => {});
	};
	const server = http.createServer(async (request, response) => {
		let body = '';
		for await (const chunk of request) body += chunk;
		const { engine, tab, call, args = [], close } = JSON.parse(body);
		let answer;
		try {
			if (close) {
				await closeAll();
				answer = { value: true };
			} else if (call === 'tab') {
				const id = `t${next++}`;
				tabs.set(id, tabOf(await (await engineOf(engine)).tab(args[0] ?? {})));
				answer = { value: id };
			} else {
				answer = { value: await tabs.get(tab)[call](...args) };
				if (call === 'close') tabs.delete(tab);
			}
		} catch (error) {
			answer = { error: error.message.split('\n').slice(0, 6).join('\n') };
		}
		response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
		if (close) server.close();
	});
	server.listen(0, '127.0.0.1', () => console.log(`engines on ${server.address().port}`));
	process.on('SIGTERM', () => closeAll().finally(() => process.exit(0)));
}

if (require.main === module) serve();

module.exports = { BACK_ENDS, BINARIES, tabOf };
