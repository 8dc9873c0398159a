/*
 * The page's texts: every language has every key, each counting text one form per plural
 * category its language has (Intl.PluralRules), every key is said by the code, and no English
 * text shows in another language; and a language is read from whatever a CRM or a browser says.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import {
	BROWSER,
	BROWSER_LINK_CODE,
	ENGLISH,
	LANGUAGES,
	directionOf,
	fromAcceptLanguage,
	languageSetting,
	linkCodeOf,
	megabytes,
	listOf,
	pageLanguageFor,
	say,
	settingOfLinkCode,
	textsOf,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';
import type {
	Language,
	TextKey,
	Texts,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';

const NODE_DIR = path.resolve(__dirname, '../../../nodes/OmnichannelMessaging');
const byTag = (tag: string) => LANGUAGES.find((language) => language.tag === tag)!;
const forms = (text: Texts[TextKey]) => (typeof text === 'string' ? [text] : Object.values(text));
const others = LANGUAGES.filter((language) => language !== ENGLISH);

/**
 * Words English shares with a language, which its texts may hold: the same word in both (a
 * Dutch "link", a French "page"), a code the customer types (YYYY-MM-DD) or an example address.
 */
const SAME_WORDS: Record<string, string[]> = {
	ar: ['name@example.com', 'YYYY-MM-DD'],
	hi: ['name@example.com', 'YYYY-MM-DD'],
	ur: ['name@example.com', 'YYYY-MM-DD'],
	nl: ['link', 'Open', 'moment', 'rest', 'per', 'server'],
	fr: ['moment', 'page', 'message', 'question', 'date', 'options', 'option', 'types'],
	it: ['link', 'per', 'file', 'email', 'server'],
	'pt-BR': ['link', 'for'],
	'pt-PT': ['email', 'for'],
	id: ['per', 'valid', 'file', 'email', 'server'],
	tr: ['form'],
};

const wordsOf = (text: string): string[] =>
	text.replace(/\{\w+\}/g, ' ').match(/\p{L}[\p{L}\p{N}@.-]*\p{L}/gu) ?? [];

