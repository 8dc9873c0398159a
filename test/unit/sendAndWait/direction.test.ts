/*
 * The answer page in a right-to-left language: what it says of each text's direction, and the
 * number field that takes every script's digits. Where the characters land in a browser is
 * measured in Chromium (test/e2e/browserPageDirection.e2e.js).
 */
import { readForm } from '../../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import {
	NUMBER_PATTERN,
	decimalNumber,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import type { FormField } from '../../../nodes/OmnichannelMessaging/sendAndWait/formFields';
import { renderForm, renderPage } from '../../../nodes/OmnichannelMessaging/sendAndWait/page';
import { LANGUAGES, directionOf, say } from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';
import type { TextKey } from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';

const byTag = (tag: string) => LANGUAGES.find((language) => language.tag === tag)!;
const [ARABIC, URDU] = [byTag('ar'), byTag('ur')];
const ISOLATES = /[\u2066-\u2069]/;

function form(values: unknown[]): FormField[] {
	const read = readForm('json', JSON.stringify(values), undefined);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

describe('a text filled into a sentence', () => {
	test('in Arabic and Urdu, a label, file types or a size keep their own direction (FSI…PDI)', () => {
		for (const language of [ARABIC, URDU]) {
			expect(say(language, 'recordedChoice', { label: '✓ Approve' })).toContain(
				'\u2068✓ Approve\u2069',
			);
			expect(say(language, 'hintTypes', { types: 'image/*' })).toContain('\u2068image/*\u2069');
			expect(say(language, 'fileTooLarge', { size: '16 MB' })).toContain('\u206816 MB\u2069');
		}
	});

	test('a number, formatted for the language, and a left-to-right sentence stay as they were', () => {
		expect(say(ARABIC, 'chooseUpToFiles', { count: 10 })).not.toMatch(ISOLATES);
		for (const language of LANGUAGES.filter((one) => directionOf(one) === 'ltr'))
			expect(say(language, 'recordedChoice', { label: 'نعم' })).not.toMatch(ISOLATES);
	});
});

/** The page's own words that stand where the builder's may (a title, a button, a refusal). */
const OWN_WORDS: TextKey[] = [
	'title',
	'recordedTitle',
	'refusedTitle',
	'closePage',
	'submit',
	'send',
	'approve',
	'decline',
	'choose',
	'freeTextLabel',
	'cannotAnswer',
	'linkInvalid',
	'linkExpired',
	'linkUnusable',
];

describe("the builder's words take their own direction (dir=auto)", () => {
	const page = renderPage(
		{
			kind: 'form',
			question: 'Did the parcel arrive?',
			fields: form([
				{
					fieldLabel: 'Colour',
					fieldType: 'dropdown',
					fieldOptions: { values: [{ option: 'Red' }] },
				},
				{ fieldLabel: 'Size', fieldType: 'radio', fieldOptions: { values: [{ option: 'S' }] } },
				{ fieldLabel: 'Receipt', fieldType: 'file', acceptFileTypes: '.pdf' },
			]),
		},
		{ language: ARABIC, title: 'Return', buttonLabel: 'Send', css: '' },
	);

	test.each([
		['the title', '<h1 dir="auto">Return</h1>'],
		['the question', '<p dir="auto">Did the parcel arrive?</p>'],
		['a label', '<label for="field-0" dir="auto">Colour</label>'],
		['an option', '<option value="Red" dir="auto">Red</option>'],
		["a group's legend", '<legend class="" dir="auto">Size</legend>'],
		["an option's label", '<label for="field-1-0" dir="auto">S</label>'],
		['the button', '<button type="submit" class="primary" dir="auto">Send</button>'],
	])('%s', (_, drawn) => {
		expect(page).toContain(drawn);
	});

	test("the page's own sentences keep the page's direction: a filled-in value would set it", () => {
		// The list isolated as a whole, each code in it left to right.
		expect(page).toMatch(/<p class="hint" id="field-2-hint">[^<]*\u2068\u2066\.pdf\u2069\u2069/);
		const recorded = renderPage(
			{ kind: 'recorded', recorded: say(ARABIC, 'recordedChoice', { label: 'Yes' }) },
			{ language: ARABIC, buttonLabel: 'Send', css: '' },
		);
		expect(recorded).toMatch(/<p>[^<]*\u2068Yes\u2069<\/p>/);
	});

	test('what was recorded: each label and value isolated, lined up as the page is', () => {
		const recorded = renderPage(
			{ kind: 'recorded', recorded: 'تم', answers: [['Amount', '3.5']] },
			{ language: ARABIC, buttonLabel: 'Send', css: '' },
		);
		expect(recorded).toContain('<dl><dt><bdi>Amount</bdi></dt><dd><bdi>3.5</bdi></dd></dl>');
	});

	// dir=auto takes the first letter's direction: the page's words where the builder's may stand
	// must start with a letter of their language's direction, or an Arabic title would turn LTR.
	test.each(LANGUAGES.map((language) => [language.tag, language] as const))(
		"%s: the page's own words there start in the page's direction",
		(_, language) => {
			const direction = directionOf(language);
			for (const key of OWN_WORDS) {
				const first = /\p{L}/u.exec(say(language, key))?.[0] ?? '';
				expect([key, /\p{Script=Arabic}/u.test(first) ? 'rtl' : 'ltr']).toEqual([key, direction]);
			}
		},
	);
});

describe('the number field takes every script’s digits; the server decides', () => {
	const html = renderForm(form([{ fieldLabel: 'Amount', fieldType: 'number' }]), 'Go', [
		{ entered: '٣٫٥٫٥ <b>', error: 'Enter a number.' },
	]);

	test('a text input a phone shows its number keys for, with what was typed shown again, escaped', () => {
		const input = /<input [^>]*>/.exec(html)?.[0];
		expect(input).toMatch(/^<input type="text" id="field-0" name="field-0" /);
		expect(input).toMatch(/ value="٣٫٥٫٥ &lt;b&gt;" inputmode="decimal" pattern="[^"]+">$/);
	});

	// A browser reads `pattern` as a whole-value regular expression with the `v` flag.
	const pattern = new RegExp(`^(?:${NUMBER_PATTERN})$`, 'v');

	test('its pattern lets through every number the server reads, and no letters', () => {
		const alphabet = '0123456789٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९.٫٬eE+-−\u061c x';
		let state = 11;
		const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648);
		let numbers = 0;
		for (let run = 0; run < 5_000; run++) {
			const text = Array.from(
				{ length: 1 + (next() % 8) },
				() => alphabet[next() % alphabet.length],
			).join('');
			if (decimalNumber(text) === undefined) continue;
			numbers++;
			expect([text, pattern.test(text)]).toEqual([text, true]);
		}
		expect(numbers).toBeGreaterThan(200);
		for (const text of ['abc', '12x', '٣ kg', '0x10'])
			expect([text, pattern.test(text)]).toEqual([text, false]);
	});
});
