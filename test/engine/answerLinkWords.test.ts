/*
 * The builder's own words per page language on the Omnichannel Messaging Trigger (Options → Texts
 * per Language), through n8n-core's WebhookContext: each link's page shows the words given for its
 * language (the link's, or the browser's for a link that cannot be read), the default words where a
 * language has none or a text is left empty; the answer's data is the default's whatever the page
 * showed. The answers example's trigger (Arabic and Hindi beside English) is read as shipped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import {
	languageSetting,
	linkCodeOf,
	say,
} from '../../nodes/OmnichannelMessaging/sendAndWait/texts';
import type { Language } from '../../nodes/OmnichannelMessaging/sendAndWait/texts';
import { post } from '../helpers/customForm';
import { loadPackage, PACKAGE_ROOT } from '../helpers/engine';
import { HOUR, callTrigger, token } from '../helpers/triggerCall';
import type { WebhookRequest } from '../helpers/webhookCall';

const EXAMPLE = JSON.parse(
	readFileSync(path.join(PACKAGE_ROOT, 'examples', 'answer-link-answers.json'), 'utf8'),
) as { nodes: Array<{ name: string; parameters: INodeParameters }> };
/** The example's Choice: English under Choices, Arabic and Hindi under Texts per Language. */
const TRIGGER = EXAMPLE.nodes.find((node) => node.name === 'On appointment answer')!.parameters;
const options = TRIGGER.options as IDataObject;
const ENTRIES = (options.textsPerLanguage as { values: IDataObject[] }).values;
const LABELS = (TRIGGER.choiceOptions as { values: Array<{ label: string }> }).values.map(
	({ label }) => label,
);

const languageOf = (tag: string) => languageSetting(tag) as Language;
/** A link sealed with the language `tag` names (none: the trigger's own). */
const linkIn = (tag?: string, facts = {}) =>
	token({ ...(tag ? { language: linkCodeOf(languageOf(tag)) } : {}), ...facts });

/** What a page shows: its `lang`, title and paragraphs, and its buttons' labels (none escaped here). */
function shown(page: string) {
	const texts = (pattern: RegExp) => [...page.matchAll(pattern)].map(([, text]) => text);
	return {
		lang: /<html lang="([^"]*)"/.exec(page)?.[1],
		title: texts(/<title>([^<]*)<\/title>/g)[0],
		paragraphs: texts(/<p\b[^>]*>([^<]*)<\/p>/g),
		buttons: texts(/<button\b[^>]*>([^<]*)<\/button>/g),
	};
}

const open = async (
	parameters: INodeParameters,
	a: string,
	request: Partial<WebhookRequest> = {},
) => shown((await callTrigger(parameters, { method: 'GET', query: { a }, ...request })).page);

const tap = async (parameters: INodeParameters, a: string, choice: string) =>
	await callTrigger(parameters, { method: 'POST', query: { a }, body: { choice } });

describe('the answers example: one trigger, its question and buttons in Arabic, English and Hindi', () => {
	test.each(['ar', 'hi'])("a link in %s: that language's question and buttons", async (tag) => {
		const entry = ENTRIES.find((given) => given.language === tag)!;
		const page = await open(TRIGGER, linkIn(tag));
		expect(page).toEqual({
			lang: tag,
			title: say(languageOf(tag), 'title'),
			paragraphs: [entry.responseFormDescription],
			buttons: String(entry.choiceLabels).split('\n'),
		});
		expect(page.buttons).not.toContain(LABELS[0]);
	});

	test.each([
		['English', 'en'],
		['German, which has no entry', 'de'],
		["none (the trigger's own)", undefined],
	])('a link in %s: the default question and buttons', async (_name, tag) => {
		const page = await open(TRIGGER, linkIn(tag));
		expect(page).toMatchObject({
			lang: tag ?? 'en',
			paragraphs: [options.responseFormDescription],
			buttons: LABELS,
		});
	});

	test('a tap records the default Label in every language; the page says the label it showed', async () => {
		const answers = await Promise.all(
			['ar', 'en', 'hi'].map((tag) => tap(TRIGGER, linkIn(tag), '1')),
		);
		expect(answers.map((answer) => answer.result.workflowData![0][0].json.data)).toEqual(
			['ar', 'en', 'hi'].map(() => ({ choice: LABELS[1], respondedAt: expect.any(String) })),
		);
		const [ar, en, hi] = answers.map((answer) => shown(answer.page).paragraphs[0]);
		const label = (tag: string) =>
			String(ENTRIES.find((given) => given.language === tag)!.choiceLabels).split('\n')[1];
		expect([ar, en, hi]).toEqual([
			say(languageOf('ar'), 'recordedChoice', { label: label('ar') }),
			say(languageOf('en'), 'recordedChoice', { label: LABELS[1] }),
			say(languageOf('hi'), 'recordedChoice', { label: label('hi') }),
		]);
	});
});

/** A Choice with every text of its own in English, and some of them in Hindi and Arabic. */
const CHOICE: INodeParameters = {
	responseType: 'choice',
	choiceOptions: { values: [{ label: 'Morning' }, { label: 'Noon' }, { label: 'Evening' }] },
	options: {
		responseFormTitle: 'Your visit',
		responseFormDescription: 'When can we come?',
		completionTitle: 'Thank you',
		completionMessage: 'See you soon.',
		refusalMessage: 'Call us on 030 123456.',
		textsPerLanguage: {
			values: [
				{
					language: 'hi',
					responseFormTitle: '',
					responseFormDescription: 'हम कब आ सकते हैं?',
					choiceLabels: 'सुबह\n\nशाम',
					completionTitle: 'धन्यवाद',
					refusalMessage: 'हमें 030 123456 पर कॉल करें।',
				},
				{ language: 'ar', choiceLabels: 'صباحًا' },
				// n8n leaves a default out of a saved entry: this one is English's.
				{ responseFormTitle: 'Your visit, Sir' },
			],
		},
	},
};

