/*
 * The page in the customer's language, through n8n's engine: a broadcast's Answer Link reads each
 * recipient's language from an expression and seals it into the link; the trigger draws each
 * page (the question, the page after the answer, a refused link) in the link's language, with
 * its `lang` and `dir` and none of the English texts; Send and Wait's Page Language does the same
 * for its page. Whatever the input, it never fails an item: an unknown language is the default.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { linkKey, openLink, sealLink } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { ENGLISH, textsOf } from '../../nodes/OmnichannelMessaging/sendAndWait/texts';
import { FORM, post } from '../helpers/customForm';
import { API_KEY, sendTextTo, useFakeService } from '../helpers/fixtures';
import { callWebhook, triggerTarget } from '../helpers/webhookCall';
import type { WebhookRequest } from '../helpers/webhookCall';

const service = useFakeService();

const TRIGGER = '4f7c1a52-9a0e-4d43-8c55-0f1e2d3c4b5a';
const TRIGGER_URL = `https://n8n.example.com/webhook/${TRIGGER}`;
const TARGET = triggerTarget(TRIGGER);
const CREDENTIALS = { baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY };
const HOUR = 3_600_000;

/** Every English text of the page, cut at its places: none may show on another language's page. */
const ENGLISH_PIECES = Object.values(textsOf(ENGLISH))
	.flatMap((text) => (typeof text === 'string' ? [text] : Object.values(text)))
	.flatMap((text) => text.split(/\{\w+\}/))
	.map((piece) => piece.trim())
	.filter((piece) => piece.length >= 4);

/** The page's `lang`, `dir`, and the English pieces it shows (its text and attribute values). */
function language(page: string) {
	const [, lang, dir] = /<html lang="([^"]*)" dir="([^"]*)"/.exec(page) ?? [];
	const shown = page
		.replace(/<style>[\s\S]*?<\/style>/g, '')
		.replace(/<[^>]*\b(?:value|placeholder)="([^"]*)"[^>]*>/g, ' $1 ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, '&');
	return { lang, dir, english: ENGLISH_PIECES.filter((piece) => shown.includes(piece)) };
}

const CUSTOMERS = [
	{ id: '4001', locale: 'pt_BR', text: 'Você vem na terça?' },
	{ id: '4002', locale: 'Arabic', text: 'هل ستأتي يوم الثلاثاء؟' },
	{ id: '4003', locale: 'de-AT', text: 'Kommen Sie am Dienstag?' },
	{ id: '4004', locale: 'Klingon', text: '¿Vienes el martes?' },
	{ id: '4005', locale: 'browser', text: 'Venez-vous mardi ?' },
	{ id: '4006', locale: '', text: '¿Vienes el martes?' },
];

/** The trigger of the answer-link examples: a Choice, in Spanish where a link says nothing. */
const TRIGGER_PAGE: INodeParameters = {
	responseType: 'choice',
	choiceOptions: { values: [{ label: 'Sí / Sim / نعم / Ja / Oui' }, { label: 'Non / لا' }] },
	options: { pageLanguage: 'es', responseFormDescription: '¿Vienes? / Vem? / هل تأتي؟' },
};

async function broadcast(reference = '={{ $json.id }}') {
	const parameters = sendTextTo('={{ $json.id }}', '={{ $json.text }}', {
		options: {
			answerLink: {
				values: {
					triggerUrl: TRIGGER_URL,
					reference,
					validFor: 7,
					validForUnit: 'days',
					linkLabel: '',
					pageLanguage: '={{ $json.locale }}',
				},
			},
		},
	});
	const { output, error } = await service.run(parameters, { items: CUSTOMERS });
	expect(error).toBeUndefined();
	expect(output.map((item) => item.json.status)).toEqual(CUSTOMERS.map(() => 'sent'));
	return service.fake.requests.map((request) => String(request.body.text).split('\n').at(-1)!);
}

const tokenOf = (link: string) => new URL(link).searchParams.get('a')!;

async function open(link: string, request: Partial<WebhookRequest> = {}, page = TRIGGER_PAGE) {
	return await callWebhook(
		page,
		{ method: 'GET', credentials: CREDENTIALS, ...request, query: { a: tokenOf(link) } },
		TARGET,
	);
}