describe('the languages', () => {
	test('14 or more, English first; tags, names and link codes each once, codes 1 to 254', () => {
		expect(LANGUAGES.length).toBeGreaterThanOrEqual(14);
		expect(LANGUAGES[0]).toBe(ENGLISH);
		for (const field of ['tag', 'name', 'linkCode'] as const)
			expect(new Set(LANGUAGES.map((language) => language[field])).size).toBe(LANGUAGES.length);
		for (const { linkCode } of LANGUAGES) expect(linkCode >= 1 && linkCode <= 254).toBe(true);
	});

	test('link codes are public: each language keeps its code', () => {
		const codes = Object.fromEntries(LANGUAGES.map(({ tag, linkCode }) => [tag, linkCode]));
		expect(codes).toEqual({
			en: 1,
			es: 2,
			'pt-BR': 3,
			'pt-PT': 4,
			fr: 5,
			de: 6,
			it: 7,
			nl: 8,
			tr: 9,
			id: 10,
			hi: 11,
			ar: 12,
			ru: 13,
			ur: 14,
		});
	});

	test('each language file is listed, and holds one language', () => {
		const files = readdirSync(path.join(NODE_DIR, 'sendAndWait/languages')).map((file) =>
			file.replace(/\.ts$/, ''),
		);
		expect(files.sort()).toEqual(LANGUAGES.map(({ tag }) => tag).sort());
	});

	test.each(others.map((language) => [language.tag, language]))(
		'%s has every key of English and no other',
		(_tag, language) => {
			expect(Object.keys(textsOf(language)).sort()).toEqual(Object.keys(textsOf(ENGLISH)).sort());
		},
	);

	test.each(LANGUAGES.map((language) => [language.tag, language]))(
		"%s: a counting text has one form per plural category of the language, and counts as English's do",
		(_tag, language) => {
			const categories = new Intl.PluralRules(language.tag).resolvedOptions().pluralCategories;
			for (const [key, text] of Object.entries(textsOf(language))) {
				const english = textsOf(ENGLISH)[key as TextKey];
				expect({ key, counts: typeof text !== 'string' }).toEqual({
					key,
					counts: typeof english !== 'string',
				});
				if (typeof text !== 'string')
					expect({ key, forms: Object.keys(text).sort() }).toEqual({
						key,
						forms: [...categories].sort(),
					});
			}
		},
	);

	test.each(LANGUAGES.map((language) => [language.tag, language]))(
		'%s: each text has the places of its English one, none other',
		(_tag, language) => {
			const places = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
			for (const [key, text] of Object.entries(textsOf(language))) {
				const english = forms(textsOf(ENGLISH)[key as TextKey]);
				const allowed = new Set(english.flatMap(places));
				for (const form of forms(text))
					for (const place of places(form))
						expect({ key, place }).toEqual({
							key,
							place: allowed.has(place) ? place : '(not in English)',
						});
				// A form may leave {count} out where the language says the number as a word.
				const needed = new Set(english.flatMap(places).filter((place) => place !== '{count}'));
				for (const form of forms(text))
					for (const place of needed)
						expect({ key, form, has: form.includes(place) }).toEqual({
							key,
							form,
							has: true,
						});
			}
		},
	);

	test('every key is said by the code, and the code says no key that is not', () => {
		const code = ['sendAndWait', 'answerLinks']
			.flatMap((dir) =>
				readdirSync(path.join(NODE_DIR, dir))
					.filter((file) => file.endsWith('.ts'))
					.map((file) => readFileSync(path.join(NODE_DIR, dir, file), 'utf8')),
			)
			.join('\n');
		const unused = Object.keys(textsOf(ENGLISH)).filter((key) => !code.includes(`'${key}'`));
		expect(unused).toEqual([]);
	});

	test.each(others.map((language) => [language.tag, language]))(
		'%s shows no English text: no text is English, and no English word but the ones it shares',
		(tag, language) => {
			const englishWords = new Set(
				Object.values(textsOf(ENGLISH))
					.flatMap(forms)
					.flatMap(wordsOf)
					.filter((word) => word.length >= 3),
			);
			const allowed = new Set(SAME_WORDS[tag as string] ?? []);
			for (const [key, text] of Object.entries(textsOf(language))) {
				const english = forms(textsOf(ENGLISH)[key as TextKey]);
				for (const form of forms(text)) {
					expect({ key, form, english: english.includes(form) }).toEqual({
						key,
						form,
						english: false,
					});
					const leaked = wordsOf(form).filter(
						(word) => englishWords.has(word) && !allowed.has(word),
					);
					expect({ key, leaked }).toEqual({ key, leaked: [] });
				}
			}
		},
	);
});

