import type { INodeProperties } from 'n8n-workflow';

import { shownWhen } from '../helpers/displayOptions';
import { APPROVAL_VALUES, FORM_PAGE_OPTIONS, PAGE_LANGUAGE_OPTION } from './fields';
import { stringField } from './elementFields';
import { BROWSER } from './texts';

/*
 * The Omnichannel Messaging Trigger's page options: Send and Wait's, under the same names, plus
 * what only an answer link has (a refusal message, texts per language).
 */

const REFUSAL_MESSAGE: INodeProperties = stringField(
	[
		'Refusal Message',
		'refusalMessage',
		'The message of the page a link shows when it cannot be answered (changed, cut short ' +
			"or expired). Leave empty for the page language's own words, which say why.",
	],
	undefined,
	{ typeOptions: { rows: 2 } },
);

/** Send and Wait's page options, of which the trigger's description is the question. */
const FORM_PAGE: INodeProperties[] = FORM_PAGE_OPTIONS.map((option) =>
	option.name === 'responseFormDescription'
		? {
				...option,
				description: 'The question above the buttons or the form on the page the link opens',
			}
		: option,
);

const FOR_APPROVAL = shownWhen({ '/responseType': ['approval'] });
const pageOption = (name: string) => FORM_PAGE.find((option) => option.name === name)!;
const approvalLabel = (name: string) => ({
	...APPROVAL_VALUES.find((value) => value.name === name)!,
	displayOptions: FOR_APPROVAL,
});

const CHOICE_LABELS: INodeProperties = stringField(
	[
		'Choice Labels',
		'choiceLabels',
		"The choices' labels on this language's pages, one a line in the order of Choices. A line " +
			"left empty shows that choice's Label, and a tap records the Label whatever the page showed.",
	],
	shownWhen({ '/responseType': ['choice'] }),
	{ typeOptions: { rows: 4 }, placeholder: 'e.g. Bestätigen\nVerschieben\nAbsagen' },
);

/** A language's text: the field for every page that it replaces, and what it is. */
const textIn = (field: INodeProperties, what: string): INodeProperties => ({
	...field,
	description: `${what} on this language's pages. Leave empty to use ${field.displayName}.`,
});

/**
 * Texts per Language: the builder's words for the pages of one language each (a link's language,
 * or the browser's), named as the fields they replace and shown for the same response types.
 */
const TEXTS_PER_LANGUAGE: INodeProperties = {
	displayName: 'Texts per Language',
	name: 'textsPerLanguage',
	type: 'fixedCollection',
	placeholder: 'Add Language',
	default: {},
	typeOptions: { multipleValues: true },
	description:
		"Your texts for the pages in a language, in place of those set for every page. The answer's " +
		'data is the same in every language.',
	options: [
		{
			displayName: 'Language',
			name: 'values',
			values: [
				{
					...PAGE_LANGUAGE_OPTION,
					displayName: 'Language',
					name: 'language',
					description: "The language of the pages these texts are for: a link's, or a browser's",
					options: PAGE_LANGUAGE_OPTION.options!.filter(
						(option) => 'value' in option && option.value !== BROWSER,
					),
				},
				textIn(pageOption('responseFormTitle'), 'The title'),
				textIn(pageOption('responseFormDescription'), 'The question'),
				CHOICE_LABELS,
				textIn(approvalLabel('approveLabel'), "The approve button's label"),
				textIn(approvalLabel('disapproveLabel'), "The decline button's label"),
				textIn(pageOption('responseFormButtonLabel'), "The button's label"),
				textIn(pageOption('completionTitle'), 'The title after the answer'),
				textIn(pageOption('completionMessage'), 'The message after the answer'),
				textIn(REFUSAL_MESSAGE, "A refused link's message"),
			],
		},
	],
};

/**
 * Send and Wait's page options; the trigger has no message, so its description is the question,
 * its links can be refused (changed, expired), so it has a Refusal Message, and each link carries
 * its page's language, so it has texts per language.
 */
export const TRIGGER_PAGE_OPTIONS: INodeProperties[] = [
	...FORM_PAGE.map((option) =>
		option.name === 'pageLanguage'
			? {
					...option,
					description:
						"The language of the page for links that carry none (the send's Answer Link → Page " +
						'Language). A changed or cut-short link shows its page in the language of the ' +
						"customer's browser where the page has it, else in this one. From the Customer's " +
						"Browser uses the first of the browser's languages the page has, else English.",
				}
			: option,
	),
	REFUSAL_MESSAGE,
	TEXTS_PER_LANGUAGE,
];