describe("per recipient: the Answer Link seals each item's Page Language", () => {
	test('read from the contact, any spelling; unknown or empty seal nothing and fail nothing', async () => {
		const links = await broadcast();
		const codes = links.map(
			(link) =>
				(
					openLink(tokenOf(link), linkKey(API_KEY, TRIGGER), new Date()) as {
						facts: { language?: number };
					}
				).facts.language,
		);
		expect(codes).toEqual([3, 12, 6, undefined, 255, undefined]);
	});

	test('a link with a language and a 64-character reference stays within 160 characters', async () => {
		const links = await broadcast(`=${'r'.repeat(64)}`);
		for (const link of links) expect(link.length - TRIGGER_URL.length).toBeLessThanOrEqual(160);
	});

	test("the trigger draws each link's page in its language: lang, dir, none of the English", async () => {
		const links = await broadcast();
		const pages = await Promise.all(
			links.map(async (link) =>
				language((await open(link, { headers: { 'accept-language': 'fr-CA,fr;q=0.9' } })).page),
			),
		);
		expect(pages.map(({ lang, dir }) => `${lang} ${dir}`)).toEqual([
			'pt-BR ltr',
			'ar rtl',
			'de ltr',
			'es ltr',
			'fr ltr',
			'es ltr',
		]);
		for (const page of pages) expect(page.english).toEqual([]);
	});

	test("the page after the answer is in the link's language, or in the builder's words", async () => {
		const [ptBR, ar] = await broadcast();
		const answer = (link: string, page = TRIGGER_PAGE) =>
			callWebhook(
				page,
				{
					method: 'POST',
					credentials: CREDENTIALS,
					query: { a: tokenOf(link) },
					body: { choice: '0' },
				},
				TARGET,
			);
		const recorded = await answer(ptBR);
		expect(recorded.status).toBe(200);
		expect(recorded.page).toContain('<title>Resposta registrada</title>');
		expect(recorded.page).toContain('Registramos sua resposta: Sí / Sim');
		expect(recorded.page).toContain('Você já pode fechar esta página.');
		expect(language(recorded.page).english).toEqual([]);
		expect(recorded.result.workflowData?.[0][0].json.data).toMatchObject({
			choice: 'Sí / Sim / نعم / Ja / Oui',
		});
		const own = await answer(ar, {
			...TRIGGER_PAGE,
			options: {
				...(TRIGGER_PAGE.options as IDataObject),
				completionTitle: 'شكرًا',
				completionMessage: 'نراك الثلاثاء.',
			},
		});
		expect(language(own.page)).toMatchObject({ lang: 'ar', dir: 'rtl', english: [] });
		expect(own.page).toContain('<title>شكرًا</title>');
		expect(own.page).toContain('<p dir="auto">نراك الثلاثاء.</p>');
		expect(own.page).not.toContain('يمكنك إغلاق هذه الصفحة الآن.');
	});
});

describe("a refused link's page", () => {
	test("a changed link: the browser's language where the page has it, else the trigger's", async () => {
		const [link] = await broadcast();
		const changed = `${link.slice(0, -3)}xyz`;
		const arabic = await open(changed, {
			headers: { 'accept-language': 'ar-SA,ar;q=0.9,en;q=0.1' },
		});
		expect(arabic.status).toBe(400);
		expect(language(arabic.page)).toEqual({ lang: 'ar', dir: 'rtl', english: [] });
		expect(arabic.page).toContain('هذا الرابط غير صالح');
		const unknown = await open(changed, { headers: { 'accept-language': 'sv-SE' } });
		expect(language(unknown.page)).toEqual({ lang: 'es', dir: 'ltr', english: [] });
		expect(unknown.page).toContain('Este enlace no es válido');
	});

	test("an expired 0.2.0 link: the trigger's language; the builder's Refusal Message where set", async () => {
		const now = Date.now();
		const token = sealLink(
			{
				recipient: { customerId: '4001' },
				reference: 'r',
				sentAt: new Date(now - 2 * HOUR),
				expiresAt: new Date(now - HOUR),
			},
			linkKey(API_KEY, TRIGGER),
		);
		const link = `${TRIGGER_URL}?a=${token}`;
		const expired = await open(link);
		expect(expired.status).toBe(410);
		expect(language(expired.page)).toEqual({ lang: 'es', dir: 'ltr', english: [] });
		expect(expired.page).toContain('Este enlace expiró');
		const options = {
			...(TRIGGER_PAGE.options as IDataObject),
			refusalMessage: 'Llámanos al 900 100 200.',
		};
		const own = await open(link, {}, { ...TRIGGER_PAGE, options });
		expect(own.page).toContain('<p dir="auto">Llámanos al 900 100 200.</p>');
		expect(own.page).not.toContain('caducado');
	});
});

