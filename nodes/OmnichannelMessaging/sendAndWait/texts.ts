import ar from './languages/ar';
import de from './languages/de';
import en from './languages/en';
import es from './languages/es';
import fr from './languages/fr';
import hi from './languages/hi';
import id from './languages/id';
import it from './languages/it';
import nl from './languages/nl';
import ptBR from './languages/pt-BR';
import ptPT from './languages/pt-PT';
import ru from './languages/ru';
import tr from './languages/tr';
import ur from './languages/ur';

/*
 * The words the answer page says, in each page language: the page names a text by key, and each
 * language is one data file in languages/ (its tag, its English name, its link code and its texts),
 * listed below. Adding a language is adding its file and its line in LANGUAGES. Plurals are chosen
 * by Intl.PluralRules, numbers, sizes and lists formatted by Intl for the language, and the
 * page's direction comes from Intl.Locale: none of it is written by hand here.
 */

/** A text that counts: one string per plural category of the language (Intl.PluralRules). */
export type Plural = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

export type TextKey = keyof typeof en.texts;

/** What a text's `{name}` places hold: numbers are formatted for the language. */
export type TextValues = Record<string, string | number>;

export interface Language {
	/** BCP 47 tag: the page's `lang` and the editor's value. */
	tag: string;
	/** The language's name in English, as the editor lists it. */
	name: string;
	/**
	 * The byte an answer link carries for the language (1 to 254). Public: it is in links already
	 * sent, so a code is never reused or renumbered.
	 */
	linkCode: number;
	/** More names a contact's record may hold for the language, beyond Intl's (e.g. "Bahasa Indonesia"). */
	aliases?: string[];
	/**
	 * Regions whose tags read as this language rather than as its base language's first entry:
	 * Angola's `pt-AO` is written as in Portugal (CLDR's parent locale), not as in Brazil.
	 */
	regions?: string[];
	texts: Record<TextKey, string | Plural>;
}

/** The page languages, English (the default) first, then as the editor lists them. */
export const LANGUAGES: readonly Language[] = [
	en,
	ar,
	nl,
	fr,
	de,
	hi,
	id,
	it,
	ptBR,
	ptPT,
	ru,
	es,
	tr,
	ur,
];

export const ENGLISH: Language = en;

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

interface Formats {
	plural: Intl.PluralRules;
	number: Intl.NumberFormat;
	megabytes: Intl.NumberFormat;
	list: Intl.ListFormat;
}

const formats = new Map<string, Formats>();

function formatsOf(tag: string): Formats {
	let found = formats.get(tag);
	if (!found) {
		found = {
			plural: new Intl.PluralRules(tag),
			number: new Intl.NumberFormat(tag),
			megabytes: new Intl.NumberFormat(tag, { style: 'unit', unit: 'megabyte' }),
			list: new Intl.ListFormat(tag, { type: 'unit', style: 'short' }),
		};
		formats.set(tag, found);
	}
	return found;
}

/** A size in megabytes as the language writes it ("16 MB", "16 Mo"). */
export const megabytes = (language: Language, amount: number): string =>
	formatsOf(language.tag).megabytes.format(amount);

/** A list of codes (file types) as the language lists them. */
export const listOf = (language: Language, items: string[]): string =>
	formatsOf(language.tag).list.format(items);

/**
 * A text of the language with its places filled; a counting text picks its form by `count`. In a
 * right-to-left language a filled-in text is isolated (FSI…PDI) and keeps its own direction: a
 * label, `.pdf` or `16 MB` reads as written, not reordered by the sentence around it.
 */
export function say(language: Language, key: TextKey, values: TextValues = {}): string {
	const text = language.texts[key];
	const { plural, number } = formatsOf(language.tag);
	const form =
		typeof text === 'string' ? text : (text[plural.select(Number(values.count))] ?? text.other);
	const [open, close] = directionOf(language) === 'rtl' ? ['\u2068', '\u2069'] : ['', ''];
	return form.replace(/\{(\w+)\}/g, (place, name: string) => {
		const value = values[name];
		if (value === undefined) return place;
		return typeof value === 'number' ? number.format(value) : `${open}${value}${close}`;
	});
}

/** The texts of one language, for the code that says several, and the language they are in. */
export type Say = ((key: TextKey, values?: TextValues) => string) & { language: Language };

export const sayIn = (language: Language): Say =>
	Object.assign((key: TextKey, values?: TextValues) => say(language, key, values), { language });
