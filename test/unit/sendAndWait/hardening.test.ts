import vm from 'node:vm';

import { readFormAnswer } from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import { readForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import {
	calendarDate,
	decimalNumber,
	isEmailAddress,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import type { FormField } from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import {
	sanitizeCss,
	sanitizeHtml,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/sanitize';
import { testEachReturns } from '../../helpers/table';

/*
 * Inputs crafted against each reader. The readers run in n8n's event loop on every page view or
 * answer: each must read its input in one pass. A pass that goes back over its input (a regular
 * expression that backtracks, a filter run again until nothing changes) takes minutes on these
 * inputs; one pass takes milliseconds. V8 stops the script at the (generous) limit, so that a
 * reader that is not linear fails here instead of holding the test run.
 */
const GENEROUS_MS = 20_000;
const inOnePass = <T>(read: () => T): T =>
	vm.runInNewContext('read()', { read }, { timeout: GENEROUS_MS }) as T;

function form(values: unknown[]): FormField[] {
	const read = readForm('json', JSON.stringify(values), undefined);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

/** A small pseudo-random generator, so that a failing case can be run again. */
function randomTexts(alphabet: string, count: number, seed = 7): string[] {
	let state = seed;
	const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648);
	return Array.from({ length: count }, () =>
		Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join(''),
	);
}

describe('Custom HTML is read in one pass', () => {
	test('a tag that never closes before the next one, over 500,000 letters', () => {
		const letters = 'a'.repeat(500_000);
		expect(inOnePass(() => sanitizeHtml(`<p>Hello <b${letters}</p>`))).toBe(
			`<p>Hello &lt;b${letters}</p>`,
		);
		expect(inOnePass(() => sanitizeHtml(`<a${letters}`))).toBe(`&lt;a${letters}`);
	});

	test('end tags of elements not open, 100,000 of them after 100,000 open ones', () => {
		const html = '<b>'.repeat(100_000) + '</i>'.repeat(100_000);
		expect(inOnePass(() => sanitizeHtml(html))).toBe(
			html.slice(0, 300_000) + '</b>'.repeat(100_000),
		);
	});

	test('whatever it is given, only allowed tags without attributes come out, each closed', () => {
		for (const html of randomTexts('<>/"\'=&!- abpiscrtd1', 3_000)) {
			const out = sanitizeHtml(html);
			const tags = [...out.matchAll(/<(\/?)([^>]*)>/g)];
			for (const [, , name] of tags) expect(name).toMatch(/^(b|p|i|s|td|tr|br)$/);
			expect(out.replace(/<\/?(b|p|i|s|td|tr|br)>/g, '')).not.toMatch(/[<>"]/);
			// Every element but a line break is closed.
			const opened = tags.filter(([, closing, name]) => !closing && name !== 'br').length;
			const breaks = tags.filter(([, , name]) => name === 'br').length;
			expect(tags.length).toBe(opened * 2 + breaks);
		}
	});
});

describe('custom CSS is read in one pass', () => {
	test('a forbidden token hidden in itself 200,000 times comes out in one pass', () => {
		const css = 'u'.repeat(200_000) + 'rl('.repeat(200_000) + 'x';
		expect(inOnePass(() => sanitizeCss(css))).toBe('x');
		const spaced = `url${' '.repeat(200_000)}${'('.repeat(200_000)}`;
		expect(inOnePass(() => sanitizeCss(spaced))).toBe('('.repeat(199_999));
	});

	test('whatever it is given, no forbidden token is left', () => {
		const forbidden =
			/<|\\|url\s*\(|image-set\s*\(|image\s*\(|@import|expression|behavior|-moz-binding|javascript:/i;
		for (const css of randomTexts('urlURL( <\\@importexpsn-mzbdgjav:', 5_000))
			expect(sanitizeCss(css)).not.toMatch(forbidden);
	});
});

describe('numbers and email addresses are read in one pass', () => {
	test('a million digits and then a letter is no number', () => {
		expect(inOnePass(() => decimalNumber(`${'1'.repeat(1_000_000)}x`))).toBeUndefined();
		expect(
			inOnePass(() => decimalNumber(`${'1'.repeat(1_000_000)}.${'1'.repeat(1_000_000)}e`)),
		).toBeUndefined();
	});

	test('a million Arabic-Indic digits, or thousands groups, and then a letter is no number', () => {
		expect(inOnePass(() => decimalNumber(`${'٣'.repeat(1_000_000)}x`))).toBeUndefined();
		expect(inOnePass(() => decimalNumber(`١${'٬٢٣٤'.repeat(250_000)}٬x`))).toBeUndefined();
		expect(inOnePass(() => decimalNumber(`١${'٬٢٣٤'.repeat(250_000)}٢`))).toBeUndefined();
	});

	test('300 email fields at the length cap, each an address that almost is one', () => {
		const fields = form(
			Array.from({ length: 300 }, (_, index) => ({ fieldLabel: `e${index}`, fieldType: 'email' })),
		);
		const almost = `a@${'.'.repeat(9_990)}@`;
		const data = Object.fromEntries(fields.map((_, index) => [`field-${index}`, almost]));
		const answer = inOnePass(() => readFormAnswer(fields, { data, files: {} }));
		expect(!answer.ok && answer.errors.every((error) => error.startsWith('Enter an email'))).toBe(
			true,
		);
	});

	test('the scanners agree with the patterns they replace', () => {
		const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
		const decimal = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
		for (const text of randomTexts('a@. \t1', 5_000))
			expect(isEmailAddress(text)).toBe(email.test(text));
		for (const text of randomTexts('12.eE+-x ', 5_000)) {
			const number = Number(text.trim());
			const expected = decimal.test(text.trim()) && Number.isFinite(number) ? number : undefined;
			expect(decimalNumber(text)).toBe(expected);
		}
	});
});

describe('values a form could not take before', () => {
	test.each(['--proto--', 'hasOwnProperty', 'toString'])(
		'a file field whose files would be kept under the binary name of %s is refused',
		(fieldLabel) => {
			const read = readForm('json', JSON.stringify([{ fieldLabel, fieldType: 'file' }]), undefined);
			expect(read.ok).toBe(false);
			expect(!read.ok && read.reason).toMatch(
				/: its files' binary property \((__proto__|hasOwnProperty|toString)\) cannot be named so/,
			);
		},
	);

	test('an option with a line break can be chosen: the browser sends CRLF', () => {
		const fields = form([
			{
				fieldLabel: 'Pick',
				fieldType: 'radio',
				fieldOptions: { values: [{ option: 'Line one\nline two' }] },
			},
			{
				fieldLabel: 'Boxes',
				fieldType: 'checkbox',
				fieldOptions: { values: [{ option: 'a\r\nb' }, { option: 'c' }] },
			},
		]);
		const answer = readFormAnswer(fields, {
			data: { 'field-0': 'Line one\r\nline two', 'field-1': ['a\r\nb'] },
		});
		expect(answer).toEqual({
			ok: true,
			json: { Pick: 'Line one\nline two', Boxes: ['a\r\nb'] },
			uploads: [],
		});
	});

	testEachReturns('the year of %s is kept as written: %s', calendarDate, [
		['0000-02-29', '0000-02-29'],
		['0004-02-29', '0004-02-29'],
		['0099-12-31', '0099-12-31'],
		['0001-02-29', undefined],
		['0100-02-29', undefined],
	]);
});
