'use strict';
/*
 * Answer links at scale: a published workflow sends every customer the order_shipped template
 * with an Answer Link in {{3}} (one webhook call, Split Out, WhatsApp Template → Send), and a
 * published Omnichannel Messaging Trigger workflow (Choice of three) receives the answers. The
 * checks, as jest tests: each customer's message reaches the service once with its own link, no
 * execution waits, link previews start nothing, each answer starts exactly one execution with its
 * recipient, reference and choice (timed beside n8n's Form Trigger getting as many POSTs), and a
 * changed, an expired and a foreign link start nothing.
 * Used by test/queue/ask-many.e2e.js; `npm run bench:answer-links:queue` runs them at full size.
 */
const crypto = require('node:crypto');

const n8n = require('../../scripts/lib/n8n');
const { chain, omniNode, orderShippedSend, restData, splitOut } = require('../e2e/support');
const { storedExecution, webhookTrigger } = require('../e2e/support');
const { PREVIEW_AGENTS, BROWSER_AGENT, lastOutput } = require('../e2e/sendAndWait.support');
const { launchChromium, personPage } = require('../e2e/sendAndWait.support');
const { previewFetch } = require('./answerPage');
const { eachAtOnce } = require('../../scripts/bench/measure');
const { SEND_PATH, poll } = require('./askMany');
const { formTriggerWorkflow, CHOICES } = require('./answerLinksAtScale');
const { sealedLink } = require('./sealedLink');

const QUESTION = 'Can you come to your appointment?';
const SEND_HOOK = 'answer-links-send';
// Answers through Chromium, beside the POSTs: a phone's browser pressing the page's button.
const IN_CHROMIUM = 2;

/**
 * How many customers get a link and how many of them answer. `npm run test:queue` runs a few;
 * `npm run bench:answer-links:queue` sets ANSWER_LINKS_CUSTOMERS, ANSWER_LINKS_ANSWERED and
 * ANSWER_LINKS_RUNS (the parts the POSTs are timed in, alternating with the Form Trigger's).
 */
function answerLinksSizes(env = process.env) {
	const customers = Number(env.ANSWER_LINKS_CUSTOMERS ?? 20);
	const answered = Number(env.ANSWER_LINKS_ANSWERED ?? 10);
	const runs = Number(env.ANSWER_LINKS_RUNS ?? 1);
	if (!(customers >= answered && answered - IN_CHROMIUM >= runs && runs >= 1))
		throw new Error(`answer links: ${customers} customers, ${answered} answering, ${runs} runs`);
	return { customers, answered, runs };
}

