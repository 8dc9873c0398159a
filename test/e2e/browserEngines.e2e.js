'use strict';
/*
 * The answer page in the three engines customers' phones run: Chromium (Blink), Firefox ESR
 * (Gecko) and WebKit (WebKitGTK's MiniBrowser, Safari's engine), each driven as a person on a
 * screen 320 pixels wide (scripts/lib/engines.js), against a real n8n and the fake service. Each
 * page is opened, refused (an answer the webhook turns down: the page shows it again with what to
 * fix; Approval's link allows none) and answered, and the answer is the execution's output; every
 * page shown is in its language (`lang`, `dir`, none of the English texts in Arabic), no wider
 * than the screen, and passes axe-core's WCAG 2.1 A/AA rules in that engine. An answer link's
 * refusals (expired, changed) are shown too.
 *
 * In `npm run test:e2e`, a small form: per engine the Arabic form of every field type and the
 * English Choice, and an expired link. `npm run test:engines` (ENGINES_MATRIX=full) runs every
 * type in English and Arabic, and both link refusals in both. n8n 2.x only: the page is the same
 * on 1.x, which the other browser tests cover in Chromium.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { startFakeService } = require('../fake-service');
const { sandboxTemplates } = require('../fake-service/seed');
const { startEngines, ENGINES } = require('../../scripts/lib/engines');
const support = require('./support');
const { askWorkflow, executionWhen, lastOutput, RECEIPT } = require('./sendAndWait.support');
const { EVERY_TYPE_WORDS, everyTypeFields, PHOTO } = require('../helpers/everyTypeForm');
const {
	pageFacts,
	triggerWorkflow,
	broadcastWorkflow,
	changedToken,
} = require('./pageLanguage.support');

const FULL = process.env.ENGINES_MATRIX === 'full';
// A form answered in WebKit took 60 s on a busy machine (jest.e2e.config.js gives 90 s).
jest.setTimeout(180_000);
const LANGUAGES = ['en', 'ar'];
const TRIGGER_ID = '7d1d4c8e-5f8a-4c3e-9d55-3f1f4e2b9a01';

/** The builder's words of the button pages, per language (the form's: EVERY_TYPE_WORDS). */
const WORDS = {
	en: { question: 'When can the technician come?', choices: ['Monday 9:00', 'Tuesday 14:00'] },
	ar: { question: 'متى يمكن أن يأتي الفني؟', choices: ['الاثنين 9:00', 'الثلاثاء 14:00'] },
};

const ask = (language, customerId, more) => ({
	resource: 'message',
	customerId,
	message: WORDS[language].question,
	...more,
	options: { pageLanguage: language, ...more.options },
});

/** Send and Wait of each response type in each language, each its own workflow. */
const WORKFLOWS = Object.fromEntries(
	LANGUAGES.flatMap((language, index) => {
		const id = (type) => `E2eEngines${type}${language}`.padEnd(16, '0').slice(0, 16);
		const form = EVERY_TYPE_WORDS[language];
		const path = (type) => `engines-${type}-${language}`;
		return [
			[
				`approval ${language}`,
				askWorkflow(id('Appr'), path('approval'), {
					...ask(language, `910${index}`, {
						approvalOptions: { values: { approvalType: 'double' } },
					}),
				}),
			],
			[
				`choice ${language}`,
				askWorkflow(id('Choi'), path('choice'), {
					...ask(language, `920${index}`, {
						responseType: 'choice',
						choiceOptions: { values: WORDS[language].choices.map((label) => ({ label })) },
					}),
				}),
			],
			[
				`free text ${language}`,
				askWorkflow(id('Free'), path('free-text'), {
					...ask(language, `930${index}`, { responseType: 'freeText' }),
				}),
			],
			[
				`form ${language}`,
				askWorkflow(id('Form'), path('form'), {
					...ask(language, `940${index}`, {
						responseType: 'customForm',
						defineForm: 'json',
						jsonOutput: JSON.stringify(everyTypeFields(form)),
						options: {
							responseFormTitle: form.title,
							responseFormButtonLabel: form.button,
						},
					}),
				}),
			],
		];
	}),
);
const TRIGGER = triggerWorkflow('E2eEnginesTrig01', TRIGGER_ID, {
	responseType: 'approval',
	options: { pageLanguage: 'en' },
});
const BROADCAST = broadcastWorkflow('engines-broadcast');

/** The files a person picks, written where the browsers can read them. */
const FILES = path.join(n8n.REPO_ROOT, '.tmp', 'engine-files');

const FIRST_BUTTON = 'form button:nth-of-type(1)';

/**
 * What a person does on each page type: `refuse` gives an answer the webhook turns down (a button
 * of a page sent earlier, spaces in a required field, one extra too many), `answer` a good one;
 * `output` is what n8n's output of that answer holds.
 */