describe('saying a text', () => {
	test('English reads as the page did, numbers and sizes formatted by Intl', () => {
		expect(say(ENGLISH, 'recordedChoice', { label: 'Tuesday' })).toBe('Recorded: Tuesday');
		expect(say(ENGLISH, 'hintCount', { count: 10 })).toBe('Up to 10 files.');
		expect(say(ENGLISH, 'hintCount', { count: 1 })).toBe('Up to 1 file.');
		expect(say(ENGLISH, 'shorten', { count: 10_000 })).toBe(
			'Shorten this to 10,000 characters or fewer.',
		);
	});

	test.each([
		[1, 'Выберите не больше 1 файла.'],
		[3, 'Выберите не больше 3 файлов.'],
		[5, 'Выберите не больше 5 файлов.'],
		[21, 'Выберите не больше 21 файла.'],
	])('Russian counts %i as its plural rules say', (count, text) => {
		expect(say(byTag('ru'), 'chooseUpToFiles', { count })).toBe(text);
	});

	test.each([
		[1, 'اختر ملفًا واحدًا كحد أقصى.'],
		[2, 'اختر ملفين كحد أقصى.'],
		[3, 'اختر 3 ملفات كحد أقصى.'],
		[11, 'اختر 11 ملفًا كحد أقصى.'],
		[100, 'اختر 100 ملف كحد أقصى.'],
	])('Arabic counts %i in its own form', (count, text) => {
		expect(say(byTag('ar'), 'chooseUpToFiles', { count })).toBe(text);
	});

	test('a number is written as the language writes it', () => {
		expect(say(byTag('de'), 'shorten', { count: 10_000 })).toBe(
			'Kürzen Sie den Text auf höchstens 10.000 Zeichen.',
		);
	});

	test.each(LANGUAGES.map((language) => [language.tag, language]))(
		'%s writes its numbers in Latin digits (0–9), as chosen for it',
		(_tag, language) => {
			const digits = (text: string) => text.match(/\p{Nd}/gu)?.join('');
			expect(digits(say(language, 'shorten', { count: 10_000 }))).toBe('10000');
			expect(digits(megabytes(language, 16))).toBe('16');
		},
	);

	test('Arabic, Urdu and Hindi write 10,000 in Latin digits, and Arabic its megabytes in full', () => {
		expect(say(byTag('ar'), 'shorten', { count: 10_000 })).toBe(
			'اختصر النص إلى 10,000 حرف كحد أقصى.',
		);
		expect(say(byTag('ur'), 'shorten', { count: 10_000 })).toBe(
			'اسے زیادہ سے زیادہ 10,000 حروف تک مختصر کریں۔',
		);
		expect(say(byTag('hi'), 'shorten', { count: 10_000 })).toBe(
			'इसे ज़्यादा से ज़्यादा 10,000 अक्षरों तक छोटा करें।',
		);
		expect(megabytes(byTag('ar'), 16)).toBe('16 ميغابايت');
	});

	test("the digits are the page's choice, not the ICU's default: Egypt's Arabic-Indic digits give way too", () => {
		// ICU writes ar-EG in ١٦ by default, as older ICU data wrote a bare `ar`.
		expect(new Intl.NumberFormat('ar-EG').format(16)).toBe('١٦');
		const egyptian = { ...byTag('ar'), tag: 'ar-EG' };
		expect(megabytes(egyptian, 16)).toMatch(/^16 /);
	});

	/** Each language's "or", as its list of alternatives ends. */
	const OR: Record<string, string> = {
		ar: 'أو',
		nl: 'of',
		fr: 'ou',
		de: 'oder',
		hi: 'या',
		id: 'atau',
		it: 'o',
		'pt-BR': 'ou',
		'pt-PT': 'ou',
		ru: 'или',
		es: 'o',
		tr: 'veya',
		ur: 'یا',
	};

	test('every language but English has its "or"; English lists with commas, as its saved pages did', () => {
		expect(Object.keys(OR).sort()).toEqual(others.map(({ tag }) => tag).sort());
		expect(listOf(ENGLISH, ['.jpg', '.jpeg', '.png'])).toBe('.jpg, .jpeg, .png');
		expect(listOf(ENGLISH, ['.pdf', '.png'])).toBe('.pdf, .png');
	});

	test.each(others.map((language) => [language.tag, language]))(
		'%s lists the file types a field accepts as alternatives: apart by a mark or a word, the last by "or"',
		(tag, language) => {
			// Right to left, each code is isolated left to right (LRI…PDI); the words between are read bare.
			const bare = (items: string[]) => listOf(language, items).replace(/[\u2066\u2069]/gu, '');
			const between = (items: string[]) =>
				bare(items)
					.split(/\.pdf|image\/\*|\.docx/)
					.slice(1, -1)
					.map((separator) => separator.split(/[\s,،]+/u).filter((word) => word !== ''));
			const rtl = directionOf(language) === 'rtl';
			expect(listOf(language, ['.pdf'])).toBe(rtl ? '\u2066.pdf\u2069' : '.pdf');
			expect(between(['.pdf', '.docx'])).toEqual([[OR[tag]]]);
			const [first, last] = between(['.pdf', 'image/*', '.docx']);
			expect(bare(['.pdf', 'image/*', '.docx'])).not.toMatch(/\.pdf\s+image/);
			expect(first.length <= 1 && first.every((word) => word === OR[tag])).toBe(true);
			expect(last).toEqual([OR[tag]]);
		},
	);

	test.each(LANGUAGES.map((language) => [language.tag, language]))(
		'%s asks for at most N where a checkbox group has no minimum, with no range from 0',
		(_tag, language) => {
			for (const count of [1, 2, 5, 21]) {
				const text = say(language, 'chooseAtMost', { count });
				expect(text).not.toMatch(/\b0\b/);
				expect(text).not.toBe(say(language, 'chooseBetween', { min: 0, count }));
			}
		},
	);
});