describe('what a language leaves empty reads the default', () => {
	test('an empty text and an empty line are the default ones; missing lines too', async () => {
		expect(await open(CHOICE, linkIn('hi'))).toEqual({
			lang: 'hi',
			title: 'Your visit',
			paragraphs: ['हम कब आ सकते हैं?'],
			buttons: ['सुबह', 'Noon', 'शाम'],
		});
		expect(await open(CHOICE, linkIn('ar'))).toMatchObject({
			title: 'Your visit',
			paragraphs: ['When can we come?'],
			buttons: ['صباحًا', 'Noon', 'Evening'],
		});
		expect((await open(CHOICE, linkIn('en'))).title).toBe('Your visit, Sir');
	});

	test("the page after a tap: the language's completion title, the default message", async () => {
		const answer = await tap(CHOICE, linkIn('hi'), '2');
		expect(answer.result.workflowData![0][0].json.data).toMatchObject({ choice: 'Evening' });
		expect(shown(answer.page)).toMatchObject({
			title: 'धन्यवाद',
			paragraphs: [say(languageOf('hi'), 'recordedChoice', { label: 'शाम' }), 'See you soon.'],
		});
	});

	test("a refused link: the Refusal Message of the link's or the browser's language, else the default", async () => {
		const expired = (tag: string) =>
			linkIn(tag, {
				sentAt: new Date(Date.now() - 2 * HOUR),
				expiresAt: new Date(Date.now() - HOUR),
			});
		const hindi = await open(CHOICE, expired('hi'));
		expect(hindi).toMatchObject({ lang: 'hi', paragraphs: ['हमें 030 123456 पर कॉल करें।'] });
		const arabic = await open(CHOICE, expired('ar'));
		expect(arabic).toMatchObject({ lang: 'ar', paragraphs: ['Call us on 030 123456.'] });
		const changed = await open(CHOICE, `${linkIn('ar')}x`, {
			headers: { 'accept-language': 'hi-IN,hi;q=0.9' },
		});
		expect(changed).toMatchObject({ lang: 'hi', paragraphs: ['हमें 030 123456 पर कॉल करें।'] });
	});
});

describe('every response type', () => {
	const inHindi = (values: IDataObject) => ({
		textsPerLanguage: { values: [{ language: 'hi', ...values }] },
	});

	test("Approval: each button's label in the language; the answer is approved or not", async () => {
		const approval = {
			responseType: 'approval',
			approvalOptions: { values: { approvalType: 'double' } },
			options: inHindi({ approveLabel: 'हाँ', disapproveLabel: 'नहीं' }),
		};
		expect((await open(approval, linkIn('hi'))).buttons).toEqual(['हाँ', 'नहीं']);
		const answer = await callTrigger(approval, {
			method: 'POST',
			query: { a: linkIn('hi') },
			body: { approved: 'false' },
		});
		expect(answer.result.workflowData![0][0].json.data).toMatchObject({ approved: false });
	});

	test("Custom Form: the language's button; the answer keyed by the field's label", async () => {
		const form = {
			responseType: 'customForm',
			formFields: { values: [{ fieldLabel: 'Seats', fieldType: 'number', requiredField: true }] },
			options: {
				responseFormButtonLabel: 'Book',
				...inHindi({ responseFormButtonLabel: 'बुक करें' }),
			},
		};
		expect((await open(form, linkIn('hi'))).buttons).toEqual(['बुक करें']);
		expect((await open(form, linkIn('en'))).buttons).toEqual(['Book']);
		const answer = await callTrigger(form, {
			...post({ 'field-0': '2' }),
			query: { a: linkIn('hi') },
		});
		expect(answer.result.workflowData![0][0].json.data).toEqual({
			Seats: 2,
			respondedAt: expect.any(String),
		});
	});
});

describe('saved workflows and the editor', () => {
	test('without Texts per Language, or in a language it leaves out, every page is as before', async () => {
		const before = Object.fromEntries(
			Object.entries(options).filter(([name]) => name !== 'textsPerLanguage'),
		);
		const saved = { ...TRIGGER, options: before } as INodeParameters;
		for (const tag of ['de', 'en', undefined]) {
			const a = linkIn(tag);
			const [now, then] = await Promise.all(
				[TRIGGER, saved].map(async (parameters) => [
					(await callTrigger(parameters, { method: 'GET', query: { a } })).page,
					(await tap(parameters, a, '0')).page,
				]),
			);
			expect(now).toEqual(then);
		}
	});

	test("Options → Texts per Language: empty by default; its languages are the Page Language's", async () => {
		const type = (await loadPackage()).getNode('omnichannelMessagingTrigger').type as INodeType;
		const all = type.description.properties.find((property) => property.name === 'options')!
			.options as INodeProperties[];
		const texts = all.find((option) => option.name === 'textsPerLanguage')!;
		expect(texts).toMatchObject({ type: 'fixedCollection', default: {} });
		const [entry] = texts.options as Array<{ values: INodeProperties[] }>;
		const language = entry.values.find((value) => value.name === 'language')!;
		const pageLanguage = all.find((option) => option.name === 'pageLanguage')!;
		expect(language.options).toEqual(
			pageLanguage.options!.filter((option) => 'value' in option && option.value !== 'browser'),
		);
		// Each text replaces the option of the same name, and is shown for the same response types.
		for (const value of entry.values.filter((given) =>
			all.some((option) => option.name === given.name),
		))
			expect([value.name, value.displayOptions]).toEqual([
				value.name,
				all.find((option) => option.name === value.name)!.displayOptions,
			]);
	});
});
