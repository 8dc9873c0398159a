'use strict';
/*
 * Browser test: the answer page in a right-to-left language, in Chromium on a phone 412 pixels
 * wide, measured where each character lands (a Range per character). An Arabic and an Urdu form,
 * refused with what to fix, show a builder's English question, file types, sizes and an example
 * address: every Latin run reads left to right where it stands. The refused number shows again as
 * typed, and the number field takes Arabic-Indic, Urdu and Devanagari digits.
 *
 * The Urdu page is drawn in Noto Nastaliq Urdu behind a Latin font, as on a phone whose Urdu falls
 * back to Nastaliq: the ink of each line of a paragraph (the line drawn alone, compared pixel by
 * pixel with none drawn) stays clear of the next line's ink. The pages come from dist, as the
 * webhook draws them, with the page's own headers; no n8n is started.
 */
const path = require('node:path');

const { ensureChromium, ensureFonts } = require('../../scripts/lib/chromium');

const DIST = path.join(__dirname, '..', '..', 'dist', 'nodes', 'OmnichannelMessaging');
const { readAnswerConfig } = require(path.join(DIST, 'sendAndWait', 'webhook.js'));
const { readAnswer } = require(path.join(DIST, 'sendAndWait', 'answer.js'));
const { PAGE_HEADERS, renderPage, FORM_END } = require(path.join(DIST, 'sendAndWait', 'page.js'));

const PAGE_URL = 'https://n8n.example/webhook-waiting/1';
const QUESTION = 'Did the parcel arrive?';
// A Latin font first, Nastaliq behind it: Urdu is drawn by the fallback, as on an iPhone.
const NASTALIQ_FALLBACK = 'body { font-family: "Noto Sans", "Noto Nastaliq Urdu", sans-serif; }';

/** The builder's labels, in the page's language. */
const LABELS = {
	ar: ['الإيصال', 'الصور', 'البريد الإلكتروني', 'الكمية'],
	ur: ['رسید', 'تصاویر', 'ای میل', 'تعداد'],
};

/** A form refused: a file of a type not accepted, an address without a domain, a word for a number. */
function refusedForm(language, css = '') {
	const [receipt, photos, email, quantity] = LABELS[language];
	const fields = [
		{ fieldLabel: receipt, fieldType: 'file', acceptFileTypes: '.pdf, .jpg, .png' },
		{ fieldLabel: photos, fieldType: 'file', acceptFileTypes: 'image/*', multipleFiles: true },
		{ fieldLabel: email, fieldType: 'email', requiredField: true },
		{ fieldLabel: quantity, fieldType: 'number' },
	];
	const parameters = {
		responseType: 'customForm',
		defineForm: 'json',
		jsonOutput: JSON.stringify(fields),
		'options.pageLanguage': language,
		'options.responseFormCustomCss': css,
	};
	const config = readAnswerConfig((name, fallback) => parameters[name] ?? fallback);
	if (!config.ok) throw new Error(config.reason);
	const exe = { filepath: '/nonexistent', originalFilename: 'a.exe', mimetype: 'x/y', size: 3 };
	const body = {
		data: { 'field-2': 'anna', 'field-3': 'abc', [FORM_END]: '1' },
		files: { 'field-0': exe },
	};
	const request = { method: 'POST', query: {}, body, multipart: true };
	const { view } = readAnswer(request, config.value, new Date(0), QUESTION);
	return renderPage(view, config.value.page);
}

/** Opens `html` as the answer page, with the headers n8n sends it with. */
async function openPage(browser, html) {
	const page = await browser.newPage({ viewport: { width: 412, height: 900 } });
	await page.route(PAGE_URL, (route) =>
		route.fulfill({ status: 400, headers: { ...PAGE_HEADERS }, body: html }),
	);
	await page.goto(PAGE_URL);
	return page;
}

/**
 * Each Latin run of the page's text (`.pdf`, `image/*`, `16`, `MB`, `name@example.com`) on one
 * line, as written and as shown: its characters in the order they land on screen, left to right.
 */
