'use strict';
/*
 * axe-core's WCAG 2.1 A and AA rules on an answer page in Chromium (playwright-core), shared by the
 * full matrix (scripts/a11y.js, `npm run test:a11y`) and the end-to-end suites' small form. The
 * page's Content-Security-Policy forbids scripts, so a page to check is opened in a context made
 * with `bypassCSP: true`, where axe's source can be added as a script tag.
 */
const fs = require('node:fs');

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The screens a page is checked on: a small phone (WCAG's reflow width), a common phone, and a
 * 1280 × 720 window zoomed to 200 %, which Chromium lays out as 640 × 360 CSS pixels at twice the
 * device pixels (what the browser's own zoom does).
 */
const SCREENS = {
	320: { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true },
	390: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
	'zoom 200%': { viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 },
};

const SCHEMES = ['light', 'dark'];

let axeSource;

/**
 * A context where axe can run on a page under its Content-Security-Policy, on `screen` in
 * `scheme`; `options` are Playwright's (a user agent, a locale).
 */
async function checkingContext(browser, { screen = '320', scheme = 'light', ...options } = {}) {
	return await browser.newContext({
		...SCREENS[screen],
		colorScheme: scheme,
		bypassCSP: true,
		...options,
	});
}

/** What axe names short: the rule, and the elements that break it with axe's reason for each. */
function violationsOf(result) {
	return result.violations.map((violation) => ({
		rule: violation.id,
		nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
	}));
}

/**
 * axe's WCAG 2.1 A/AA rules on the page as it is shown now: the violations (none, for a page
 * that passes) and the checks axe could not decide (`incomplete`: rule, element, axe's reason).
 */
async function axeCheck(page) {
	axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
	if (!(await page.evaluate(() => 'axe' in globalThis)))
		await page.addScriptTag({ content: axeSource });
	const result = await page.evaluate(
		(tags) =>
			globalThis.axe.run(globalThis.document, {
				runOnly: { type: 'tag', values: tags },
				resultTypes: ['violations', 'incomplete'],
			}),
		AXE_TAGS,
	);
	const incomplete = result.incomplete.flatMap((item) =>
		item.nodes.map((node) => `${item.id}: ${node.target.join(' ')}: ${node.any[0]?.message ?? ''}`),
	);
	return { violations: violationsOf(result), incomplete };
}

/** How many CSS pixels the page is wider than its window: 0 when it reflows (WCAG 1.4.10). */
async function overflowWidth(page) {
	return await page.evaluate(() => {
		const root = globalThis.document.documentElement;
		return Math.max(0, root.scrollWidth - root.clientWidth);
	});
}

/**
 * The page as it is shown now, in the light and then the dark scheme: axe's violations and the
 * overflow in each (`{ light: { violations: [], overflow: 0 }, dark: … }` for a page that passes).
 * The page stays in the dark scheme.
 */
async function readableIn(page) {
	const found = {};
	for (const scheme of SCHEMES) {
		await page.emulateMedia({ colorScheme: scheme });
		const { violations } = await axeCheck(page);
		found[scheme] = { violations, overflow: await overflowWidth(page) };
	}
	return found;
}

/** What readableIn gives for a page that passes. */
const READABLE = Object.fromEntries(
	SCHEMES.map((scheme) => [scheme, { violations: [], overflow: 0 }]),
);

module.exports = {
	AXE_TAGS,
	SCREENS,
	SCHEMES,
	READABLE,
	checkingContext,
	axeCheck,
	overflowWidth,
	readableIn,
};
