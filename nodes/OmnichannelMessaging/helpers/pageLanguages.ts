/*
 * The languages a customer's page speaks: each one's tag, name and answer-link code, and how a
 * language is read from what a CRM, a builder or a browser says. Send and Wait's page (its texts
 * are sendAndWait/texts.ts) and the answer links both read it, so it stands below both.
 * Plurals, numbers, lists and direction come from Intl for the tag: none is written here.
 */

export interface Language {
	/** BCP 47 tag: the page's `lang`, the editor's value (saved in workflows) and its texts' file. */
	tag: string;
	/** The language's name in English, as the editor lists it. */
	name: string;
	/**
	 * The byte an answer link carries for the language (1 to 254). Public: it is in links already
	 * sent, so a code is never reused or renumbered.
	 */
	linkCode: number;
	/** More names a contact's record may hold for the language, beyond Intl's (e.g. "Bahasa Indonesia"). */
	aliases?: readonly string[];
	/**
	 * Regions whose tags read as this language rather than as its base language's first entry:
	 * Angola's `pt-AO` is written as in Portugal (CLDR's parent locale), not as in Brazil.
	 */
	regions?: readonly string[];
}

export const ENGLISH: Language = { tag: 'en', name: 'English', linkCode: 1 };

/**
 * The page languages, English (the default) first, then as the editor lists them. Adding one is
 * its line here and its texts' file in sendAndWait/languages/.
 */
export const LANGUAGES: readonly Language[] = [
	ENGLISH,
	{ tag: 'ar', name: 'Arabic', linkCode: 12 },
	{ tag: 'nl', name: 'Dutch', linkCode: 8 },
	{ tag: 'fr', name: 'French', linkCode: 5 },
	{ tag: 'de', name: 'German', linkCode: 6 },
	{ tag: 'hi', name: 'Hindi', linkCode: 11 },
	{ tag: 'id', name: 'Indonesian', linkCode: 10, aliases: ['Bahasa Indonesia'] },
	{ tag: 'it', name: 'Italian', linkCode: 7 },
	// Also the page of a plain `pt` and of regions without their own entry.
	{ tag: 'pt-BR', name: 'Portuguese (Brazil)', linkCode: 3 },
	{
		tag: 'pt-PT',
		name: 'Portuguese (Portugal)',
		linkCode: 4,
		// CLDR's children of pt-PT: Portuguese as written in Africa, Asia and Europe outside Brazil.
		regions: ['AO', 'CH', 'CV', 'GQ', 'GW', 'LU', 'MO', 'MZ', 'ST', 'TL'],
	},
	{ tag: 'ru', name: 'Russian', linkCode: 13 },
	{ tag: 'es', name: 'Spanish', linkCode: 2 },
	{ tag: 'tr', name: 'Turkish', linkCode: 9 },
	{ tag: 'ur', name: 'Urdu', linkCode: 14 },
];

/** The setting that reads the language from the customer's browser, and its link code. */
export const BROWSER = 'browser';
export const BROWSER_LINK_CODE = 255;

/** A Page Language as set: one language, the customer's browser, or none (the default's). */
export type LanguageSetting = Language | typeof BROWSER | undefined;

/** A name as people write it: lower case, without accents or punctuation. */
const plain = (text: string): string =>
	text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();

let names: Map<string, Language> | undefined;

/**
 * Every name of every language, in English and in the language itself, as Intl.DisplayNames
 * says them (a base language's name, "Portuguese", goes to its first entry): built once.
 */
function languageNames(): Map<string, Language> {
	if (names) return names;
	names = new Map();
	for (const language of [...LANGUAGES].reverse()) {
		const base = new Intl.Locale(language.tag).language;
		const shown = [language.name, ...(language.aliases ?? [])];
		for (const locale of ['en', language.tag])
			for (const languageDisplay of ['standard', 'dialect'] as const) {
				const display = new Intl.DisplayNames([locale], { type: 'language', languageDisplay });
				shown.push(display.of(language.tag) ?? '', display.of(base) ?? '');
			}
		for (const name of shown) if (plain(name) !== '') names.set(plain(name), language);
	}
	return names;
}