function latinRuns(page) {
	return page.evaluate(() => {
		const { document } = globalThis;
		const runs = [];
		const walker = document.createTreeWalker(document.querySelector('main'), 4);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			for (const match of node.data.matchAll(/\.?[A-Za-z0-9][\w@./*-]*[A-Za-z0-9*]|\d/g)) {
				const characters = [...match[0]].map((character, offset) => {
					const range = document.createRange();
					range.setStart(node, match.index + offset);
					range.setEnd(node, match.index + offset + 1);
					const { left, right, top } = range.getBoundingClientRect();
					return { character, x: (left + right) / 2, top: Math.round(top) };
				});
				if (new Set(characters.map(({ top }) => top)).size > 1) continue;
				const shown = [...characters].sort((a, b) => a.x - b.x);
				runs.push({
					written: match[0],
					shown: shown.map(({ character }) => character).join(''),
					x: characters.map(({ x }) => Math.round(x)),
				});
			}
		}
		return runs;
	});
}

/** An element's text as shown: its characters sorted by where they land, left to right. */
function shownText(page, selector) {
	return page.evaluate((selector) => {
		const { document } = globalThis;
		const node = document.querySelector(selector).firstChild;
		return [...node.data]
			.map((character, offset) => {
				const range = document.createRange();
				range.setStart(node, offset);
				range.setEnd(node, offset + 1);
				const { left, right } = range.getBoundingClientRect();
				return { character, x: (left + right) / 2 };
			})
			.sort((a, b) => a.x - b.x)
			.map(({ character }) => character)
			.join('');
	}, selector);
}

/**
 * Wraps each line of the paragraph `selector` (one text node) in a `span[data-line]`, as the
 * characters' Ranges place them; checks the lines are the same after. Resolves with their count.
 */
function wrapLines(page, selector) {
	return page.evaluate((selector) => {
		const { document } = globalThis;
		const paragraph = document.querySelector(selector);
		const tops = () =>
			[...paragraph.querySelectorAll('span[data-line]')].map((span) =>
				Math.round(span.getBoundingClientRect().top),
			);
		const text = paragraph.firstChild;
		const starts = [];
		let lastTop;
		for (let offset = 0; offset < text.data.length; offset++) {
			const range = document.createRange();
			range.setStart(text, offset);
			range.setEnd(text, offset + 1);
			const rect = range.getBoundingClientRect();
			if (rect.height === 0) continue;
			if (lastTop === undefined || rect.top > lastTop + 1) starts.push(offset);
			lastTop = rect.top;
		}
		const data = text.data;
		paragraph.textContent = '';
		starts.forEach((start, line) => {
			const span = document.createElement('span');
			span.dataset.line = String(line);
			span.textContent = data.slice(start, starts[line + 1] ?? data.length);
			paragraph.append(span);
		});
		const spread = tops();
		if (new Set(spread).size !== starts.length)
			throw new Error(`the lines of ${selector} moved when wrapped: ${spread}`);
		return starts.length;
	}, selector);
}

/**
 * Draws line `line` of the paragraph alone (none for -1, every line when undefined): the others
 * stay in place, transparent.
 */
function drawOnly(page, selector, line) {
	return page.evaluate(
		([selector, line]) => {
			for (const span of globalThis.document.querySelectorAll(`${selector} span[data-line]`))
				span.style.color = line === null || span.dataset.line === String(line) ? '' : 'transparent';
		},
		[selector, line ?? null],
	);
}

/**
 * The ink each line of a paragraph draws, column by column: a screenshot with the line alone,
 * compared pixel by pixel with one with no line drawn, over the paragraph and 60 pixels around it.
 * Ink is measured, not the line boxes (which are the Latin font's). Rows are the page's pixels.
 */
async function inkOfLines(page, decoder, selector, lines) {
	const box = await page.locator(selector).boundingBox();
	const y = Math.max(0, Math.floor(box.y) - 60);
	const clip = { x: 0, y, width: 412, height: Math.ceil(box.height) + 120 };
	const shot = async () => (await page.screenshot({ clip })).toString('base64');
	await drawOnly(page, selector, -1);
	const blank = await shot();
	const ink = [];
	for (let line = 0; line < lines; line++) {
		await drawOnly(page, selector, line);
		const columns = await decoder.evaluate(inkBetween, [blank, await shot()]);
		ink.push(columns.map((column) => column && column.map((row) => row + y)));
	}
	await drawOnly(page, selector);
	return ink;
}

/** Runs in a blank page: for each column, the first and last row where two PNGs (base64) differ. */
async function inkBetween([before, after]) {
	const pixels = async (base64) => {
		const image = new globalThis.Image();
		image.src = `data:image/png;base64,${base64}`;
		await image.decode();
		const canvas = globalThis.document.createElement('canvas');
		[canvas.width, canvas.height] = [image.width, image.height];
		const context = canvas.getContext('2d');
		context.drawImage(image, 0, 0);
		return context.getImageData(0, 0, image.width, image.height);
	};
	const [a, b] = [await pixels(before), await pixels(after)];
	const columns = Array.from({ length: a.width }, () => null);
	for (let index = 0; index < a.data.length; index += 4) {
		const differs = [0, 1, 2].some(
			(channel) => Math.abs(a.data[index + channel] - b.data[index + channel]) > 24,
		);
		if (!differs) continue;
		const [x, row] = [(index / 4) % a.width, Math.floor(index / 4 / a.width)];
		columns[x] = columns[x] ? [Math.min(columns[x][0], row), row] : [row, row];
	}
	return columns;
}

/**
 * How far apart two lines' ink is at its closest, in pixels: the rows between a column's lowest
 * ink of the line above and the highest ink of the line below, in that column or the next one.
 * 0 or less: the glyphs touch or cross.
 */
function closestInk(above, below) {
	let closest = Infinity;
	above.forEach((column, x) => {
		for (const near of [below[x - 1], below[x], below[x + 1]])
			if (column && near) closest = Math.min(closest, near[0] - column[1] - 1);
	});
	return closest;
}

/** The rows a line's ink spans, top to bottom. */
const inkSpan = (columns) => {
	const inked = columns.filter(Boolean);
	return [Math.min(...inked.map(([top]) => top)), Math.max(...inked.map(([, bottom]) => bottom))];
};

/** The font families Chromium drew an element's text with (DevTools' platform fonts). */
async function fontsOf(page, selector) {
	const session = await page.context().newCDPSession(page);
	await session.send('DOM.enable');
	await session.send('CSS.enable');
	const { root } = await session.send('DOM.getDocument');
	const { nodeId } = await session.send('DOM.querySelector', { nodeId: root.nodeId, selector });
	const { fonts } = await session.send('CSS.getPlatformFontsForNode', { nodeId });
	await session.detach();
	return fonts.map((font) => font.familyName);
}

describe('the answer page in a right-to-left language, in Chromium', () => {
	let browser;

	beforeAll(async () => {
		const log = (line) => process.stderr.write(`${line}\n`);
		const executablePath = ensureChromium({ log });
		ensureFonts({ log });
		const { chromium } = require('playwright-core');
		browser = await chromium.launch({
			executablePath,
			headless: true,
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
		});
	});

	afterAll(async () => {
		await browser?.close();
	});

	test.each(['ar', 'ur'])(
		'%s: every Latin run reads left to right where it stands; the English question reads as written',
		async (language) => {
			const page = await openPage(browser, refusedForm(language));
			try {
				expect(await page.getAttribute('html', 'dir')).toBe('rtl');
				const runs = await latinRuns(page);
				const written = runs.map((run) => run.written);
				// The runs the page must show: each file type, the size, the example address.
				for (const expected of ['.pdf', '.jpg', '.png', 'image/*', '16'])
					expect(written).toContain(expected);
				expect(written.some((run) => run.includes('@'))).toBe(true);
				expect(runs.filter((run) => run.shown !== run.written)).toEqual([]);
				expect(await shownText(page, 'main > p[dir="auto"]')).toBe(QUESTION);
			} finally {
				await page.close();
			}
		},
	);

	test("ar: the refused number shows again as typed; the field takes each script's digits", async () => {
		const page = await openPage(browser, refusedForm('ar'));
		try {
			const quantity = page.locator('#field-3');
			await expect(quantity.inputValue()).resolves.toBe('abc');
			const typed = {};
			for (const value of ['٣٫٥', '۱۲', '१२', '١٬٢٥٠', '-3.5', 'abc']) {
				await quantity.fill(value);
				typed[value] = await quantity.evaluate((input) => [input.value, input.validity.valid]);
			}
			expect(typed).toEqual({
				'٣٫٥': ['٣٫٥', true],
				'۱۲': ['۱۲', true],
				'१२': ['१२', true],
				'١٬٢٥٠': ['١٬٢٥٠', true],
				'-3.5': ['-3.5', true],
				abc: ['abc', false],
			});
		} finally {
			await page.close();
		}
	});

	test('ur in Nastaliq: no line of a paragraph draws into the next', async () => {
		const page = await openPage(browser, refusedForm('ur', NASTALIQ_FALLBACK));
		const decoder = await browser.newPage();
		try {
			expect(await fontsOf(page, 'p.alert')).toContain('Noto Nastaliq Urdu');
			// Every paragraph of the page (the alert, the hints, the messages) that takes more than a line.
			const paragraphs = await page.evaluate(() =>
				[...globalThis.document.querySelectorAll('main p')].map((paragraph, index) => {
					paragraph.dataset.measured = String(index);
					return `p[data-measured="${index}"]`;
				}),
			);
			const measured = [];
			for (const selector of paragraphs) {
				const lines = await wrapLines(page, selector);
				if (lines < 2) continue;
				const ink = await inkOfLines(page, decoder, selector, lines);
				for (let line = 1; line < lines; line++)
					measured.push({
						selector,
						lines: [inkSpan(ink[line - 1]), inkSpan(ink[line])],
						closest: closestInk(ink[line - 1], ink[line]),
					});
			}
			expect(new Set(measured.map(({ selector }) => selector)).size).toBeGreaterThanOrEqual(3);
			expect(measured.filter(({ closest }) => closest < 1)).toEqual([]);
		} finally {
			await decoder.close();
			await page.close();
		}
	});
});
