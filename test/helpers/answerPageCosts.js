'use strict';
/*
 * What each answer page costs to serve, in the n8n of test/e2e/answerLinks.e2e.js: a trigger per
 * response type (Approval, Choice, Free Text, Custom Form with every field type, and the same
 * form with every input at its limit: 50,000 characters of crafted Custom HTML, 20,000 of crafted
 * CSS), each link's page fetched one request at a time, and the page after an answer (recorded)
 * and the page of a changed link (refused). Per page: its time to first byte (the request sent
 * until the status line arrives), n8n's CPU for it (the recorded page's includes the execution
 * the answer starts) and its bytes, uncompressed. The types alternate in every run.
 * `npm run test:e2e`: 3 of each, one run, no time checked; `npm run bench:answer-links --
 * --pages`: ANSWER_PAGES_RUNS runs of ANSWER_PAGES_FETCHES.
 */
const crypto = require('node:crypto');
const http = require('node:http');

const n8n = require('../../scripts/lib/n8n');
const { median, spread, treeCpuMs } = require('../../scripts/bench/measure');
const { CREDENTIAL, chain, createActiveWorkflow, waitForWebhook } = require('../e2e/support');
const { BROWSER_AGENT } = require('../e2e/sendAndWait.support');
const { customers } = require('./askMany');
const scale = require('./answerLinksAtScale');

/** Runs, and fetches of each page in a run (ANSWER_PAGES_* for the bench). */
function answerPagesSizes(env = process.env) {
	const runs = Number(env.ANSWER_PAGES_RUNS ?? 1);
	const fetches = Number(env.ANSWER_PAGES_FETCHES ?? 3);
	if (!(runs >= 1 && fetches >= 1))
		throw new Error(`answer pages: ${runs} runs, ${fetches} fetches`);
	return { runs, fetches };
}

const options = (values) => ({ values: values.map((option) => ({ option })) });

/** One field of every type n8n's Form node has, as a builder sets them. */
const EVERY_FIELD = [
	{ fieldLabel: 'Name', fieldType: 'text', requiredField: true, placeholder: 'Anna' },
	{ fieldLabel: 'Notes', fieldType: 'textarea' },
	{ fieldLabel: 'Guests', fieldType: 'number' },
	{ fieldLabel: 'Email', fieldType: 'email' },
	{ fieldLabel: 'PIN', fieldType: 'password' },
	{ fieldLabel: 'Day', fieldType: 'date' },
	{ fieldLabel: 'Room', fieldType: 'dropdown', fieldOptions: options(['North', 'South']) },
	{ fieldLabel: 'Extras', fieldType: 'checkbox', fieldOptions: options(['Parking', 'Lunch']) },
	{ fieldLabel: 'Paid with', fieldType: 'radio', fieldOptions: options(['Card', 'Cash']) },
	{ fieldLabel: 'Receipt', fieldType: 'file', acceptFileTypes: '.pdf' },
	{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'crm' },
	{ fieldType: 'html', elementName: 'notice', html: '<p>Read <b>this</b> first.</p>' },
];

// Inputs at their limits, crafted against the sanitizers (test/unit/sendAndWait/hardening.test.ts).
const LARGEST_HTML = `<p>${'<b>a</i>'.repeat(6_249)}`.slice(0, 50_000);
const LARGEST_CSS = `${'.x{color:red}u'.repeat(1_300)}rl(`.padEnd(20_000, 'a').slice(0, 20_000);

const TYPES = {
	approval: {
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'double' } },
		options: { responseFormDescription: 'Can you come on Tuesday at 10:00?' },
	},
	choice: {
		responseType: 'choice',
		choiceOptions: { values: scale.CHOICES.map((label) => ({ label })) },
		options: { responseFormDescription: 'Your appointment: will you come?' },
	},
	freeText: {
		responseType: 'freeText',
		options: { responseFormDescription: 'What should we change?' },
	},
	customForm: {
		responseType: 'customForm',
		formFields: { values: EVERY_FIELD },
		options: { responseFormTitle: 'Your booking', responseFormDescription: 'Tell us more.' },
	},
	largest: {
		responseType: 'customForm',
		formFields: {
			values: [...EVERY_FIELD, { fieldType: 'html', elementName: 'terms', html: LARGEST_HTML }],
		},
		options: {
			responseFormTitle: 'T'.repeat(200),
			responseFormDescription: 'D '.repeat(2_000),
			responseFormCustomCss: LARGEST_CSS,
		},
	},
};