describe('reading a language from any input', () => {
	test.each([
		['pt-BR', 'pt-BR'],
		['pt_BR', 'pt-BR'],
		['PT-br', 'pt-BR'],
		['pt_BR.UTF-8', 'pt-BR'],
		['Portuguese', 'pt-BR'],
		['Português', 'pt-BR'],
		['portuguese (brazil)', 'pt-BR'],
		['  Portugues ', 'pt-BR'],
		['pt', 'pt-BR'],
		['pt-PT', 'pt-PT'],
		['Portuguese (Portugal)', 'pt-PT'],
		['pt_AO', 'pt-PT'],
		['pt-MZ', 'pt-PT'],
		['pt-US', 'pt-BR'],
		['de-AT', 'de'],
		['Deutsch', 'de'],
		['es-MX', 'es'],
		['español', 'es'],
		['العربية', 'ar'],
		['ar-EG', 'ar'],
		['Bahasa Indonesia', 'id'],
		['in', 'id'],
		['Русский', 'ru'],
		['hindi', 'hi'],
		['ur-PK', 'ur'],
	])('%j is %s', (input, tag) => {
		expect((languageSetting(input) as Language | undefined)?.tag).toBe(tag);
	});

	test.each([['browser'], ['Browser'], [' BROWSER ']])('%j is the browser', (input) => {
		expect(languageSetting(input)).toBe(BROWSER);
	});

	test.each([
		[''],
		['  '],
		['xx'],
		['Klingon'],
		['zh-CN'],
		[42],
		[null],
		[undefined],
		[{}],
		['x'.repeat(500)],
	])('%j is no setting: the default applies', (input) => {
		expect(languageSetting(input)).toBeUndefined();
	});

	test('a link code reads back as its language; 255 is the browser; 0, none and unknown are none', () => {
		for (const language of LANGUAGES)
			expect(settingOfLinkCode(linkCodeOf(language))).toBe(language);
		expect(linkCodeOf(BROWSER)).toBe(BROWSER_LINK_CODE);
		expect(settingOfLinkCode(BROWSER_LINK_CODE)).toBe(BROWSER);
		for (const code of [0, undefined, 200]) expect(settingOfLinkCode(code)).toBeUndefined();
		expect(linkCodeOf(undefined)).toBeUndefined();
	});

	test.each([
		['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR'],
		['en;q=0.5, de;q=0.9', 'de'],
		['sv, fi;q=0.9, ar;q=0.8, en;q=0.7', 'ar'],
		['de;q=0, fr', 'fr'],
		['*, es;q=0.1', 'es'],
		['zh-CN;q=1.0, pt-PT;q=0.3', 'pt-PT'],
		['fr-CA;q=abc, it', 'it'],
	])('Accept-Language %j: %s', (header, tag) => {
		expect(fromAcceptLanguage(header)?.tag).toBe(tag);
	});

	test.each([[''], ['sv, zh'], ['de;q=0'], [undefined], [['de']]])(
		'Accept-Language %j has no page language',
		(header) => {
			expect(fromAcceptLanguage(header)).toBeUndefined();
		},
	);

	test("the page's language: the link's, else the node's; the browser's where set, else English", () => {
		const [de, ar] = [byTag('de'), byTag('ar')];
		expect(pageLanguageFor(undefined, 'ar', undefined)).toBe(ENGLISH);
		expect(pageLanguageFor(undefined, 'ar', de)).toBe(de);
		expect(pageLanguageFor(ar, 'fr', de)).toBe(ar);
		expect(pageLanguageFor(BROWSER, 'ar', de)).toBe(ar);
		expect(pageLanguageFor(BROWSER, 'sv', de)).toBe(de);
		expect(pageLanguageFor(BROWSER, 'sv', BROWSER)).toBe(ENGLISH);
		expect(pageLanguageFor(undefined, 'ar', BROWSER)).toBe(ar);
	});

	test('the direction comes from Intl.Locale: Arabic and Urdu right to left, the rest left to right', () => {
		const rtl = LANGUAGES.filter((language) => directionOf(language) === 'rtl').map(
			({ tag }) => tag,
		);
		expect(rtl).toEqual(['ar', 'ur']);
	});
});