describe("Send and Wait's Page Language", () => {
	const CHOICE: INodeParameters = {
		resource: 'whatsappTemplate',
		operation: 'sendAndWait',
		responseType: 'choice',
		choiceOptions: { values: [{ label: 'Terça de manhã' }, { label: 'Quarta à tarde' }] },
		options: { pageLanguage: 'pt-BR', responseFormDescription: 'Quando podemos ir?' },
	};

	test('Portuguese (Brazil): the Choice page, a tap that is no button, the page after the answer', async () => {
		const page = await callWebhook(CHOICE, { method: 'GET' });
		expect(language(page.page)).toEqual({ lang: 'pt-BR', dir: 'ltr', english: [] });
		expect(page.page).toContain('<title>Sua resposta</title>');
		const wrong = await callWebhook(CHOICE, { method: 'POST', body: { choice: '7' } });
		expect(wrong.page).toContain('Nada foi registrado: toque em um dos botões abaixo.');
		const recorded = await callWebhook(CHOICE, { method: 'POST', body: { choice: '1' } });
		expect(language(recorded.page)).toEqual({ lang: 'pt-BR', dir: 'ltr', english: [] });
		expect(recorded.page).toContain('Registramos sua resposta: Quarta à tarde');
		expect(recorded.result.workflowData?.[0][0].json.data).toMatchObject({
			choice: 'Quarta à tarde',
		});
	});

	test('Arabic: a Custom Form of every field type, refused with its marks, right to left', async () => {
		const form = {
			...FORM,
			options: {
				pageLanguage: 'ar',
				responseFormTitle: 'مطالبة النفقات',
				responseFormButtonLabel: 'أرسل',
			},
		};
		const shown = await callWebhook(form, { method: 'GET' });
		expect(language(shown.page)).toEqual({ lang: 'ar', dir: 'rtl', english: [] });
		// The size keeps its own direction in the Arabic sentence: isolated (FSI…PDI).
		expect(shown.page).toContain('حتى \u206816');
		const refused = await callWebhook(
			form,
			post({ 'field-0': 'abc', 'field-5': 'x@', 'form-end': '1' }),
		);
		expect(refused.status).toBe(400);
		expect(language(refused.page)).toEqual({ lang: 'ar', dir: 'rtl', english: [] });
		expect(refused.page).toContain('لم يُسجَّل شيء: صحّح الحقول المشار إليها أدناه');
		expect(refused.page).toContain('أدخل رقمًا.');
		expect(refused.page).toMatch(/<input type="text" id="field-0"[^>]* value="abc"/);
		expect(refused.page).toContain('أدخل عنوان بريد إلكتروني');
	});

	test("From the Customer's Browser: the first language the page has, else English", async () => {
		const browser = { ...CHOICE, options: { pageLanguage: 'browser' } };
		const turkish = await callWebhook(browser, {
			method: 'GET',
			headers: { 'accept-language': 'sv;q=0.9, tr;q=0.8, de;q=0.7' },
		});
		expect(language(turkish.page)).toMatchObject({ lang: 'tr', english: [] });
		const none = await callWebhook(browser, {
			method: 'GET',
			headers: { 'accept-language': 'sv' },
		});
		expect(language(none.page).lang).toBe('en');
	});

	test('an expression that resolves to junk is English, and the page still answers', async () => {
		const junk = { ...CHOICE, options: { pageLanguage: '={{ $json.nothing }}' } };
		const page = await callWebhook(junk, { method: 'GET', item: { nothing: 'zz-ZZ' } });
		expect(page.status).toBe(200);
		expect(language(page.page).lang).toBe('en');
		expect(page.page).toContain('<title>Your answer</title>');
		// The English the other pages are checked for is found where it is.
		expect(language(page.page).english).toContain('Your answer');
	});
});
