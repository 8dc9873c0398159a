'use strict';
/*
 * The Page Language end-to-end test's workflows and readers (test/e2e/pageLanguage.e2e.js): the
 * English texts the answer pages had before they had a language, and what a page says of itself
 * (its `lang`, its `dir` and any of those texts).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { CREDENTIAL, byId, chain, omniNode, splitOut, templateSend } = require('./support');
const { webhookTrigger } = require('./support');
const { mapperValue } = require('../helpers/mapperValue');
const { unescapeHtml } = require('../helpers/answerPage');
const { askWorkflow, RECEIPT } = require('./sendAndWait.support');
const {
	EVERY_TYPE_WORDS,
	everyTypeFields,
	everyTypeLabels,
	PHOTO,
} = require('../helpers/everyTypeForm');

/*
 * Every text of 0.2.0's pages that the node wrote and the builder could not change, as it stood in
 * sendAndWait/page.ts, webhook.ts, answer.ts and formFields.ts: the page titles, the page after an
 * answer, the refusals, each check of a form field, the hints and the default labels. A text with
 * a number in it is kept as its fixed words. None may show on a page in another language.
 */
const ENGLISH_TEXTS = [
	// Titles and the page after an answer.
	'Your answer',
	'Answer recorded',
	'Nothing recorded',
	'Recorded:',
	'Recorded your answer:',
	'You can close this page.',
	// Refusals.
	'This link is not valid',
	'it may have been changed or cut short',
	'Open it again from the message you received.',
	'This link has expired',
	'answers to it are no longer recorded',
	'This question cannot be answered',
	'Nothing was recorded',
	'tap one of the buttons below',
	'answer with the form on this page',
	'fix what is marked below, then send the form again',
	'the form arrived incomplete',
	'choose a file in each file field, then send again',
	// The checks of a form's fields.
	'Fill in this field.',
	'Choose an option.',
	'Choose one option.',
	'Choose each option once.',
	'Choose from the options offered.',
	'Choose exactly',
	'Choose at least',
	'Choose between',
	'Enter one value.',
	'Shorten this to',
	'characters or fewer',
	'Enter a number.',
	'Enter an email address, e.g. name@example.com.',
	'Enter a date as YYYY-MM-DD.',
	'Choose a file.',
	'Choose one file only.',
	'Choose up to',
	'Choose a file of these types',
	'Each file can be up to',
	// The hints of a file field.
	'MB per file.',
	'files.',
	'Types:',
	'Choose the file again: a page shown again keeps no file.',
	// The default labels: the form's buttons, a dropdown's first entry, Approval's buttons.
	'Submit',
	'Send',
	'Respond',
	'Choose…',
	'✓ Approve',
	'✗ Decline',
];

/**
 * The texts of the English page language as the built package has them, each cut at its places
 * (`{count}`) into its fixed words, the short joints (" and ", ".") left out: the texts added
 * since 0.2.0 may not show on a page in another language either.
 */
