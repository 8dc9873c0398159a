import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import { LINK_PARAMETER, LinkKeys, openWithKeptKey } from '../answerLinks/token';
import type { LinkFacts } from '../answerLinks/token';
import { readAnswer, resumeItem } from './answer';
import type { AnswerConfig, AnswerOutcome } from './answer';
import { choiceButtons, readForm } from './formDefinition';
import { freeTextField } from './formFields';
import type { FormField } from './formFields';
import { PAGE_HEADERS, renderPage } from './page';
import type { AnswerButton, PageOptions } from './page';
import { MAX_CSS_LENGTH } from './sanitize';
import {
	BROWSER,
	ENGLISH,
	languageSetting,
	pageLanguageFor,
	say,
	settingOfLinkCode,
} from './texts';
import type { Language, LanguageSetting, TextKey } from './texts';

/*
 * Every link's entry, one page and one reader for both: Send and Wait's waiting URL (n8n checks
 * its signature, then calls the node's webhook) and the trigger's answer link (its token opened
 * here). The response type is read here, once, for sending and answering alike: Approval and
 * Choice are buttons, Free Text and Custom Form are a form.
 */

/** Reads a node parameter by name (execute: for item 0; webhook: n8n's own). */
export type ReadParameter = (name: string, fallback: string | unknown[]) => unknown;

/**
 * How an operation reads the question its page repeats: each knows what the person received (the
 * message, or the template's body), and this file stays free of the service's transport.
 */
export type ReadQuestion = (
	this: IWebhookFunctions,
	read: ReadParameter,
) => Promise<string | undefined>;

/** A label as given, or the fallback when it is empty or no text. */
function label(value: unknown, fallback: string): string {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

const optional = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The builder's words for every page (empty: the page language's own), in `language`. */
export function pageWords(read: ReadParameter, language: Language): PageOptions {
	return {
		language,
		title: optional(read('options.responseFormTitle', '')),
		description: optional(read('options.responseFormDescription', '')),
		completionTitle: optional(read('options.completionTitle', '')),
		completionMessage: optional(read('options.completionMessage', '')),
		refusalMessage: optional(read('options.refusalMessage', '')),
		buttonLabel: '',
		css: '',
	};
}

/** Texts per Language's texts, named as the defaults they replace (Choice Labels: the Labels shown). */
const CHOICE_LABELS = 'choiceLabels';
const IN_LANGUAGE = new Set([
	...['responseFormTitle', 'responseFormDescription', 'responseFormButtonLabel', 'refusalMessage'],
	...['completionTitle', 'completionMessage', 'approveLabel', 'disapproveLabel', CHOICE_LABELS],
]);

/**
 * The parameters as a page in `language` reads them: the builder's texts for it (Texts per Language;
 * an entry saved without a language is English, n8n's default) where given, else the defaults.
 */
export function wordsIn(read: ReadParameter, language: Language): ReadParameter {
	const entries = read('options.textsPerLanguage.values', []);
	const entry = (Array.isArray(entries) ? entries : []).find(
		(given: { language?: unknown } | null) =>
			languageSetting(given?.language ?? ENGLISH.tag) === language,
	) as Record<string, unknown> | undefined;
	if (!entry) return read;
	return (name, fallback) => {
		const key = name.slice(name.lastIndexOf('.') + 1);
		return (IN_LANGUAGE.has(key) && optional(entry[key])) || read(name, fallback);
	};
}

/** The form page's options (n8n's Response Form options); Free Text's button says Send. */
function readPageOptions(
	read: ReadParameter,
	language: Language,
	button: TextKey,
): Checked<PageOptions> {
	const css = read('options.responseFormCustomCss', '');
	if (typeof css === 'string' && css.length > MAX_CSS_LENGTH)
		return refused(
			`the CSS is longer than ${MAX_CSS_LENGTH} characters`,
			'Response Form Custom Styling',
		);
	return accepted({
		...pageWords(read, language),
		buttonLabel: optional(read('options.responseFormButtonLabel', '')) ?? say(language, button),
		css: typeof css === 'string' ? css : '',
	});
}