/** A locale tag as systems write it (`pt_BR`, `PT-br`, `pt_BR.UTF-8`), canonical; undefined if none. */
function canonicalTag(text: string): Intl.Locale | undefined {
	try {
		return new Intl.Locale(text.replace(/[.@].*$/, '').replace(/_/g, '-'));
	} catch {
		return undefined;
	}
}

/** Each language by its tag in lower case, and its base language (`pt` of pt-BR): built once. */
const BY_TAG = new Map(
	LANGUAGES.flatMap((language) => {
		const base = new Intl.Locale(language.tag).language;
		const regions = (language.regions ?? []).map((region) => `${base}-${region}`.toLowerCase());
		return [language.tag.toLowerCase(), ...regions].map((tag) => [tag, language] as const);
	}),
);
const BASES = LANGUAGES.map((language) => new Intl.Locale(language.tag).language);

/** The language a tag names: the same tag, else the first of its base language (`de-AT` is `de`). */
function languageOfTag(text: string): Language | undefined {
	const locale = canonicalTag(text);
	if (!locale) return undefined;
	const region = locale.region ? `${locale.language}-${locale.region}`.toLowerCase() : '';
	return (
		BY_TAG.get(locale.baseName.toLowerCase()) ??
		BY_TAG.get(region) ??
		LANGUAGES[BASES.indexOf(locale.language)]
	);
}

/**
 * A Page Language from any input: a tag in any spelling, a name in English or in the language,
 * `browser`; anything else (empty, unknown, not text) is no setting, so the default applies.
 */
export function languageSetting(value: unknown): LanguageSetting {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '' || text.length > 100) return undefined;
	if (text.toLowerCase() === BROWSER) return BROWSER;
	return languageOfTag(text) ?? languageNames().get(plain(text));
}

/**
 * The first supported language of an Accept-Language header, by quality (q=0 is "not this"),
 * in the header's order among equals; undefined when none is supported.
 */
export function fromAcceptLanguage(header: unknown): Language | undefined {
	if (typeof header !== 'string') return undefined;
	const ranges = header
		.slice(0, 1000)
		.split(',')
		.map((part, index) => {
			const [range, ...parameters] = part.split(';').map((piece) => piece.trim());
			const quality = parameters.find((parameter) => /^q=/i.test(parameter));
			const q = quality === undefined ? 1 : Number(quality.slice(2));
			return { range, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0, index };
		})
		.filter(({ range, q }) => q > 0 && range !== '' && range !== '*')
		.sort((a, b) => b.q - a.q || a.index - b.index);
	for (const { range } of ranges) {
		const language = languageOfTag(range);
		if (language) return language;
	}
	return undefined;
}

/**
 * The language to draw a page in: `setting` (a link's), else `own` (the node's Page Language);
 * the browser's when that says so, else the node's own language, else English.
 */
export function pageLanguageFor(
	setting: LanguageSetting,
	acceptLanguage: unknown,
	own?: LanguageSetting,
): Language {
	const chosen = setting ?? own;
	if (chosen !== BROWSER) return chosen ?? ENGLISH;
	return fromAcceptLanguage(acceptLanguage) ?? (own === BROWSER ? undefined : own) ?? ENGLISH;
}

/** The link code of a setting: its language's, 255 for the browser, none for no setting. */
export const linkCodeOf = (setting: LanguageSetting): number | undefined =>
	setting === BROWSER ? BROWSER_LINK_CODE : setting?.linkCode;

/** The setting a link carries: none for a link without one, or with a code this version does not know. */
export const settingOfLinkCode = (code: number | undefined): LanguageSetting =>
	code === BROWSER_LINK_CODE ? BROWSER : LANGUAGES.find((language) => language.linkCode === code);

/** The direction a language is written in, as Intl.Locale's text info says (Node 20: a getter). */
export function directionOf(language: Language): 'ltr' | 'rtl' {
	const locale = new Intl.Locale(language.tag) as Intl.Locale & {
		textInfo?: { direction?: string };
		getTextInfo?: () => { direction?: string };
	};
	const info = locale.getTextInfo?.() ?? locale.textInfo;
	return info?.direction === 'rtl' ? 'rtl' : 'ltr';
}
