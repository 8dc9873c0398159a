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
export {
	BROWSER,
	BROWSER_LINK_CODE,
	ENGLISH,
	LANGUAGES,
	directionOf,
	fromAcceptLanguage,
	languageSetting,
	linkCodeOf,
	pageLanguageFor,
	settingOfLinkCode,
} from '../helpers/pageLanguages';
export type { Language, LanguageSetting } from '../helpers/pageLanguages';

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

export const textsOf = (language: Language): Texts => TEXTS[language.tag];

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

/** A text of the language with its places filled; a counting text picks its form by `count`. */
export function say(language: Language, key: TextKey, values: TextValues = {}): string {
	const text = textsOf(language)[key];
	const { plural, number } = formatsOf(language.tag);
	const form =
		typeof text === 'string' ? text : (text[plural.select(Number(values.count))] ?? text.other);
	return form.replace(/\{(\w+)\}/g, (place, name: string) => {
		const value = values[name];
		if (value === undefined) return place;
		return typeof value === 'number' ? number.format(value) : value;
	});
}

/** The texts of one language, for the code that says several, and the language they are in. */
export type Say = ((key: TextKey, values?: TextValues) => string) & { language: Language };

export const sayIn = (language: Language): Say =>
	Object.assign((key: TextKey, values?: TextValues) => say(language, key, values), { language });
