'use strict';
/*
 * Answer links at scale, in the n8n of test/e2e/answerLinks.e2e.js, against its fake service at
 * 100 ms with 10 requests in flight: a WhatsApp template broadcast (template 108, the link in
 * {{3}}) to every customer with an Answer Link to a Choice trigger (Confirm, Reschedule, Cancel),
 * alternating with the same broadcast without the link; every link previewed; some customers
 * answering in Chromium, the others by the page's POST, 20 at a time, alternating with n8n's Form
 * Trigger receiving as many POSTs. `npm run test:e2e` runs it on a few dozen customers;
 * `npm run bench:answer-links` (scripts/bench/answer-links.js) on 5,000, 1,000 answering.
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');

const n8n = require('../../scripts/lib/n8n');
const { measure } = require('../../scripts/bench/waiting-db');
const { eachAtOnce, median, treeCpuMs } = require('../../scripts/bench/measure');
const { storedExecution, createActiveWorkflow, waitForWebhook } = require('../e2e/support');
const { CREDENTIAL, chain, omniNode, splitOut, templateSend } = require('../e2e/support');
const { webhookTrigger } = require('../e2e/support');
const {
	PREVIEW_AGENTS,
	BROWSER_AGENT,
	launchChromium,
	personPage,
	lastOutput,
} = require('../e2e/sendAndWait.support');
const { customers, countWith, poll, previewAll } = require('./askMany');

const CHOICES = ['Confirm', 'Reschedule', 'Cancel'];
const ANSWERS_AT_ONCE = 20;
const SEND_PATH = '/stable/open/whatsapp/send-template-message';

/**
 * How many customers, how many answer (of them in Chromium), and how many runs of each broadcast
 * and of each answer leg. CI runs a few; the bench sets ANSWER_LINKS_* (scripts/bench/answer-links.js).
 */
function answerLinksSizes(env = process.env) {
	const count = Number(env.ANSWER_LINKS_CUSTOMERS ?? 24);
	const answered = Number(env.ANSWER_LINKS_ANSWERED ?? 12);
	const inBrowser = Number(env.ANSWER_LINKS_IN_BROWSER ?? 2);
	const runs = Number(env.ANSWER_LINKS_RUNS ?? 1);
	if (!(count >= answered && answered - inBrowser >= runs && inBrowser >= 1 && runs >= 1))
		throw new Error(`answer links: ${count}, ${answered} answering, ${inBrowser}, ${runs} runs`);
	return { count, answered, inBrowser, runs };
}