/** The approval's buttons, Approve first, each with n8n's output and link value. */
function approvalButtons(read: ReadParameter, language: Language): AnswerButton[] {
	const approve: AnswerButton = {
		label: label(read('approvalOptions.values.approveLabel', ''), say(language, 'approve')),
		value: 'true',
		output: { approved: true },
		primary: true,
	};
	if (read('approvalOptions.values.approvalType', 'single') !== 'double') return [approve];
	const disapprove = label(
		read('approvalOptions.values.disapproveLabel', ''),
		say(language, 'decline'),
	);
	return [approve, { label: disapprove, value: 'false', output: { approved: false } }];
}

/** Custom Form's fields, or what is wrong with them, naming the setting to change. */
function readFields(read: ReadParameter): Checked<FormField[]> {
	const defineForm = read('defineForm', 'fields');
	const form = readForm(defineForm, read('jsonOutput', ''), read('formFields.values', []));
	if (form.ok) return form;
	return refused(form.reason, defineForm === 'json' ? 'Form Fields' : 'Form Elements');
}

/** The node's own Page Language, as set (any spelling; junk is none, so English). */
export const ownLanguage = (read: ReadParameter): LanguageSetting =>
	languageSetting(read('options.pageLanguage', ''));

/**
 * The answer's configuration, or why it cannot be used, with the setting to change: a response
 * type this node does not know is refused, not guessed, and so is a form that cannot be built.
 * Its words are `language`'s: by default the node's Page Language, English where that is the
 * customer's browser (a message has no browser).
 */
export function readAnswerConfig(
	read: ReadParameter,
	language: Language = pageLanguageFor(undefined, undefined, ownLanguage(read)),
): Checked<AnswerConfig> {
	const responseType = read('responseType', 'approval');
	const linkLabel = label(read('options.messageButtonLabel', ''), say(language, 'respond'));
	// A page of buttons is n8n's plain one: no button label of its own and no CSS.
	const plainPage = () => pageWords(read, language);
	if (responseType === 'approval')
		return accepted({
			kind: 'buttons',
			name: 'approved',
			buttons: approvalButtons(read, language),
			page: plainPage(),
		});
	// Up to ten options would be ten links in the message: it carries one, to the page of buttons.
	if (responseType === 'choice') {
		const buttons = choiceButtons(read('choiceOptions.values', []), read(CHOICE_LABELS, ''));
		if (!buttons.ok) return buttons;
		const page = plainPage();
		return accepted({ kind: 'buttons', name: 'choice', buttons: buttons.value, linkLabel, page });
	}
	if (responseType !== 'freeText' && responseType !== 'customForm')
		return refused(
			`${JSON.stringify(responseType)} is not Approval, Choice, Free Text or Custom Form`,
			'Response Type',
		);
	const freeText = responseType === 'freeText';
	const fields = freeText
		? accepted([freeTextField(say(language, 'freeTextLabel'))])
		: readFields(read);
	if (!fields.ok) return fields;
	const page = readPageOptions(read, language, freeText ? 'send' : 'submit');
	if (!page.ok) return page;
	return accepted({ kind: 'form', fields: fields.value, linkLabel, page: page.value });
}

