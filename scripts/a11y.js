'use strict';
/*
 * `npm run test:a11y`: every answer page type, as the built package draws it, through axe-core's
 * WCAG 2.1 A and AA rules in Chromium: in English and in Arabic (right to left), at 320 and 390
 * pixels wide and at 200 % zoom, in the light and the dark colour scheme, and each form page also
 * with a builder's Custom Styling. Each page is also checked to reflow (no sideways scrolling) and
 * to show where the keyboard is (an outline on every element Tab reaches).
 *
 * The pages come from dist (readAnswerConfig, readAnswer and renderPage, as the webhook calls
 * them) and are served by a local server on 127.0.0.1 with the page's own headers: the bytes n8n
 * sends. `--screenshots DIR` keeps a full-page PNG of each page and condition. Exit 1 on any
 * violation.
 */
const fs = require('node:fs');
const path = require('node:path');

const { ensureChromium } = require('./lib/chromium');
const { SCREENS, SCHEMES, checkingContext, axeCheck, overflowWidth } = require('./lib/axe');
const { LocalServer } = require('../test/helpers/localServer');
const { EVERY_TYPE_WORDS, everyTypeFields } = require('../test/helpers/everyTypeForm');

const DIST = path.join(__dirname, '..', 'dist', 'nodes', 'OmnichannelMessaging', 'sendAndWait');
const { readAnswerConfig } = require(path.join(DIST, 'webhook.js'));
const { readAnswer } = require(path.join(DIST, 'answer.js'));
const { PAGE_HEADERS, renderPage, FORM_END } = require(path.join(DIST, 'page.js'));
const { say } = require(path.join(DIST, 'texts.js'));

/** A builder's Custom Styling as the field's placeholder suggests it: brand colours and a font. */
const BUILDER_CSS =
	'h1 { color: #0a7d32; } button.primary { background: #0a7d32; } ' +
	'body { font-family: Georgia, serif; } main { border-radius: 4px; }';

/** The builder's words on the buttons pages, per language (the form's: EVERY_TYPE_WORDS). */
const WORDS = {
	en: {
		approval: ['Refund 42 EUR for order 1042?', '✓ Approve', '✗ Decline'],
		choice: ['When can the technician come?', 'Monday 9:00', 'Tuesday 14:00', 'Friday 8:00'],
		freeText: 'What should we tell the customer?',
	},
	ar: {
		approval: ['هل نعيد 42 يورو عن الطلب 1042؟', '✓ موافقة', '✗ رفض'],
		choice: ['متى يمكن أن يأتي الفني؟', 'الاثنين 9:00', 'الثلاثاء 14:00', 'الجمعة 8:00'],
		freeText: 'ماذا نقول للعميل؟',
	},
};

/** The node's parameters for each response type, as readAnswerConfig reads them by name. */
function parametersOf(language, css) {
	const words = WORDS[language];
	const form = EVERY_TYPE_WORDS[language];
	const [, approve, decline] = words.approval;
	const [, ...choices] = words.choice;
	const styled = { 'options.pageLanguage': language, 'options.responseFormCustomCss': css };
	return {
		approval: {
			responseType: 'approval',
			'options.pageLanguage': language,
			'approvalOptions.values.approvalType': 'double',
			'approvalOptions.values.approveLabel': approve,
			'approvalOptions.values.disapproveLabel': decline,
		},
		choice: {
			responseType: 'choice',
			'options.pageLanguage': language,
			'choiceOptions.values': choices.map((label) => ({ label })),
		},
		freeText: { responseType: 'freeText', ...styled },
		form: {
			responseType: 'customForm',
			// As JSON: a dropdown of several choices is JSON's only, as on n8n's Form node.
			defineForm: 'json',
			jsonOutput: JSON.stringify(everyTypeFields(form)),
			'options.responseFormTitle': form.title,
			'options.responseFormButtonLabel': form.button,
			...styled,
		},
	};
}

/** The configuration of a response type, as the webhook reads it. */
function configOf(parameters) {
	const config = readAnswerConfig((name, fallback) => parameters[name] ?? fallback);
	if (!config.ok) throw new Error(`the matrix's parameters do not build: ${config.reason}`);
	return config.value;
}