/** The trigger of the question: Choice, three options, then a node that passes the answer on. */
function choiceTriggerWorkflow(webhookId) {
	return chain('E2eAnswerScaleTr', 'answer links at scale: the answers', [
		{
			name: 'On Answer',
			type: `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`,
			typeVersion: 1,
			webhookId,
			parameters: {
				responseType: 'choice',
				choiceOptions: { values: CHOICES.map((label) => ({ label })) },
				options: { responseFormDescription: 'Your appointment: will you come?' },
			},
			credentials: { [n8n.CREDENTIAL_TYPE]: { ...CREDENTIAL } },
		},
		{ name: 'Answered', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/** n8n's Form Trigger with the same three options, then the same node. */
function formTriggerWorkflow(webhookId) {
	return chain('E2eAnswerScaleFm', 'answer links at scale: Form Trigger', [
		{
			name: 'On Form',
			type: 'n8n-nodes-base.formTrigger',
			typeVersion: 2.2,
			webhookId,
			parameters: {
				formTitle: 'Your appointment',
				formFields: {
					values: [
						{
							fieldLabel: 'Will you come?',
							fieldType: 'dropdown',
							fieldOptions: { values: CHOICES.map((option) => ({ option })) },
							requiredField: true,
						},
					],
				},
				options: {},
			},
		},
		{ name: 'Answered', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/**
 * Webhook → Split Out → WhatsApp Template Send of template 108 ("please confirm your appointment
 * on {{2}} on this page: {{3}}"): with `link`, an Answer Link in {{3}}; without, a fixed link.
 */
function broadcastWorkflow(webhookPath, { link, credential } = {}) {
	const variables = { 1: '={{ $json.name }}', 2: '={{ $json.appointment }}' };
	if (!link) variables[3] = '=https://example.com/appointments/{{ $json.appointmentId }}';
	const values = { reference: '={{ $json.appointmentId }}', linkVariable: 3, ...link };
	const options = link ? { answerLink: { values } } : {};
	return chain(`E2eAnswerScale-${webhookPath}`, `answer links at scale: ${webhookPath}`, [
		webhookTrigger(webhookPath),
		splitOut('Split Out', 'body.customers'),
		omniNode('Send', templateSend('108', variables, options), { credential }),
	]);
}

/** Per phone, the links {{3}} of the accepted sends in `requests`; and how many were accepted. */
function acceptedSends(requests) {
	const byPhone = new Map();
	let lastOutAt = 0;
	for (const r of requests) {
		if (r.method !== 'POST' || r.path !== SEND_PATH || !(r.status >= 200 && r.status < 300))
			continue;
		const phone = r.body.customer_phone;
		byPhone.set(phone, [...(byPhone.get(phone) ?? []), r.body.attributes['3']]);
		lastOutAt = Math.max(lastOutAt, r.time);
	}
	return { byPhone, lastOutAt };
}

/** The database once n8n runs nothing: SQLite's pages in use, executions, bytes stored. */
async function settledDatabase(database) {
	return await poll(
		() => measure(database),
		(db) => db.running === 0,
		60_000,
		250,
	);
}

/** POSTs what `requestOf(item)` gives ({ url, body, headers }) for each item, 20 at a time: the statuses. */
async function postAll(items, requestOf) {
	return await eachAtOnce(items, ANSWERS_AT_ONCE, async (item) => {
		const { url, body, headers = {} } = requestOf(item);
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'user-agent': BROWSER_AGENT, ...headers },
			body,
		});
		await response.arrayBuffer();
		return response.status;
	});
}

/**
 * The ids of a workflow's executions, newest first, read from n8n's database: its REST API lists
 * 100 at a time, and pages them one way in 1.x and another in 2.x.
 */
function executionIdsIn(database, workflowId) {
	const sql = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute('select id from execution_entity where workflowId = ? order by id desc', (sys.argv[2],))
print(json.dumps([str(row[0]) for row in rows]))`;
	return JSON.parse(
		execFileSync('python3', ['-c', sql, database, workflowId], { encoding: 'utf8' }),
	);
}

/** The answer each execution's last node got; n8n 1.x can store a success before its run data. */
async function answersOf(rest, ids) {
	return await eachAtOnce(ids, 10, async (id) => {
		let execution = await storedExecution(rest, id);
		for (
			let i = 0;
			i < 50 && execution.status === 'success' && !lastOutput(execution, 'Answered');
			i++
		) {
			await new Promise((resolve) => setTimeout(resolve, 200));
			execution = await storedExecution(rest, id);
		}
		const items = lastOutput(execution, 'Answered') ?? [];
		return { status: execution.status, items: items.map((item) => item.json) };
	});
}

const ratioText = (values) => values.map((v) => v.toFixed(3)).join(', ');

/**
 * The tests, in order. `ctx` comes from the test file's beforeAll: `rest`, `baseUrl` and `n8nPid` (n8n),
 * `fake` (the service at 100 ms, 10 in flight), `database` (n8n's SQLite file), `figures`.
 */
function answerLinksAtScaleTests(ctx, { count, answered, inBrowser, runs }) {
	const list = customers(count, 7);
	const triggerId = crypto.randomUUID();
	const formId = crypto.randomUUID();
	const floorMs = (count * 100) / 10;
	let trigger;
	let form;
	let linkOf;
	const figures = (ctx.figures.atScale = { count, answered, inBrowser, runs, broadcasts: [] });

	/** One broadcast to `people`: the service's sends, when the last was out, the database's growth. */
	async function broadcast(webhookPath, people) {
		const before = await settledDatabase(ctx.database);
		ctx.fake.reset();
		const cpu = treeCpuMs(ctx.n8nPid);
		const started = Date.now();
		const response = await fetch(`${ctx.baseUrl}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ customers: people }),
		});
		await response.arrayBuffer();
		expect(response.status).toBe(200);
		const sent = acceptedSends(ctx.fake.requests);
		const after = await settledDatabase(ctx.database);
		return {
			sent,
			outMs: sent.lastOutAt + ctx.fake.latencyMs - started,
			cpuMs: treeCpuMs(ctx.n8nPid) - cpu,
			executions: after.executions - before.executions,
			waiting: after.waiting,
			storedGrowth: after.stored - before.stored,
			pageGrowth: after.bytes - before.bytes,
		};
	}

	describe(`answer links at scale: ${count} customers, ${answered} answering`, () => {
		beforeAll(async () => {
			trigger = await createActiveWorkflow(ctx.rest, choiceTriggerWorkflow(triggerId));
			form = await createActiveWorkflow(ctx.rest, formTriggerWorkflow(formId));
			const link = { triggerUrl: `${ctx.baseUrl}/webhook/${triggerId}`, validFor: 7 };
			for (const [webhookPath, options] of [
				['al-scale-links', { link }],
				['al-scale-plain', {}],
			]) {
				await createActiveWorkflow(ctx.rest, broadcastWorkflow(webhookPath, options));
				await waitForWebhook(`${ctx.baseUrl}/webhook/${webhookPath}`);
			}
			await waitForWebhook(`${ctx.baseUrl}/webhook/${triggerId}`);
			const formPage = await poll(
				async () => (await fetch(`${ctx.baseUrl}/form/${formId}`)).status,
				(status) => status === 200,
				30_000,
				250,
			);
			expect(formPage).toBe(200);
			// A few of each first, so that neither row pays for n8n's first run.
			const warm = customers(Math.min(count, 30), 8);
			await broadcast('al-scale-links', warm);
			await broadcast('al-scale-plain', warm);
		}, 300_000);

		test(
			'each customer gets the template once, its own link; nothing waits; the database grows by the broadcast only',
			async () => {
				for (let run = 0; run < runs; run++) {
					const order = run % 2 === 0 ? ['links', 'plain'] : ['plain', 'links'];
					const pair = {};
					for (const kind of order) {
						const result = await broadcast(`al-scale-${kind}`, list);
						const { byPhone } = result.sent;
						expect([...byPhone.keys()].sort()).toEqual(list.map((c) => c.phone).sort());
						expect([...byPhone.values()].filter((links) => links.length !== 1)).toEqual([]);
						expect([result.executions, result.waiting]).toEqual([1, 0]);
						if (kind === 'links') {
							const links = list.map((c) => byPhone.get(c.phone)[0]);
							expect(new Set(links).size).toBe(count);
							expect(
								links.filter((l) => !l.startsWith(`${ctx.baseUrl}/webhook/${triggerId}?a=`)),
							).toEqual([]);
							if (!linkOf) linkOf = new Map(list.map((c, i) => [c.phone, links[i]]));
						}
						delete result.sent;
						pair[kind] = result;
					}
					figures.broadcasts.push(pair);
					// The same execution: the link's option in its copy of the workflow is a few hundred
					// bytes, and n8n's run data stores a value once where items share it (a timestamp), so
					// two runs of one workflow differ by up to a few per thousand.
					expect(pair.links.storedGrowth).toBeLessThanOrEqual(
						pair.plain.storedGrowth * 1.01 + 4096,
					);
				}
				const ratios = figures.broadcasts.map((p) => p.links.outMs / p.plain.outMs);
				figures.outRatios = ratioText(ratios);
				figures.cpuRatios = ratioText(figures.broadcasts.map((p) => p.links.cpuMs / p.plain.cpuMs));
				figures.outRatioMedian = median(ratios);
				figures.floorMs = floorMs;
			},
			runs * 2 * (floorMs * 3 + 120_000),
		);

		test(
			`link previews (WhatsApp, Facebook, Telegram, Slack) of all ${count} links start nothing`,
			async () => {
				const started = Date.now();
				const statuses = await previewAll(
					list.map((c) => linkOf.get(c.phone)),
					ANSWERS_AT_ONCE,
					PREVIEW_AGENTS,
				);
				figures.previewsMs = Date.now() - started;
				expect(statuses.filter((status) => status !== 200)).toEqual([]);
				await new Promise((resolve) => setTimeout(resolve, 1500));
				expect(executionIdsIn(ctx.database, trigger.id)).toEqual([]);
			},
			60_000 + count * 300,
		);

		test(
			`${answered} answer (${inBrowser} in Chromium, the rest by POST): ` +
				'one execution each, its recipient, reference and choice',
			async () => {
				const answering = list.slice(0, answered).map((c, i) => ({
					...c,
					link: linkOf.get(c.phone),
					choice: CHOICES[i % CHOICES.length],
				}));
				const browser = await launchChromium();
				try {
					for (const person of answering.slice(0, inBrowser)) {
						const page = await personPage(browser, { width: 390, height: 844 });
						await page.goto(person.link);
						await page.getByRole('button', { name: person.choice }).click();
						await page.getByText(`Recorded: ${person.choice}`).waitFor();
						await page.context().close();
					}
				} finally {
					await browser.close();
				}
				figures.answers = await answerLegs(ctx, answering.slice(inBrowser), {
					trigger,
					form,
					formUrl: `${ctx.baseUrl}/form/${formId}`,
					runs,
					inBrowser,
				});
				// The Form Trigger recorded the choices too: its newest execution holds the last one posted.
				const [lastForm] = executionIdsIn(ctx.database, form.id);
				const [formAnswer] = (await answersOf(ctx.rest, [lastForm]))[0].items;
				expect(CHOICES).toContain(formAnswer['Will you come?']);
				const executions = executionIdsIn(ctx.database, trigger.id);
				expect(executions).toHaveLength(answered);
				const got = await answersOf(ctx.rest, executions);
				expect(got.filter((g) => g.status !== 'success' || g.items.length !== 1)).toEqual([]);
				const seen = got.map(({ items: [item] }) =>
					[item.recipient.phone, item.reference, item.data.choice].join(' '),
				);
				const expected = answering.map((p) => [p.phone, p.appointmentId, p.choice].join(' '));
				expect(seen.sort()).toEqual(expected.sort());
				expect(new Set(got.map(({ items: [item] }) => item.answerKey)).size).toBe(answered);
				expect(await countWith(ctx.rest, 'waiting', trigger.id)).toBe(0);
				expect(measure(ctx.database).waiting).toBe(0);
			},
			300_000 + answered * 500,
		);
	});
}