function triggerWorkflow(kind, webhookId) {
	return chain(`E2eAnswerPages-${kind}`, `answer pages: ${kind}`, [
		{
			name: 'On Answer',
			type: `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`,
			typeVersion: 1,
			webhookId,
			parameters: TYPES[kind],
			credentials: { [n8n.CREDENTIAL_TYPE]: { ...CREDENTIAL } },
		},
		{ name: 'Answered', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/** One request over a new connection: its status, time to first byte and body bytes. */
function timed(link, method = 'GET', body = undefined) {
	return new Promise((resolve, reject) => {
		const headers = { 'user-agent': BROWSER_AGENT };
		if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
		const started = process.hrtime.bigint();
		const request = http.request(link, { method, headers, agent: false }, (response) => {
			const ttfbMs = Number(process.hrtime.bigint() - started) / 1e6;
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => {
				const page = Buffer.concat(chunks);
				resolve({ status: response.statusCode, ttfbMs, bytes: page.length, text: page.toString() });
			});
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end(body);
	});
}

/** The link with one character of its token changed (still well formed): a refused link. */
function changed(link) {
	const at = link.indexOf('?a=') + 20;
	return link.slice(0, at) + (link[at] === 'A' ? 'B' : 'A') + link.slice(at + 1);
}

/** The tests. `ctx`: `rest`, `baseUrl`, `n8nPid`, `fake` and `figures`, as the file's beforeAll sets them. */
function answerPagesTests(ctx, { runs, fetches }) {
	const kinds = Object.keys(TYPES);
	const ids = Object.fromEntries(kinds.map((kind) => [kind, crypto.randomUUID()]));
	const pages = [...kinds, 'recorded', 'refused'];
	const people = customers(runs * fetches + 1, 10);
	const linkOf = {};
	const figures = (ctx.figures.pages = { runs, fetches });

	describe(`answer pages: ${fetches} fetches of each, ${runs} run${runs > 1 ? 's' : ''}`, () => {
		beforeAll(async () => {
			for (const kind of kinds) {
				const triggerUrl = `${ctx.baseUrl}/webhook/${ids[kind]}`;
				await createActiveWorkflow(ctx.rest, triggerWorkflow(kind, ids[kind]));
				const send = `al-pages-${kind}`;
				await createActiveWorkflow(
					ctx.rest,
					scale.broadcastWorkflow(send, { link: { triggerUrl } }),
				);
				await waitForWebhook(`${ctx.baseUrl}/webhook/${send}`);
				await waitForWebhook(triggerUrl);
				ctx.fake.reset();
				const response = await fetch(`${ctx.baseUrl}/webhook/${send}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ customers: kind === 'choice' ? people : people.slice(0, 1) }),
				});
				expect(response.status).toBe(200);
				const { byPhone } = scale.acceptedSends(ctx.fake.requests);
				linkOf[kind] = people.map((c) => byPhone.get(c.phone)?.[0]).filter(Boolean);
			}
		}, 300_000);

		test(
			'every page type, the page after an answer and a refused link: served, with their time to first byte and bytes',
			async () => {
				const samples = Object.fromEntries(pages.map((page) => [page, []]));
				const cpuOf = Object.fromEntries(pages.map((page) => [page, []]));
				let answer = 0;
				const fetchOf = {
					recorded: () => timed(linkOf.choice[++answer], 'POST', 'choice=1'),
					refused: () => timed(changed(linkOf.approval[0])),
				};
				for (let run = 0; run < runs; run++) {
					for (const page of run % 2 === 0 ? pages : [...pages].reverse()) {
						const cpu = treeCpuMs(ctx.n8nPid);
						for (let i = 0; i < fetches; i++) {
							const got = await (fetchOf[page] ?? (() => timed(linkOf[page][0])))();
							samples[page].push(got);
						}
						cpuOf[page].push((treeCpuMs(ctx.n8nPid) - cpu) / fetches);
					}
				}
				const expected = (page) => (page === 'refused' ? 400 : 200);
				for (const page of pages) {
					expect([page, samples[page].filter((s) => s.status !== expected(page)).length]).toEqual([
						page,
						0,
					]);
					const mark = { recorded: 'Recorded: Reschedule', refused: 'not valid' }[page] ?? '<form';
					expect([page, samples[page].every((s) => s.text.includes(mark))]).toEqual([page, true]);
				}
				figures.ttfbMs = Object.fromEntries(
					pages.map((p) => [p, Math.round(median(samples[p].map((s) => s.ttfbMs)) * 10) / 10]),
				);
				figures.cpuMs = Object.fromEntries(pages.map((p) => [p, spread(cpuOf[p], 1)]));
				figures.maxTtfbMs = Object.fromEntries(
					pages.map((p) => [p, Math.round(Math.max(...samples[p].map((s) => s.ttfbMs)))]),
				);
				figures.bytes = Object.fromEntries(
					pages.map((p) => [p, [...new Set(samples[p].map((s) => s.bytes))].join('/')]),
				);
			},
			120_000 + runs * fetches * pages.length * 2_000,
		);
	});
}

module.exports = { answerPagesSizes, answerPagesTests };