const PEOPLE = {
	// The message's Approve link signs `approved=true` into itself, and the signed value wins over
	// the form's: no answer through it is refused. Its page is one button, which confirms.
	approval: {
		answer: (tab) => tab.press('button[value="true"]'),
		output: () => ({ approved: true }),
	},
	choice: {
		refuse: async (tab) => {
			await tab.setAttribute(FIRST_BUTTON, 'value', '9');
			await tab.press(FIRST_BUTTON);
		},
		answer: (tab) => tab.press('form button:nth-of-type(2)'),
		output: (language) => ({ choice: WORDS[language].choices[1] }),
	},
	'free text': {
		refuse: async (tab) => {
			await tab.fill('#field-0', '   ');
			await tab.press('button[type="submit"]');
		},
		answer: async (tab) => {
			await tab.fill('#field-0', 'Thanks, 42');
			await tab.press('button[type="submit"]');
		},
		output: () => ({ text: 'Thanks, 42' }),
	},
	form: {
		refuse: async (tab, engine, language) => {
			await fillForm(tab, EVERY_TYPE_WORDS[language], { name: '   ', extras: [0, 1, 2] });
			await tab.press('button[type="submit"]');
		},
		answer: async (tab, engine, language) => {
			await fillForm(tab, EVERY_TYPE_WORDS[language], { name: 'Layla K', extras: [1, 2] });
			await tab.attach('#field-12', [path.join(FILES, RECEIPT.name)]);
			await tab.attach('#field-13', [path.join(FILES, PHOTO.name)]);
			await tab.press('button[type="submit"]');
		},
		output: (language) => {
			const words = EVERY_TYPE_WORDS[language];
			const [name, , , quantity, email] = words.labels;
			return {
				[name]: 'Layla K',
				[quantity]: 3,
				[email]: 'layla@example.com',
				[words.colour[0]]: words.colour[2],
				[words.sizes[0]]: words.sizes.slice(2),
				[words.extras[0]]: words.extras.slice(2),
				[words.delivery[0]]: words.delivery[1],
				[words.files[0]]: { filename: RECEIPT.name },
				[words.files[1]]: [{ filename: PHOTO.name }],
			};
		},
	},
};

/**
 * The every-type form filled as a person does: typed, chosen and tapped; the date left empty (each
 * engine types a date its own way).
 */
async function fillForm(tab, words, { name, extras }) {
	await tab.fill('#field-0', name);
	await tab.fill('#field-3', '3');
	await tab.fill('#field-4', 'layla@example.com');
	await tab.select('#field-6', [words.colour[2]]);
	await tab.select('#field-7', words.sizes.slice(2));
	for (const index of extras) await tab.click(`#field-8-${index}`);
	await tab.click('#field-9-0');
}

/** The page types of this run, the small form's or the full matrix's: [type, language, steps]. */
const CASES = (
	FULL
		? Object.keys(PEOPLE).flatMap((type) => LANGUAGES.map((language) => [type, language]))
		: [
				['form', 'ar'],
				['choice', 'en'],
			]
).map(([type, language]) => [
	type,
	language,
	PEOPLE[type].refuse ? 'opened, refused, answered' : 'opened, answered',
]);

/** The answer links' customers, one per language: the trigger's page is in the link's. */
const CUSTOMERS = LANGUAGES.map((locale, index) => ({
	phone: `+49 151 2345 67${10 + index}`,
	name: 'Layla',
	appointment: `APT-${index}`,
	locale,
}));

let fake;
let server;
let rest;
let engines;
/** Answer links by language: valid for 3 seconds (expired from `expiredAt` on), and for an hour. */
const links = {};

beforeAll(async () => {
	if (process.env.N8N_PIN) return;
	fs.mkdirSync(FILES, { recursive: true });
	for (const file of [RECEIPT, PHOTO]) fs.writeFileSync(path.join(FILES, file.name), file.content);
	const log = (line) => process.stderr.write(`${line}\n`);
	[fake, engines] = await Promise.all([
		startFakeService({ apiKey: support.API_KEY, templates: sandboxTemplates() }),
		startEngines({ log }),
	]);
	const { env } = await support.n8nWithCredentials(
		'e2e-engines',
		[support.credentialFor(fake.url)],
		{
			logLevel: 'warn',
		},
	);
	({ server, rest } = await support.startServerLoggedIn(env, { timeoutMs: 240_000 }));
	const asked = CASES.map(([type, language]) => WORKFLOWS[`${type} ${language}`]);
	for (const workflow of [...asked, BROADCAST]) {
		await support.createActiveWorkflow(rest, workflow);
		await support.waitForWebhook(`${server.url}/webhook/${workflow.webhookPath}`);
	}
	await support.createActiveWorkflow(rest, TRIGGER);
	await support.waitForWebhook(`${server.url}/webhook/${TRIGGER_ID}`);
	// Sealed in whole seconds: expired 5 seconds after sending, whatever the rounding.
	links.expiredAt = Date.now() + 5000;
	links.expired = await linksFor(0.05);
	links.valid = await linksFor(60);
}, 420_000);