/**
 * The POST leg: the answers in `runs` parts, each beside as many POSTs to n8n's Form Trigger,
 * alternating which goes first; per part the time until every POST was answered and every
 * execution it started had finished.
 */
async function answerLegs(ctx, answering, { trigger, form, formUrl, runs }) {
	const legs = [];
	const size = Math.ceil(answering.length / runs);
	const timed = async (workflowId, post) => {
		const done = (await countWith(ctx.rest, 'success', workflowId)) + post.n;
		const cpu = treeCpuMs(ctx.n8nPid);
		const started = Date.now();
		const statuses = await post.send();
		const postsMs = Date.now() - started;
		expect(statuses.filter((status) => status !== 200)).toEqual([]);
		await poll(
			() => countWith(ctx.rest, 'success', workflowId),
			(n) => n >= done,
			300_000,
			100,
		);
		return { postsMs, doneMs: Date.now() - started, cpuMs: treeCpuMs(ctx.n8nPid) - cpu };
	};
	for (let run = 0; run < runs; run++) {
		const part = answering.slice(run * size, (run + 1) * size);
		// What the answer page's button posts (its index), and what n8n's form page posts (multipart).
		const answerPosts = {
			n: part.length,
			send: () =>
				postAll(part, (p) => ({
					url: p.link,
					body: `choice=${CHOICES.indexOf(p.choice)}`,
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
				})),
		};
		const formPosts = {
			n: part.length,
			send: () =>
				postAll(part, (p) => {
					const body = new FormData();
					body.append('field-0', p.choice);
					return { url: formUrl, body };
				}),
		};
		const leg = {};
		for (const kind of run % 2 === 0 ? ['links', 'form'] : ['form', 'links'])
			leg[kind] =
				kind === 'links' ? await timed(trigger.id, answerPosts) : await timed(form.id, formPosts);
		leg.n = part.length;
		legs.push(leg);
	}
	const ratios = legs.map((l) => l.links.doneMs / l.form.doneMs);
	return {
		legs,
		doneRatios: ratioText(ratios),
		postsRatios: ratioText(legs.map((l) => l.links.postsMs / l.form.postsMs)),
		cpuRatios: ratioText(legs.map((l) => l.links.cpuMs / l.form.cpuMs)),
		doneRatioMedian: median(ratios),
		answersPerSecond: legs.map((l) => Math.round((l.n * 10000) / l.links.doneMs) / 10),
		formPerSecond: legs.map((l) => Math.round((l.n * 10000) / l.form.doneMs) / 10),
	};
}

module.exports = {
	answerLinksSizes,
	answerLinksAtScaleTests,
	formTriggerWorkflow,
	choiceTriggerWorkflow,
	broadcastWorkflow,
	acceptedSends,
	executionIdsIn,
	answersOf,
	CHOICES,
};