function englishOfThePackage() {
	const texts = path.join(n8n.REPO_ROOT, 'dist', 'nodes', 'OmnichannelMessaging', 'sendAndWait');
	const { ENGLISH, textsOf } = require(path.join(texts, 'texts.js'));
	return Object.values(textsOf(ENGLISH))
		.flatMap((text) => (typeof text === 'string' ? [text] : Object.values(text)))
		.flatMap((text) => text.split(/\{\w+\}/))
		.map((part) => part.trim())
		.filter((part) => part.length >= 5);
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Whole words only: German "Senden" is not "Send". Case counts: markup says type="submit".
const ENGLISH = [...new Set([...ENGLISH_TEXTS, ...englishOfThePackage()])].map((text) => ({
	text,
	pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text)}(?![\\p{L}\\p{N}])`, 'u'),
}));

/**
 * What a page's HTML says of itself: the `lang` and `dir` of its `<html>`, and which of the
 * English texts it holds anywhere (text, title, attributes: a placeholder or a button's value).
 */
function pageFacts(html) {
	const tag = /<html\b[^>]*>/i.exec(html)?.[0] ?? '';
	const attribute = (name) =>
		new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag)?.slice(1).find(Boolean);
	const text = unescapeHtml(html.replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, ''));
	return {
		lang: attribute('lang'),
		dir: attribute('dir'),
		english: ENGLISH.filter(({ pattern }) => pattern.test(text)).map(({ text: found }) => found),
	};
}

/** What a page in the language `tag` says of itself: that tag, its direction, no English text. */
const inLanguage = (tag) => ({ lang: tag, dir: tag === 'ar' ? 'rtl' : 'ltr', english: [] });

const noOp = (name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} });

/**
 * The form of every field type that the accessibility checks draw, in Arabic, and its labels: as
 * JSON, as they give it, since only JSON fields have a multiple-choice dropdown (as in n8n's Form).
 */
const ARABIC_WORDS = EVERY_TYPE_WORDS.ar;
const ARABIC_FIELDS = everyTypeFields(ARABIC_WORDS);
const ARABIC_LABELS = everyTypeLabels(ARABIC_WORDS);

/** What a customer answers, by field label: the second option of each, or the second and third. */
const ARABIC_ANSWER = {
	[ARABIC_LABELS.name]: 'ليلى',
	[ARABIC_LABELS.comment]: 'شكراً',
	[ARABIC_LABELS.code]: 'A-1042',
	[ARABIC_LABELS.quantity]: '3',
	[ARABIC_LABELS.email]: 'layla@example.com',
	[ARABIC_LABELS.date]: '2026-12-24',
	[ARABIC_LABELS.colour]: ARABIC_WORDS.colour[2],
	[ARABIC_LABELS.sizes]: ARABIC_WORDS.sizes.slice(2),
	[ARABIC_LABELS.extras]: ARABIC_WORDS.extras.slice(2),
	[ARABIC_LABELS.delivery]: ARABIC_WORDS.delivery[2],
	[ARABIC_LABELS.receipt]: RECEIPT,
	[ARABIC_LABELS.photos]: PHOTO,
};

const fileOf = ({ name, type, content }) => ({
	filename: name,
	mimetype: type,
	size: content.length,
});

/**
 * n8n's output of that answer, as for a form in English: the number as a number, the Custom HTML
 * and the hidden field by their names, each file's name, type and size (several files: a list).
 */
const ARABIC_DATA = {
	...ARABIC_ANSWER,
	[ARABIC_LABELS.quantity]: 3,
	note: ARABIC_WORDS.html,
	source: 'sms',
	[ARABIC_LABELS.receipt]: fileOf(RECEIPT),
	[ARABIC_LABELS.photos]: [fileOf(PHOTO)],
};

/** Brazilian Portuguese options of a Choice. */
const CHOICES_PT = ['Segunda 9:00', 'Terça 14:00', 'Sexta 8:00'];

/** The Omnichannel Messaging Trigger with `parameters`, then Next. */
function triggerWorkflow(id, webhookId, parameters) {
	return chain(id, `e2e page language: the answers ${id}`, [
		{
			name: 'On Answer',
			type: `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`,
			typeVersion: 1,
			webhookId,
			parameters,
			credentials: { [n8n.CREDENTIAL_TYPE]: { ...CREDENTIAL } },
		},
		noOp('Next'),
	]);
}

/**
 * Webhook → Split Out `body.customers` → WhatsApp Template → Send of template 101, each customer's
 * Answer Link (in {{3}}) to the trigger, for the time and in the language their item names.
 */
function broadcastWorkflow(webhookPath) {
	const send = templateSend(
		'101',
		{ 1: '={{ $json.name }}', 2: '1042' },
		{
			answerLink: {
				values: {
					triggerUrl: '={{ $json.triggerUrl }}',
					reference: '={{ $json.appointment }}',
					validFor: '={{ $json.validForMinutes }}',
					validForUnit: 'minutes',
					linkVariable: 3,
					pageLanguage: '={{ $json.locale }}',
				},
			},
		},
	);
	const built = chain('E2ePageLangSend1', 'e2e page language: the broadcast', [
		webhookTrigger(webhookPath),
		splitOut('Customers', 'body.customers'),
		omniNode('Send', send),
	]);
	return { ...built, webhookPath };
}

/** The link with one character of its token changed: it no longer opens. */
function changedToken(link) {
	const position = link.indexOf('?a=') + 20;
	return link.slice(0, position) + (link[position] === 'A' ? 'B' : 'A') + link.slice(position + 1);
}

/* The test's workflows: three Send and Wait, three triggers and the broadcast. */
const TRIGGER_ID = crypto.randomUUID();
const TEXTS_TRIGGER_ID = crypto.randomUUID();
const WORDS_TRIGGER_ID = crypto.randomUUID();
/** The trigger's own Page Language: a changed link's page when the browser's is not offered. */
const TRIGGER_LANGUAGE = 'es';
/** The builder's own texts, in the builder's language. */
const BUILDER = {
	responseFormTitle: 'Ihre Erstattung',
	completionTitle: 'Vielen Dank!',
	completionMessage: 'Wir überweisen den Betrag morgen.',
	refusalMessage: 'Dieser Link gilt nicht mehr. Rufen Sie uns an: 030 123456.',
};
const CUSTOMERS = [
	{ phone: '+49 151 2345 6701', name: 'Ana', appointment: 'APT-1', locale: 'pt-BR' },
	{ phone: '+49 151 2345 6702', name: 'Layla', appointment: 'APT-2', locale: 'ar' },
	{ phone: '+49 151 2345 6703', name: 'Jonas', appointment: 'APT-3', locale: 'de' },
];

const WORKFLOWS = {
	choice: askWorkflow('E2ePageLangPt001', 'lang-choice-pt', {
		resource: 'whatsappTemplate',
		channelId: byId('12'),
		templateId: byId('101'),
		customerPhone: '+55 11 91234 5678',
		variablesMode: 'mapper',
		variables: mapperValue({ 1: 'Ana', 2: '1042' }),
		linkVariable: 3,
		responseType: 'choice',
		choiceOptions: { values: CHOICES_PT.map((label) => ({ label })) },
		options: { pageLanguage: 'pt-BR' },
	}),
	form: askWorkflow('E2ePageLangAr001', 'lang-form-ar', {
		resource: 'message',
		customerId: '8001',
		message: ARABIC_WORDS.question,
		responseType: 'customForm',
		defineForm: 'json',
		jsonOutput: JSON.stringify(ARABIC_FIELDS),
		options: { pageLanguage: 'ar' },
	}),
	texts: askWorkflow('E2ePageLangDe001', 'lang-texts-de', {
		resource: 'message',
		customerId: '8002',
		message: 'Erstattung von 42 EUR für Bestellung 1042?',
		approvalOptions: { values: { approvalType: 'double' } },
		options: {
			pageLanguage: 'de',
			responseFormTitle: BUILDER.responseFormTitle,
			completionTitle: BUILDER.completionTitle,
			completionMessage: BUILDER.completionMessage,
		},
	}),
};

/**
 * The answers example's trigger as shipped: a Choice whose question and buttons are English, with
 * Arabic and Hindi under Options → Texts per Language.
 */
const EXAMPLE = JSON.parse(
	fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', 'answer-link-answers.json'), 'utf8'),
);
const WORDS_PARAMETERS = EXAMPLE.nodes.find(
	(node) => node.name === 'On appointment answer',
).parameters;

const double = { values: { approvalType: 'double' } };
const TRIGGERS = {
	plain: triggerWorkflow('E2ePageLangTrg01', TRIGGER_ID, {
		responseType: 'approval',
		approvalOptions: double,
		options: { pageLanguage: TRIGGER_LANGUAGE },
	}),
	texts: triggerWorkflow('E2ePageLangTrg02', TEXTS_TRIGGER_ID, {
		responseType: 'approval',
		approvalOptions: double,
		options: { pageLanguage: 'de', ...BUILDER },
	}),
	words: triggerWorkflow('E2ePageLangTrg03', WORDS_TRIGGER_ID, WORDS_PARAMETERS),
};
const BROADCAST = broadcastWorkflow('lang-broadcast');

/**
 * The question and the buttons' labels the example's page shows in `tag`: its entry's under Texts
 * per Language, else (no entry, no tag) the trigger's own, which its answers record.
 */
function exampleWords(tag) {
	const { options, choiceOptions } = WORDS_PARAMETERS;
	const entry = options.textsPerLanguage.values.find(({ language }) => language === tag);
	return {
		question: entry?.responseFormDescription ?? options.responseFormDescription,
		labels: entry?.choiceLabels.split('\n') ?? choiceOptions.values.map(({ label }) => label),
	};
}

/** An Arabic, an English and a Hindi speaker, sent links to the example's trigger. */
const SPEAKERS = [
	{ phone: '+49 151 2345 6711', name: 'Layla', appointment: 'APT-11', locale: 'ar' },
	{ phone: '+49 151 2345 6712', name: 'Bo', appointment: 'APT-12', locale: 'en' },
	{ phone: '+49 151 2345 6713', name: 'Priya', appointment: 'APT-13', locale: 'hi' },
];

const PAGE_LANGUAGE = {
	TRIGGER_ID,
	TEXTS_TRIGGER_ID,
	WORDS_TRIGGER_ID,
	TRIGGER_LANGUAGE,
	BUILDER,
	CUSTOMERS,
	WORKFLOWS,
	TRIGGERS,
	BROADCAST,
	SPEAKERS,
	exampleWords,
};

module.exports = {
	PAGE_LANGUAGE,
	ENGLISH_TEXTS,
	pageFacts,
	inLanguage,
	triggerWorkflow,
	broadcastWorkflow,
	changedToken,
	ARABIC_WORDS,
	ARABIC_FIELDS,
	ARABIC_LABELS,
	ARABIC_ANSWER,
	ARABIC_DATA,
	CHOICES_PT,
};