afterAll(async () => {
	await engines?.stop();
	await server?.stop();
	await fake?.close();
});

/** Starts a Send and Wait workflow; resolves with its link and execution once it waits. */
async function askOne(workflow) {
	const before = fake.sends().length;
	await support.callWebhook(`${server.url}/webhook/${workflow.webhookPath}`, {});
	const deadline = Date.now() + 20_000;
	while (fake.sends().length === before && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	const [link] = String(fake.sends()[before].body.text).match(/https?:\/\/\S+/g);
	const executionId = new URL(link).pathname.split('/')[2];
	await executionWhen(rest, executionId, (e) => e.status === 'waiting', { what: 'waiting' });
	return { link, executionId };
}

/** The broadcast's answer links, one per customer in CUSTOMERS' order, valid for the minutes given. */
async function linksFor(validForMinutes) {
	const before = fake.sends().length;
	const triggerUrl = `${server.url}/webhook/${TRIGGER_ID}`;
	const customers = CUSTOMERS.map((customer) => ({ ...customer, triggerUrl, validForMinutes }));
	await support.callWebhook(`${server.url}/webhook/${BROADCAST.webhookPath}`, { customers });
	const sent = fake.sends().slice(before);
	return Object.fromEntries(
		CUSTOMERS.map(({ locale }, i) => [locale, sent[i].body.attributes['3']]),
	);
}

/**
 * What the page shown says and how it fares in this engine: its language and direction, the
 * English texts on an Arabic page, whether it says what to fix (`role="alert"`), how much wider
 * than 320 px it lays out, and axe's violations.
 */
async function shown(tab, language) {
	const html = await tab.html();
	const facts = pageFacts(html);
	return {
		lang: facts.lang,
		dir: facts.dir,
		english: language === 'en' ? [] : facts.english,
		alert: /role="alert"/.test(html),
		violations: await tab.axe(),
		overflow: await tab.overflow(),
	};
}

/** What `shown` finds on a good page in `language`: one that says what to fix where `alert`. */
const good = (language, alert = false) => ({
	lang: language,
	dir: language === 'ar' ? 'rtl' : 'ltr',
	english: [],
	alert,
	violations: [],
	overflow: 0,
});

/**
 * An answer link's refusals: [refusal, language]. An expired link's page is in the link's
 * language; a changed link's in the browser's (Accept-Language), which a driver sets in Chromium
 * and Firefox. WebKitGTK's MiniBrowser sends `en-US` whatever WebDriver asks (LANGUAGE=ar in its
 * environment leaves it so): its Arabic page of a changed link is not shown here.
 */
const linkCases = (engine) =>
	(FULL
		? ['expired', 'changed'].flatMap((refusal) => LANGUAGES.map((language) => [refusal, language]))
		: [['expired', 'ar']]
	).filter(
		([refusal, language]) => !(engine === 'webkit' && refusal === 'changed' && language !== 'en'),
	);

const describeOn = process.env.N8N_PIN ? describe.skip : describe;

describeOn.each(ENGINES)('the answer page in %s at 320 px', (engine) => {
	test.each(CASES)('%s in %s: %s', async (type, language) => {
		const person = PEOPLE[type];
		const { link, executionId } = await askOne(WORKFLOWS[`${type} ${language}`]);
		const tab = await engines.tab(engine);
		const seen = {};
		const expected = { opened: good(language), answered: good(language) };
		try {
			await tab.open(link);
			seen.opened = await shown(tab, language);
			if (person.refuse) {
				await tab.open(link);
				await person.refuse(tab, engine, language);
				seen.refused = await shown(tab, language);
				expected.refused = good(language, true);
			}
			await tab.open(link);
			await person.answer(tab, engine, language);
			seen.answered = await shown(tab, language);
			expect(seen).toEqual(expected);
		} finally {
			await tab.close();
		}
		const execution = await executionWhen(
			rest,
			executionId,
			(e) => e.status === 'success' && lastOutput(e, 'Next') !== undefined,
			{ what: 'success with Next run', timeoutMs: 30_000 },
		);
		const [item] = lastOutput(execution, 'Next');
		expect(item.json.data).toMatchObject({
			...person.output(language, engine),
			respondedAt: expect.any(String),
		});
	});
});

describeOn.each(ENGINES)("an answer link's refusal in %s at 320 px", (engine) => {
	test.each(linkCases(engine))('%s, in %s', async (refusal, language) => {
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, links.expiredAt - Date.now())));
		const link =
			refusal === 'expired' ? links.expired[language] : changedToken(links.valid[language]);
		const tab = await engines.tab(engine, {
			language: refusal === 'changed' ? language : undefined,
		});
		try {
			await tab.open(link);
			expect(await shown(tab, language)).toEqual(good(language));
			expect(await tab.html()).not.toContain('<form');
		} finally {
			await tab.close();
		}
	});
});
