'use strict';
/*
 * Junk sent to an answer link's trigger, in the n8n of test/e2e/answerLinks.e2e.js: a published
 * Choice trigger gets requests no send made, 20 at a time, in legs of one kind each: GETs and
 * POSTs with random tokens (random base64url as long as a real link's token), forgeries (a real
 * token's version byte, then random bytes, as long as a real token: well formed, sealed by
 * nobody), and requests with no token; between every two junk legs a leg of as many GETs of real
 * links' pages. Every leg carries a few real answers. Each junk request gets the refusal page and
 * starts nothing; each real answer starts exactly one execution, with its reference and choice.
 * n8n's CPU (its process tree) per leg is reported as a ratio to the valid GETs' legs beside it.
 * `npm run test:e2e`: 40 of each kind, one run, no figure checked; `npm run bench:answer-links --
 * --junk`: 500 of each, 3 runs (JUNK_LINKS_*).
 */
const crypto = require('node:crypto');

const { treeCpuMs, spread } = require('../../scripts/bench/measure');
const { createActiveWorkflow, waitForWebhook } = require('../e2e/support');
const { BROWSER_AGENT } = require('../e2e/sendAndWait.support');
const { eachAtOnce } = require('../../scripts/bench/measure');
const { customers, countWith, poll } = require('./askMany');
const scale = require('./answerLinksAtScale');

const AT_ONCE = 20;
// Real links whose pages the valid legs GET, in turn.
const PAGE_LINKS = 50;
const JUNK_KINDS = ['randomGet', 'randomPost', 'forged', 'none'];

/** Requests of each kind per leg, runs, and real answers in every leg (JUNK_LINKS_* for the bench). */
function junkLinksSizes(env = process.env) {
	const requests = Number(env.JUNK_LINKS_REQUESTS ?? 40);
	const runs = Number(env.JUNK_LINKS_RUNS ?? 1);
	const answers = Number(env.JUNK_LINKS_ANSWERS ?? 2);
	if (!(requests >= answers && answers >= 1 && runs >= 1))
		throw new Error(`junk links: ${requests} requests, ${runs} runs, ${answers} answers a leg`);
	return { requests, runs, answers };
}

