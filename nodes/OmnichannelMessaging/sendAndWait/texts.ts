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

import { directionOf, ENGLISH } from '../helpers/pageLanguages';
import type { Language } from '../helpers/pageLanguages';

/*
 * The words the answer page says, in each page language: the page names a text by key, and each
 * language's texts are one data file in languages/, named by its tag and listed below. The
 * languages themselves (tags, names, link codes, reading a Page Language) are
 * helpers/pageLanguages.ts, which the answer links read too; Send and Wait takes them from here
 * with its texts. Plurals are chosen by Intl.PluralRules, numbers, sizes and lists formatted by
 * Intl for the language, and the page's direction comes from Intl.Locale: none of it is written
 * by hand here.
 */
export * from '../helpers/pageLanguages';

/** A text that counts: one string per plural category of the language (Intl.PluralRules). */
export type Plural = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

export type TextKey = keyof typeof en;

/** Every text of one language, by key. */
export type Texts = Record<TextKey, string | Plural>;

/** What a text's `{name}` places hold: numbers are formatted for the language. */
export type TextValues = Record<string, string | number>;

/** Each page language's texts, by its tag. */
const TEXTS: Record<string, Texts> = {
	en,
	ar,
	nl,
	fr,
	de,
	hi,
	id,
	it,
	'pt-BR': ptBR,
	'pt-PT': ptPT,
	ru,
	es,
	tr,
	ur,
};

/** The texts of a page language. */
export const textsOf = (language: Language): Texts => TEXTS[language.tag];

/*
 * The digits a page writes numbers in are chosen here, not left to the ICU data of the Node that
 * runs n8n: that data has changed its default for bare `ar` (Arabic-Indic ١٠٬٠٠٠ in older data,
 * 10,000 in newer), so one workflow would show other digits on another host. Every page language
 * writes Latin digits (0–9), the same on Node 20, 22 and 24:
 * - Arabic: one page serves every Arab country. The Maghreb and the Gulf write 0–9, and Egypt and
 *   the Levant, which print ٠–٩ too, read them; the page's own date format is YYYY-MM-DD.
 * - Urdu and Hindi: web forms in Pakistan and India write 0–9, as CLDR's `ur` and `hi` do;
 *   Urdu's ۰–۹ (CLDR's `ur-IN`) and Devanagari digits are rare on screens.
 */
const DIGITS = 'latn';

/** Sizes as the language writes them where its short unit is rare on screens (Arabic's "م.ب"). */
const UNIT_DISPLAY: Record<string, 'long'> = { ar: 'long' };

/**
 * The file types a field accepts are alternatives, so a language joins them with its "or"
 * (".pdf, .jpg или .png"). English keeps the commas its pages had before Page Language
 * (".jpg, .jpeg, .png"): a saved workflow's page reads as it did, word for word.
 */
const listOfAlternatives = (locale: string, tag: string): Intl.ListFormat =>
	new Intl.ListFormat(
		locale,
		tag === ENGLISH.tag ? { type: 'unit', style: 'short' } : { type: 'disjunction' },
	);

interface Formats {
	plural: Intl.PluralRules;
	number: Intl.NumberFormat;
	megabytes: Intl.NumberFormat;
	alternatives: Intl.ListFormat;
}

const formats = new Map<string, Formats>();

function formatsOf(tag: string): Formats {
	let found = formats.get(tag);
	if (!found) {
		const locale = new Intl.Locale(tag, { numberingSystem: DIGITS }).toString();
		const unitDisplay = UNIT_DISPLAY[tag] ?? 'short';
		found = {
			plural: new Intl.PluralRules(locale),
			number: new Intl.NumberFormat(locale),
			megabytes: new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', unitDisplay }),
			alternatives: listOfAlternatives(locale, tag),
		};
		formats.set(tag, found);
	}
	return found;
}

/** A size in megabytes as the language writes it ("16 MB", "16 Mo"). */
export const megabytes = (language: Language, amount: number): string =>
	formatsOf(language.tag).megabytes.format(amount);

/**
 * Codes the customer may pick one of (a field's file types), as the language lists them. In a
 * right-to-left language each code is isolated left to right (LRI…PDI), so that the list runs
 * right to left while `.pdf` and `image/*` read as written.
 */
export function listOf(language: Language, items: string[]): string {
	const isolated =
		directionOf(language) === 'rtl' ? items.map((item) => `\u2066${item}\u2069`) : items;
	return formatsOf(language.tag).alternatives.format(isolated);
}

/**
 * A text of the language with its places filled; a counting text picks its form by `count`. In a
 * right-to-left language a filled-in text is isolated (FSI…PDI) and keeps its own direction: a
 * label, `.pdf` or `16 MB` reads as written, not reordered by the sentence around it.
 */
export function say(language: Language, key: TextKey, values: TextValues = {}): string {
	const text = textsOf(language)[key];
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