const get = { method: 'GET', query: {}, body: {}, multipart: false };
const post = (body, query = {}) => ({ method: 'POST', query, body, multipart: true });
const file = (name, type) => ({
	filepath: '/nonexistent',
	originalFilename: name,
	mimetype: type,
	size: 9,
});

/** A form's answer as n8n's multipart parser hands it over: `data` by field, a file, the end mark. */
function formAnswer(words, { valid }) {
	const [, red] = words.colour;
	const [, wrap, card, express] = words.extras;
	const [, standard] = words.delivery;
	const data = {
		'field-0': valid ? 'Anna K' : '',
		'field-1': 'Ring twice',
		'field-2': 'secret',
		'field-3': valid ? '3' : 'three',
		'field-4': valid ? 'anna@example.com' : 'anna.example.com',
		'field-5': '2026-12-24',
		'field-6': red,
		'field-8': valid ? [wrap, card] : [wrap, card, express],
		'field-9': standard,
		[FORM_END]: '1',
	};
	const receipt = valid ? file('receipt.pdf', 'application/pdf') : file('receipt.exe', 'x/y');
	return post({ data, files: { 'field-12': receipt } });
}

/** Each page type: its name, and the request that shows it with the config it answers. */
function viewsOf(language, css) {
	const parameters = parametersOf(language, css);
	const words = EVERY_TYPE_WORDS[language];
	const question = (text) => (outcome) => ({
		...outcome,
		view: { ...outcome.view, question: text },
	});
	const asked = [
		['approval', 'approval', get, question(WORDS[language].approval[0])],
		['approval recorded', 'approval', post({}, { approved: 'true' })],
		['choice', 'choice', get, question(WORDS[language].choice[0])],
		['choice, not a button', 'choice', post({ choice: '9' }), question(WORDS[language].choice[0])],
		['free text', 'freeText', get, question(WORDS[language].freeText)],
		['form', 'form', get, question(words.question)],
		[
			'form refused, its marks',
			'form',
			formAnswer(words, { valid: false }),
			question(words.question),
		],
		['form recorded', 'form', formAnswer(words, { valid: true })],
	];
	const views = asked.map(([name, type, request, withQuestion = (outcome) => outcome]) => {
		const config = configOf(parameters[type]);
		const outcome = withQuestion(readAnswer(request, config, new Date(0)));
		return {
			name,
			styled: config.kind === 'form',
			status: outcome.status,
			html: renderPage(outcome.view, config.page),
		};
	});
	// The trigger's page for a link that cannot be read, in the trigger's Page Language.
	const { page } = configOf(parameters.approval);
	const refused = { kind: 'refused', reason: say(page.language, 'linkInvalid') };
	return [
		...views,
		{ name: 'link refused', styled: false, status: 400, html: renderPage(refused, page) },
	];
}

/** The page's language and direction, as the page says them: a matrix that checks what it means to. */
function expectLanguage(html, language) {
	const expected = `<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">`;
	if (!html.includes(expected)) throw new Error(`a page of the matrix is not ${expected}`);
	return html;
}

/** Every page of the matrix: type × language × (for forms) with and without the builder's CSS. */
function allPages() {
	const pages = [];
	for (const language of Object.keys(WORDS))
		for (const css of ['', BUILDER_CSS])
			for (const view of viewsOf(language, css)) {
				if (css && !view.styled) continue;
				const styling = css ? 'builder CSS' : 'no CSS';
				pages.push({ ...view, language, styling, html: expectLanguage(view.html, language) });
			}
	return pages;
}

/** Serves page `i` at `/i` with the page's own headers and status. */
class PageServer extends LocalServer {
	constructor(pages) {
		super();
		this.pages = pages;
	}

	handle(request, response) {
		const page = this.pages[Number(request.url.slice(1))];
		if (!page) return response.writeHead(404).end();
		response.writeHead(page.status, { ...PAGE_HEADERS }).end(page.html);
	}
}