const randomBase64url = (length) =>
	Array.from(
		crypto.randomBytes(length),
		(byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[byte & 63],
	).join('');

/** A forgery of `token`: its version byte, then random bytes, as many as it has; canonical base64url. */
function forgedLike(token) {
	const bytes = Buffer.from(token, 'base64url');
	return Buffer.concat([bytes.subarray(0, 1), crypto.randomBytes(bytes.length - 1)]).toString(
		'base64url',
	);
}

/** The `index`-th junk request of `kind` to the trigger at `url`, modelled on the real `token`. */
function junkRequest(kind, index, url, token) {
	const method =
		kind === 'randomGet' || (kind !== 'randomPost' && index % 2 === 0) ? 'GET' : 'POST';
	const query = {
		randomGet: () => `?a=${randomBase64url(token.length)}`,
		randomPost: () => `?a=${randomBase64url(token.length)}`,
		forged: () => `?a=${forgedLike(token)}`,
		none: () => '',
	}[kind]();
	return {
		junk: true,
		method,
		url: `${url}${query}`,
		body: method === 'POST' ? 'choice=0' : undefined,
	};
}

/** A leg's requests: `n` of `kind` (junk, or `valid` page GETs), a real answer at even intervals. */
function legRequests(kind, n, answers, { triggerUrl, token, pageLinks }) {
	const requests = Array.from({ length: n }, (_, index) =>
		kind === 'valid'
			? { page: true, method: 'GET', url: pageLinks[index % pageLinks.length] }
			: junkRequest(kind, index, triggerUrl, token),
	);
	const every = Math.floor(n / answers.length);
	answers.forEach((answer, index) =>
		requests.splice(index * (every + 1), 0, {
			answer,
			method: 'POST',
			url: answer.link,
			body: `choice=${answer.choice}`,
		}),
	);
	return requests;
}

/** What a request got that it should not have: a junk request the refusal page, a page its form. */
function wrongAnswer(request, status, text, refusalPage) {
	if (request.junk) return status === 400 && text === refusalPage ? undefined : `junk: ${status}`;
	if (request.page) return status === 200 && text.includes('<form') ? undefined : `page: ${status}`;
	const recorded = `Recorded: ${scale.CHOICES[request.answer.choice]}`;
	return status === 200 && text.includes(recorded) ? undefined : `answer: ${status}`;
}

/**
 * Sends a leg's requests, 20 at a time: what each got that it should not have (a 5xx with its
 * text: n8n's own refusal when it is overloaded), and the answers recorded.
 */
async function sendLeg(sent, refusalPage) {
	const wrong = [];
	const recorded = [];
	await eachAtOnce(sent, AT_ONCE, async (request) => {
		const response = await fetch(request.url, {
			method: request.method,
			headers: { 'user-agent': BROWSER_AGENT, 'content-type': 'application/x-www-form-urlencoded' },
			body: request.body,
		});
		const text = await response.text();
		const problem = wrongAnswer(request, response.status, text, refusalPage);
		const detail = response.status >= 500 ? ` ${text.slice(0, 80)}` : '';
		if (problem) wrong.push(`${request.method} ${problem}${detail}`);
		else if (request.answer) recorded.push(request.answer);
	});
	return { wrong, recorded };
}

/**
 * The tests. `ctx`: `rest`, `baseUrl`, `n8nPid`, `fake`, `database` and `figures`, as the file's
 * beforeAll sets them.
 */
function junkLinksTests(ctx, { requests, runs, answers }) {
	const triggerId = crypto.randomUUID();
	let triggerUrl;
	// Per run: a valid leg, then each junk kind followed by a valid leg; the kinds' order alternates.
	const plan = Array.from({ length: runs }, (_, run) =>
		(run % 2 === 0 ? JUNK_KINDS : [...JUNK_KINDS].reverse()).flatMap((kind) => [kind, 'valid']),
	);
	const legs = ['valid', ...plan.flat()];
	const list = customers(PAGE_LINKS + legs.length * answers, 9);
	const figures = (ctx.figures.junk = { requests, runs, answers, legs: [] });
	let trigger;
	let linkOf;
	let refusalPage;

	describe(`junk links: ${requests} of each kind, ${runs} run${runs > 1 ? 's' : ''}`, () => {
		beforeAll(async () => {
			triggerUrl = `${ctx.baseUrl}/webhook/${triggerId}`;
			trigger = await createActiveWorkflow(ctx.rest, scale.choiceTriggerWorkflow(triggerId));
			const link = { triggerUrl, validFor: 7 };
			await createActiveWorkflow(ctx.rest, scale.broadcastWorkflow('al-junk-send', { link }));
			await waitForWebhook(`${ctx.baseUrl}/webhook/al-junk-send`);
			await waitForWebhook(triggerUrl);
			ctx.fake.reset();
			const response = await fetch(`${ctx.baseUrl}/webhook/al-junk-send`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ customers: list }),
			});
			expect(response.status).toBe(200);
			const { byPhone } = scale.acceptedSends(ctx.fake.requests);
			linkOf = new Map(list.map((c) => [c.phone, byPhone.get(c.phone)?.[0]]));
			expect([...linkOf.values()].filter((l) => !l?.startsWith(`${triggerUrl}?a=`))).toEqual([]);
			// The page a changed link gets: every junk request must get this one.
			const changed = linkOf.get(list[0].phone).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
			const refused = await fetch(changed, { headers: { 'user-agent': BROWSER_AGENT } });
			expect(refused.status).toBe(400);
			refusalPage = await refused.text();
			expect(refusalPage).not.toContain('<form');
		}, 300_000);

		test(
			'each junk request gets the refusal page and starts nothing; each real answer among them starts one execution',
			async () => {
				const links = list.map((c) => linkOf.get(c.phone));
				const context = {
					triggerUrl,
					token: new URL(links[0]).searchParams.get('a'),
					pageLinks: links.slice(0, PAGE_LINKS),
				};
				const answering = list.slice(PAGE_LINKS).map((c, i) => ({
					customer: c,
					link: linkOf.get(c.phone),
					choice: i % scale.CHOICES.length,
				}));
				const wrong = [];
				const recorded = [];
				for (const [index, kind] of legs.entries()) {
					const mine = answering.slice(index * answers, (index + 1) * answers);
					const cpu = treeCpuMs(ctx.n8nPid);
					const started = Date.now();
					const leg = await sendLeg(legRequests(kind, requests, mine, context), refusalPage);
					recorded.push(...leg.recorded);
					// The leg ends when the executions its answers started have ended.
					await poll(
						// n8n answers 503 for a moment when its database check is late on a busy machine.
						() => countWith(ctx.rest, 'success', trigger.id).catch(() => -1),
						(n) => n >= recorded.length,
						60_000,
						250,
					);
					const cpuMs = treeCpuMs(ctx.n8nPid) - cpu;
					const done = { kind, cpuMs, wallMs: Date.now() - started, wrong: leg.wrong.length };
					figures.legs.push(done);
					// A long bench says how far it got.
					process.stderr.write(
						`junk links, leg ${index + 1} of ${legs.length}: ${JSON.stringify(done)}\n`,
					);
					wrong.push(...leg.wrong.map((problem) => `${kind}: ${problem}`));
				}
				Object.assign(figures, cpuRatios(figures.legs, requests + answers));
				expect(wrong).toEqual([]);
				await new Promise((resolve) => setTimeout(resolve, 1500));
				const executions = scale.executionIdsIn(ctx.database, trigger.id);
				expect(executions).toHaveLength(recorded.length);
				const got = await scale.answersOf(ctx.rest, executions);
				const seen = got.map(({ status, items }) =>
					[status, items.length, items[0]?.reference, items[0]?.data.choice].join(' '),
				);
				const expected = recorded.map(
					(a) => `success 1 ${a.customer.appointmentId} ${scale.CHOICES[a.choice]}`,
				);
				expect(seen.sort()).toEqual(expected.sort());
				expect(recorded).toHaveLength(answering.length);
			},
			600_000 + legs.length * requests * 2_000,
		);
	});
}

/**
 * Each junk leg's CPU over the mean of the valid legs before and after it (the same load on a
 * shared machine), and the CPU per request of each kind: median (min–max).
 */
function cpuRatios(legs, perLeg) {
	const ratios = Object.fromEntries(JUNK_KINDS.map((kind) => [kind, []]));
	const perRequest = Object.fromEntries(['valid', ...JUNK_KINDS].map((kind) => [kind, []]));
	legs.forEach((leg, index) => {
		perRequest[leg.kind].push(leg.cpuMs / perLeg);
		if (leg.kind === 'valid') return;
		const beside = [legs[index - 1], legs[index + 1]].filter((l) => l?.kind === 'valid');
		ratios[leg.kind].push(
			leg.cpuMs / (beside.reduce((sum, l) => sum + l.cpuMs, 0) / beside.length),
		);
	});
	const summary = (values, digits) => spread(values, digits);
	return {
		cpuRatio: Object.fromEntries(JUNK_KINDS.map((k) => [k, summary(ratios[k], 2)])),
		cpuMsPerRequest: Object.fromEntries(
			Object.entries(perRequest).map(([k, v]) => [k, summary(v, 1)]),
		),
	};
}

module.exports = { junkLinksSizes, junkLinksTests };