/** `count` customers with distinct phones and appointment IDs, and how long their link lives. */
function customers(count, batch = 3, validMinutes = 7 * 24 * 60) {
	return Array.from({ length: count }, (_, i) => ({
		phone: `+49153${String(batch).padStart(2, '0')}${String(i).padStart(5, '0')}`,
		name: `Customer ${batch}-${i}`,
		appointment: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 10:00`,
		appointmentId: `appointment-${batch}-${i}`,
		validMinutes,
	}));
}

/**
 * The workflows: On Answer (the trigger, its path a fresh webhook ID) → Next; Webhook →
 * Customers (Split Out) → Send, whose link lives each customer's `validMinutes`; and n8n's Form
 * Trigger with the same choices, to compare the answers' throughput with.
 */
function answerLinksWorkflows({ baseUrl, credential }) {
	const webhookId = crypto.randomUUID();
	const reference = { credential: { id: credential.id, name: credential.name } };
	const trigger = chain('QueueAnswerLinks1', 'answer links: the answers', [
		{
			...omniNode('On Answer', {}, reference),
			type: `${n8n.PACKAGE_NAME}.omnichannelMessagingTrigger`,
			webhookId,
			parameters: {
				responseType: 'choice',
				choiceOptions: { values: CHOICES.map((label) => ({ label })) },
				options: { responseFormDescription: QUESTION },
			},
		},
		{ name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
	const triggerUrl = `${baseUrl}/webhook/${webhookId}`;
	const answerLink = {
		triggerUrl,
		reference: '={{ $json.appointmentId }}',
		validFor: '={{ $json.validMinutes }}',
		validForUnit: 'minutes',
		linkVariable: 3,
	};
	const variables = { 1: '={{ $json.name }}', 2: '={{ $json.appointment }}' };
	const send = chain('QueueAnswerLinks2', 'answer links: the broadcast', [
		webhookTrigger(SEND_HOOK),
		splitOut('Customers', 'body.customers'),
		omniNode(
			'Send',
			orderShippedSend(variables, { answerLink: { values: answerLink } }),
			reference,
		),
	]);
	const formId = crypto.randomUUID();
	return {
		trigger,
		send,
		form: formTriggerWorkflow(formId),
		triggerUrl,
		sendUrl: `${baseUrl}/webhook/${SEND_HOOK}`,
		formUrl: `${baseUrl}/form/${formId}`,
	};
}

/** The accepted template sends to `phones`: per phone its requests, as the service saw them. */
function acceptedTo(requests, phones) {
	const wanted = new Set(phones);
	const accepted = new Map();
	for (const r of requests) {
		if (r.method !== 'POST' || r.path !== SEND_PATH || !wanted.has(r.phone)) continue;
		if (typeof r.status !== 'number' || r.status < 200 || r.status >= 300) continue;
		accepted.set(r.phone, [...(accepted.get(r.phone) ?? []), r]);
	}
	return accepted;
}

/**
 * Every execution n8n lists (of a workflow, with a status), 100 a page, each kept once by its id.
 * n8n 2.x sorts a page by start but its cursor cuts by id, which skips executions that started
 * out of id order (two workers, two webhook processes): the next page is asked for as the ones
 * started at or before the page's last, and read until one adds none. 1.x pages by id.
 */
async function executionsWith(rest, filter) {
	const all = new Map();
	let next = { filter, page: '' };
	for (;;) {
		const query = `filter=${encodeURIComponent(JSON.stringify(next.filter))}&limit=100`;
		const data = restData(
			await rest.request('GET', `/rest/executions?${query}${next.page}`),
			'GET /rest/executions',
		);
		const results = data.results ?? [];
		const before = all.size;
		for (const execution of results) all.set(String(execution.id), execution);
		if (results.length < 100 || all.size === before) return [...all.values()];
		const last = results[results.length - 1];
		next = data.nextCursor
			? { filter: { ...filter, startedBefore: last.startedAt ?? last.createdAt }, page: '' }
			: { filter, page: `&lastId=${last.id}` };
	}
}

/** How many executions n8n counts with `filter`. */
async function countWith(rest, filter) {
	const query = `filter=${encodeURIComponent(JSON.stringify(filter))}&limit=1`;
	return restData(await rest.request('GET', `/rest/executions?${query}`), 'GET /rest/executions')
		.count;
}

/** The link with one character of its token changed. */
function changed(link) {
	const at = link.indexOf('?a=') + 20;
	return link.slice(0, at) + (link[at] === 'A' ? 'B' : 'A') + link.slice(at + 1);
}

/**
 * A link to the same trigger sealed with `apiKey` (by default one the credential does not hold):
 * the fake service takes one key, so it is sealed with the package's own token code, as a send
 * with that key would.
 */
function foreignLink(triggerUrl, customer, apiKey = 'another-api-key-9876543210') {
	return sealedLink(triggerUrl, customer, apiKey);
}

/** `link` sent to the n8n process at `base` (a webhook process's own address) instead. */
function on(link, base) {
	return base ? base + link.slice(new URL(link).origin.length) : link;
}

/** GET and POST of a link the trigger must refuse: the statuses and whether a page offered buttons. */
async function refusedBoth(link) {
	const results = [];
	for (const method of ['GET', 'POST']) {
		const response = await fetch(link, {
			method,
			headers: { 'user-agent': BROWSER_AGENT, 'content-type': 'application/x-www-form-urlencoded' },
			body: method === 'POST' ? 'choice=0' : undefined,
		});
		const page = await response.text();
		results.push([method, response.status, page.includes('<form')]);
	}
	return results;
}

/** Presses the `choice`-th button of each link's page in Chromium; the pages' confirmations. */
async function answerInChromium(answers) {
	const browser = await launchChromium();
	try {
		const shown = [];
		for (const { link, choice } of answers) {
			const page = await personPage(browser, { width: 390, height: 844 });
			await page.goto(link);
			await page.getByRole('button', { name: CHOICES[choice] }).click();
			await page.getByText(`Recorded: ${CHOICES[choice]}`).waitFor();
			shown.push(CHOICES[choice]);
			await page.context().close();
		}
		return shown;
	} finally {
		await browser.close();
	}
}

const perSecond = (n, ms) => Math.round((n / ms) * 1e4) / 10;

/** Waits until `workflowId` has `n` more successful executions than when `count` was read. */
async function moreSucceeded(ctx, workflowId, before, n) {
	return await poll(
		() => countWith(ctx.rest, { workflowId, status: ['success'] }),
		(done) => done >= before + n,
		300_000,
		250,
	);
}

/**
 * `part`'s answers as the page's button posts them (its index), 20 at a time: the time until
 * every execution they started succeeded.
 */
async function answersLeg(ctx, part) {
	const workflowId = ctx.workflows.trigger.id;
	const before = await countWith(ctx.rest, { workflowId, status: ['success'] });
	const started = Date.now();
	const pages = await eachAtOnce(part, 20, async ({ link, choice }) => {
		const response = await fetch(link, {
			method: 'POST',
			headers: { 'user-agent': BROWSER_AGENT, 'content-type': 'application/x-www-form-urlencoded' },
			body: `choice=${choice}`,
		});
		return { status: response.status, text: await response.text() };
	});
	expect(pages.map((p) => p.status)).toEqual(part.map(() => 200));
	expect(pages.map((p) => p.text.includes(`Recorded: `))).not.toContain(false);
	expect(await moreSucceeded(ctx, workflowId, before, part.length)).toBe(before + part.length);
	return Date.now() - started;
}

/** As many POSTs to n8n's Form Trigger, as its page sends them: the same time. */
async function formLeg(ctx, part) {
	const workflowId = ctx.workflows.form.id;
	const before = await countWith(ctx.rest, { workflowId, status: ['success'] });
	const started = Date.now();
	const statuses = await eachAtOnce(part, 20, async ({ choice }) => {
		const body = new FormData();
		body.append('field-0', CHOICES[choice]);
		const response = await fetch(ctx.workflows.formUrl, { method: 'POST', body });
		await response.arrayBuffer();
		return response.status;
	});
	expect(statuses.filter((status) => status !== 200)).toEqual([]);
	expect(await moreSucceeded(ctx, workflowId, before, part.length)).toBe(before + part.length);
	return Date.now() - started;
}

/**
 * The checks, in order. `ctx` is filled in by the test file's beforeAll: `rest` (logged in),
 * `workflows` (answerLinksWorkflows', published: `trigger.id`, `send.id`, `triggerUrl`,
 * `sendUrl`), `requests()` (what the service received so far) and `latencyMs` (its latency),
 * `figures` (reported), and in
 * queue mode `ranBy(executionId)`, the worker that ran an execution.
 */
function answerLinksTests(ctx, { customers: count, answered, runs: parts }) {
	const list = customers(count);
	const [shortLived] = customers(1, 4, 0.05);
	const phones = list.map((c) => c.phone);
	const links = new Map();
	const triggerCount = () => countWith(ctx.rest, { workflowId: ctx.workflows.trigger.id });
	const nothingStarts = async (before) => {
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(await triggerCount()).toBe(before);
	};

	test(`${count} customers: each gets the template with its own link, once; none waits`, async () => {
		const { sendUrl, triggerUrl, send } = ctx.workflows;
		const call = async (body) => {
			const response = await fetch(sendUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			expect(response.status).toBe(200);
			return await response.json();
		};
		// The link that expires goes out first: it is refused at the end, seconds past its 3.
		expect(await call({ customers: [shortLived] })).toHaveLength(1);
		const started = Date.now();
		const output = await call({ customers: list });
		ctx.figures.callMs = Date.now() - started;
		expect(output.map((item) => item.status)).toEqual(Array(count).fill('ongoing'));
		const accepted = acceptedTo(await ctx.requests(), phones);
		// The service admits a request when it arrives and accepts it its latency later.
		const lastIn = Math.max(...[...accepted.values()].flat().map((r) => r.time));
		ctx.figures.allOutMs = lastIn + ctx.latencyMs - started;
		expect([...accepted.keys()].sort()).toEqual([...phones].sort());
		expect([...accepted.values()].filter((sent) => sent.length !== 1)).toEqual([]);
		for (const customer of list) {
			const [{ attributes, apiKeyMatches }] = accepted.get(customer.phone);
			expect(apiKeyMatches).toBe(true);
			expect(attributes).toMatchObject({ 1: customer.name, 2: customer.appointment });
			const link = attributes[3];
			expect(link.startsWith(`${triggerUrl}?a=`)).toBe(true);
			expect(link.length - triggerUrl.length).toBeLessThanOrEqual(160);
			expect(link).not.toContain(customer.phone.slice(1));
			expect(link).not.toContain(customer.appointmentId);
			links.set(customer.phone, link);
		}
		expect(new Set(links.values()).size).toBe(count);
		Object.assign(ctx, { customers: list, links });
		const [short] = acceptedTo(await ctx.requests(), [shortLived.phone]).get(shortLived.phone);
		ctx.shortLivedLink = { link: short.attributes[3], sentAt: short.time };
		// n8n may answer the webhook a moment before it stores the execution's end.
		const sends = await poll(
			() => executionsWith(ctx.rest, { workflowId: send.id }),
			(listed) => listed.every((e) => e.status === 'success'),
			30_000,
		);
		expect(sends.map((e) => e.status)).toEqual(['success', 'success']);
		// In queue mode the links are sealed on a worker, which decrypts the credential there.
		if (ctx.ranBy) expect(sends.map((e) => ctx.ranBy(String(e.id)))).not.toContain(undefined);
		expect(await countWith(ctx.rest, { status: ['waiting'] })).toBe(0);
	}, 600_000);

	test('link previews (WhatsApp, Facebook, Telegram, Slack) get the page and start nothing', async () => {
		const started = Date.now();
		const fetches = [...links.values()].flatMap((link) =>
			PREVIEW_AGENTS.map((agent) => ({ link, agent })),
		);
		const statuses = await eachAtOnce(fetches, 10, ({ link, agent }) => previewFetch(link, agent));
		ctx.figures.previews = statuses.length;
		ctx.figures.previewsMs = Date.now() - started;
		expect(statuses.filter((status) => status !== 200)).toEqual([]);
		const page = await (await fetch([...links.values()][0])).text();
		expect(page.match(/<button type="submit" name="choice"/g)).toHaveLength(CHOICES.length);
		await nothingStarts(0);
	}, 600_000);

	const answering =
		`${answered} answers, 20 at a time by the page's POST (beside as many to n8n's Form ` +
		`Trigger, ${parts} part${parts > 1 ? 's' : ''}) and ${IN_CHROMIUM} in Chromium`;
	test(`${answering}: one execution each, with its recipient, reference and choice`, async () => {
		const answers = list.slice(0, answered).map((customer, index) => ({
			customer,
			link: links.get(customer.phone),
			choice: index % CHOICES.length,
		}));
		const posted = answers.slice(IN_CHROMIUM);
		const legs = [];
		const size = Math.ceil(posted.length / parts);
		for (let run = 0; run < parts; run++) {
			const part = posted.slice(run * size, (run + 1) * size);
			const leg = { n: part.length };
			for (const kind of run % 2 === 0 ? ['links', 'form'] : ['form', 'links'])
				leg[kind] = await (kind === 'links' ? answersLeg(ctx, part) : formLeg(ctx, part));
			legs.push(leg);
		}
		ctx.figures.answersPerSecond = legs.map((l) => perSecond(l.n, l.links));
		ctx.figures.formPerSecond = legs.map((l) => perSecond(l.n, l.form));
		ctx.figures.answersTimeToForm = legs.map((l) => Math.round((l.links / l.form) * 100) / 100);
		const tapped = await answerInChromium(answers.slice(0, IN_CHROMIUM));
		expect(tapped).toEqual(answers.slice(0, IN_CHROMIUM).map((a) => CHOICES[a.choice]));

		const succeeded = await poll(
			() => countWith(ctx.rest, { workflowId: ctx.workflows.trigger.id, status: ['success'] }),
			(n) => n >= answered,
			60_000,
		);
		expect(succeeded).toBe(answered);
		await nothingStarts(answered);
		const runs = await executionsWith(ctx.rest, { workflowId: ctx.workflows.trigger.id });
		expect(runs).toHaveLength(answered);
		const finished = await eachAtOnce(runs, 10, async ({ id }) => {
			const execution = await storedExecution(ctx.rest, id);
			return { id: String(id), status: execution.status, item: lastOutput(execution, 'Next') };
		});
		expect(finished.filter((e) => e.status !== 'success' || e.item?.length !== 1)).toEqual([]);
		const byReference = new Map(finished.map((e) => [e.item[0].json.reference, e.item[0].json]));
		expect(byReference.size).toBe(answered);
		for (const { customer, choice } of answers)
			expect(byReference.get(customer.appointmentId)).toEqual({
				data: { choice: CHOICES[choice], respondedAt: expect.any(String) },
				recipient: { phone: customer.phone },
				reference: customer.appointmentId,
				sentAt: expect.any(String),
				answeredAt: expect.any(String),
				answerKey: expect.stringMatching(/^[\w-]{22}$/),
			});
		expect(new Set([...byReference.values()].map((item) => item.answerKey)).size).toBe(answered);
		// The main receives the answers; workers run the executions they start.
		if (ctx.ranBy) {
			const workers = finished.map((e) => ctx.ranBy(e.id));
			expect(workers).not.toContain(undefined);
			ctx.figures.answersPerWorker = Object.fromEntries(
				[...new Set(workers)].map((w) => [w, workers.filter((one) => one === w).length]),
			);
		}
	}, 600_000);

	test('a changed, an expired and a foreign link get a page that says so and start nothing', async () => {
		const [first] = list;
		const { link: expired, sentAt } = ctx.shortLivedLink;
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + 5000 - Date.now())));
		// Where webhook processes receive the answers, each refuses as one process does.
		for (const base of ctx.webhookBases ?? [undefined]) {
			expect(await refusedBoth(on(changed(links.get(first.phone)), base))).toEqual([
				['GET', 400, false],
				['POST', 400, false],
			]);
			expect(await refusedBoth(on(expired, base))).toEqual([
				['GET', 410, false],
				['POST', 410, false],
			]);
			expect(await refusedBoth(on(foreignLink(ctx.workflows.triggerUrl, first), base))).toEqual([
				['GET', 400, false],
				['POST', 400, false],
			]);
		}
		await nothingStarts(answered);
		expect(await countWith(ctx.rest, { status: ['waiting'] })).toBe(0);
		const accepted = acceptedTo(await ctx.requests(), [...phones, shortLived.phone]);
		expect([...accepted.values()].map((sent) => sent.length)).toEqual(Array(count + 1).fill(1));
	}, 120_000);
}

module.exports = {
	answerLinksSizes,
	answerLinksWorkflows,
	answerLinksTests,
	countWith,
	executionsWith,
	foreignLink,
	on,
	refusedBoth,
};