/** The elements Tab reaches (at most 40) that show no outline when focused. */
async function focusWithoutOutline(page) {
	const missing = [];
	for (let step = 0; step < 40; step++) {
		await page.keyboard.press('Tab');
		const focused = await page.evaluate(() => {
			const element = globalThis.document.activeElement;
			if (!element || element === globalThis.document.body) return undefined;
			const style = globalThis.getComputedStyle(element);
			const shown = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
			return { id: element.id || element.tagName.toLowerCase(), shown };
		});
		if (!focused) break;
		if (!focused.shown) missing.push(focused.id);
	}
	return missing;
}

/**
 * One page under one condition: axe's violations and undecided rules, the overflow, and (with
 * `keys`, once per language and scheme: the outline is the same on every screen) the elements
 * the keyboard reaches without an outline.
 */
async function checkOne(context, url, { shot, keys }) {
	const page = await context.newPage();
	try {
		await page.goto(url);
		const { violations, incomplete } = await axeCheck(page);
		const overflow = await overflowWidth(page);
		if (shot) await page.screenshot({ path: shot, fullPage: true });
		const noOutline = keys ? await focusWithoutOutline(page) : [];
		return { violations, incomplete, overflow, noOutline };
	} finally {
		await page.close();
	}
}

/** Every page under every condition, in one browser; what failed, and axe's undecided rules. */
async function checkAll(browser, server, pages, shots) {
	const failures = [];
	const undecided = new Map();
	for (const screen of Object.keys(SCREENS))
		for (const scheme of SCHEMES) {
			const context = await checkingContext(browser, { screen, scheme });
			for (const [index, page] of pages.entries()) {
				const condition = `${page.name} | ${page.language} | ${page.styling} | ${screen} | ${scheme}`;
				const file = `${screen}-${scheme}-${page.language}-${page.styling}-${page.name}`;
				const shot = shots && path.join(shots, `${file.replace(/\W+/g, '-')}.png`);
				const keys = screen === '390';
				const result = await checkOne(context, `${server.url}/${index}`, { shot, keys });
				for (const rule of result.incomplete) undecided.set(rule, (undecided.get(rule) ?? 0) + 1);
				if (result.violations.length || result.overflow || result.noOutline.length)
					failures.push({ condition, ...result });
			}
			await context.close();
		}
	return {
		checks: pages.length * Object.keys(SCREENS).length * SCHEMES.length,
		failures,
		undecided,
	};
}

async function main() {
	const shotsAt = process.argv.indexOf('--screenshots');
	const shots = shotsAt > 0 ? path.resolve(process.argv[shotsAt + 1]) : undefined;
	if (shots) fs.mkdirSync(shots, { recursive: true });
	const pages = allPages();
	const server = new PageServer(pages);
	await server.start();
	const { chromium } = require('playwright-core');
	const browser = await chromium.launch({
		executablePath: ensureChromium(),
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
	try {
		const outcome = await checkAll(browser, server, pages, shots);
		report(pages, outcome);
		process.exitCode = outcome.failures.length === 0 ? 0 : 1;
	} finally {
		await browser.close();
		await server.close();
	}
}

function report(pages, { checks, failures, undecided }) {
	for (const failure of failures) {
		console.log(`FAIL ${failure.condition}`);
		for (const violation of failure.violations)
			console.log(`  axe ${violation.rule}:\n    ${violation.nodes.join('\n    ')}`);
		if (failure.overflow) console.log(`  wider than the window by ${failure.overflow} px`);
		if (failure.noOutline.length) console.log(`  focus without an outline: ${failure.noOutline}`);
	}
	const types = new Set(pages.map((page) => page.name)).size;
	const conditions = `${Object.keys(SCREENS).join(', ')} × ${SCHEMES.join('/')}`;
	console.log(
		`${pages.length} pages (${types} types × en/ar, forms also with a builder's CSS) × ` +
			`${conditions}: ${checks} checks of axe's WCAG 2.1 A/AA rules and reflow, focus outlines ` +
			`at 390 px`,
	);
	// Not violations: each is an element whose contrast or name axe could not compute, to look at.
	for (const [what, count] of undecided) console.log(`axe could not decide (${count}×), ${what}`);
	console.log(`${checks - failures.length} passed, ${failures.length} failed`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