/** What of n8n's (express) response the page needs: Node's own response methods. */
interface PageResponse {
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

/** A parameter as n8n resolves it for the webhook; one that cannot be read is the fallback. */
function readParameter(
	functions: IWebhookFunctions,
	name: string,
	fallback: string | unknown[],
): unknown {
	try {
		return functions.getNodeParameter(name, fallback as string);
	} catch {
		return fallback;
	}
}

/**
 * The language of a page: the link's (an answer link's own), else the node's Page Language; the
 * languages the customer's browser asks for (Accept-Language) where either says so.
 */
function languageOf(functions: IWebhookFunctions, read: ReadParameter, link?: LanguageSetting) {
	const header = functions.getRequestObject().headers?.['accept-language'];
	return pageLanguageFor(link, header, ownLanguage(read));
}

/** The request as the reader takes it; its query only where n8n signed it (`signedQuery`). */
function answerOf(
	functions: IWebhookFunctions,
	config: AnswerConfig,
	signedQuery: boolean,
): AnswerOutcome {
	const request = functions.getRequestObject();
	return readAnswer(
		{
			method: String(request.method).toUpperCase(),
			query: signedQuery ? ((request.query ?? {}) as IDataObject) : {},
			body: request.method === 'POST' ? (functions.getBodyData() ?? {}) : {},
			multipart: request.contentType === 'multipart/form-data',
		},
		config,
		new Date(),
	);
}

/**
 * The question on a page that shows the buttons or the form, read only there and only when no
 * description replaces it: a template's body costs a request to the service. A question that
 * cannot be read leaves the page without it; the reason is the builder's, not the person's, and
 * the page is the person's only way to answer.
 */
async function withQuestion(
	functions: IWebhookFunctions,
	outcome: AnswerOutcome,
	page: PageOptions,
	readQuestion: ReadQuestion,
): Promise<AnswerOutcome> {
	const { view } = outcome;
	if ((view.kind !== 'buttons' && view.kind !== 'form') || page.description !== undefined)
		return outcome;
	const read: ReadParameter = (name, fallback) => readParameter(functions, name, fallback);
	let question: string | undefined;
	try {
		question = await readQuestion.call(functions, read);
	} catch {
		return outcome;
	}
	return question?.trim() ? { ...outcome, view: { ...view, question } } : outcome;
}

/** What a recorded answer's item becomes: as it is for Send and Wait, with more for the trigger. */
export type ShapeItem = (item: INodeExecutionData) => INodeExecutionData;

/**
 * The node writes the answer page itself, in the page's language (`link`: an answer link's);
 * only a recorded answer resumes the execution, with n8n's output item (`shape` adds to it: the
 * Omnichannel Messaging Trigger's answer starts one).
 * `signedQuery` says whether n8n checked the query's signature (Send and Wait's waiting URL, whose
 * Approval links sign the answer into it). The trigger's query is the sender's own: there only
 * the page's form answers.
 */
export async function sendAndWaitWebhook(
	this: IWebhookFunctions,
	readQuestion: ReadQuestion,
	shape: ShapeItem = (item) => item,
	signedQuery = true,
	link?: LanguageSetting,
): Promise<IWebhookResponseData> {
	const given: ReadParameter = (name, fallback) => readParameter(this, name, fallback);
	const language = languageOf(this, given, link);
	const read = wordsIn(given, language);
	const config = readAnswerConfig(read, language);
	const reason = say(language, 'cannotAnswer');
	const outcome: AnswerOutcome = config.ok
		? await withQuestion(
				this,
				answerOf(this, config.value, signedQuery),
				config.value.page,
				readQuestion,
			)
		: { status: 400, view: { kind: 'refused', reason } };
	// The files are copied before the page is sent: n8n removes them once the request ends.
	const item = outcome.data
		? await resumeItem(this, outcome.uploads ?? [], outcome.data)
		: undefined;
	const response = this.getResponseObject() as unknown as PageResponse;
	response.writeHead(outcome.status, { ...PAGE_HEADERS });
	response.end(renderPage(outcome.view, config.ok ? config.value.page : pageWords(read, language)));
	if (!item) return { noWebhookResponse: true };
	return { noWebhookResponse: true, workflowData: [[shape(item)]] };
}

/*
 * The Omnichannel Messaging Trigger's webhook: an answer link opens Send and Wait's own page
 * (the same reader, checks and headers), and its POST starts one execution with the answer and
 * what the link was sealed with. A link that does not open, or has expired, gets a page that
 * says so, and starts nothing. A GET never starts anything: link previews fetch every link.
 */

/** What the person reads when the link cannot be answered; nothing of the link's content. */
const REFUSALS: Record<'invalid' | 'expired' | 'unusable', TextKey> = {
	invalid: 'linkInvalid',
	expired: 'linkExpired',
	unusable: 'linkUnusable',
};

/** The trigger's page has no message to repeat: its question is the Response Form Description. */
const noQuestion: ReadQuestion = async () => undefined;

/**
 * The last segment of the trigger's own path, for which the link was sealed (token.ts): its
 * webhook ID, the path's only part. Read from the URL only where a node has none: n8n works the
 * URL out through an expression, a cost on every answer.
 */
function triggerSegment(functions: IWebhookFunctions): string {
	const { webhookId } = functions.getNode();
	if (webhookId) return webhookId;
	const url = functions.getNodeWebhookUrl('default') ?? '';
	const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
	return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** The keys of this process's triggers, kept for a minute, read again at most every 5 s (token.ts). */
const LINK_KEYS = new LinkKeys();

/**
 * A refused link's page, in `link`'s language (a link that cannot be read: the browser's), else
 * the trigger's; the builder's Refusal Message (in that language, where given) where set.
 */
function refuse(
	functions: IWebhookFunctions,
	status: number,
	reason: TextKey,
	link: LanguageSetting,
): IWebhookResponseData {
	const read: ReadParameter = (name, fallback) => readParameter(functions, name, fallback);
	const language = languageOf(functions, read, link);
	const page = pageWords(wordsIn(read, language), language);
	const response = functions.getResponseObject();
	response.writeHead(status, { ...PAGE_HEADERS });
	response.end(renderPage({ kind: 'refused', reason: say(language, reason) }, page));
	return { noWebhookResponse: true };
}

/** The answer's item: Send and Wait's `data`, then who answered, about what, and when. */
function answerItem(facts: LinkFacts, answerKey: string) {
	return (item: INodeExecutionData): INodeExecutionData => {
		const data = item.json.data as { respondedAt?: string } | undefined;
		return {
			...item,
			json: {
				data: item.json.data,
				recipient: { ...facts.recipient },
				reference: facts.reference,
				sentAt: facts.sentAt.toISOString(),
				answeredAt: data?.respondedAt ?? null,
				answerKey,
			},
		};
	};
}

/**
 * One request to the trigger: the link's token is opened at `now` with the key of the
 * credential's API key (`readApiKey`, called only as token.ts's LinkKeys allow); a refused link is said on
 * the page, and the page of a good one is Send and Wait's. The same link can be answered again:
 * the webhook has no store to remember it in, so each answer starts an execution with the link's
 * answerKey for the workflow to tell repeats (n8n's Remove Duplicates node keeps the first).
 */
export async function answerLinkWebhook(
	this: IWebhookFunctions,
	credential: string | undefined,
	readApiKey: () => Promise<string | undefined>,
	now: Date = new Date(),
): Promise<IWebhookResponseData> {
	const query = this.getRequestObject().query as Record<string, unknown> | undefined;
	const source = { credential, trigger: triggerSegment(this), readApiKey };
	const link = await openWithKeptKey(query?.[LINK_PARAMETER], source, LINK_KEYS, now);
	if (!link) return refuse(this, 500, REFUSALS.unusable, undefined);
	// An expired link's page in its own language; a changed one's in the browser's.
	if (!link.ok && link.reason === 'expired')
		return refuse(this, 410, REFUSALS.expired, settingOfLinkCode(link.language));
	if (!link.ok) return refuse(this, 400, REFUSALS.invalid, BROWSER);
	const item = answerItem(link.facts, link.answerKey);
	return await sendAndWaitWebhook.call(
		this,
		noQuestion,
		item,
		false,
		settingOfLinkCode(link.facts.language),
	);
}
