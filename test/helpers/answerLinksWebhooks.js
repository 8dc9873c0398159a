'use strict';
/*
 * Answer links on n8n's webhook processes: queue mode with `n8n webhook` processes receiving
 * every production webhook and the main receiving none (N8N_DISABLE_PRODUCTION_MAIN_PROCESS), as
 * n8n's scaling guide sets them up. Run after answerLinksTests (test/helpers/answerLinksMany.js)
 * on the same deployment, whose refusal test already runs on each process: here the main serves
 * no link, the answers reached every process, and a rotated API key applies on each.
 * Used by test/queue/ask-many.e2e.js.
 */
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { restData, storedExecution } = require('../e2e/support');
const { BROWSER_AGENT, lastOutput } = require('../e2e/sendAndWait.support');
const { poll } = require('./askMany');
const { countWith, executionsWith, foreignLink, on, refusedBoth } = require('./answerLinksMany');

const ROTATED_KEY = 'rotated-queue-api-key-0123456789';

/**
 * How long a process may take to apply a new API key: a token the kept key cannot open reads the
 * credential again at most once in LINK_KEY_REREAD_MS (token.ts), read from the built package.
 */
function rereadMs() {
	const token = require(
		path.join(n8n.REPO_ROOT, 'dist', 'nodes', 'OmnichannelMessaging', 'answerLinks', 'token.js'),
	);
	return token.LINK_KEY_REREAD_MS;
}

/** The page's POST of `choice` to `link`: its status and whether the page says it was recorded. */
async function answer(link, choice = 0) {
	const response = await fetch(link, {
		method: 'POST',
		headers: { 'user-agent': BROWSER_AGENT, 'content-type': 'application/x-www-form-urlencoded' },
		body: `choice=${choice}`,
	});
	return { status: response.status, recorded: (await response.text()).includes('Recorded: ') };
}

/** The credential's API key replaced over n8n's REST API, as the editor saves an edited credential. */
async function rotateApiKey(ctx, apiKey) {
	const { id, name, type } = ctx.credential;
	const { data } = restData(
		await ctx.rest.request('GET', `/rest/credentials/${id}?includeData=true`),
		'GET /rest/credentials',
	);
	const body = { name, type, data: { ...data, apiKey } };
	restData(
		await ctx.rest.request('PATCH', `/rest/credentials/${id}`, body),
		'PATCH /rest/credentials',
	);
}

/**
 * The checks. `ctx`, beside answerLinksTests' fields: `processes` (each webhook process's `name`
 * and `url`), `mainUrl`, `balancer` (the round-robin proxy's per-process counts, with two or more
 * processes) and `credential` (the trigger's, `id`, `name`, `type`).
 */
function webhookProcessTests(ctx, { answered }) {
	test('the main serves no link; the answers went through every webhook process', async () => {
		// The main answers an unknown path with its editor's page; a webhook process shows the link's.
		const link = ctx.links.get(ctx.customers[0].phone);
		const buttons = async (base) =>
			(await (await fetch(on(link, base))).text()).includes('name="choice"');
		expect(await buttons(ctx.mainUrl)).toBe(false);
		for (const { url } of ctx.processes) expect(await buttons(url)).toBe(true);
		if (!ctx.balancer) return;
		const triggerPath = `POST ${new URL(ctx.workflows.triggerUrl).pathname}`;
		const posts = ctx.balancer.counts.map((counts) => counts[triggerPath] ?? 0);
		ctx.figures.answersPerWebhookProcess = posts;
		expect(posts.reduce((sum, n) => sum + n, 0)).toBe(answered);
		expect(posts.filter((n) => n === 0)).toEqual([]);
	});

	const rotated =
		'a rotated API key applies on every webhook process: its links open, the old ones do not';
	test(
		rotated,
		async () => {
			const { triggerUrl } = ctx.workflows;
			const workflowId = ctx.workflows.trigger.id;
			const earlier = new Set(
				(await executionsWith(ctx.rest, { workflowId })).map((e) => String(e.id)),
			);
			await rotateApiKey(ctx, ROTATED_KEY);
			// A customer per process who has not answered: a link under the new key, and the old one.
			const fresh = ctx.processes.map((process, i) => {
				const customer = ctx.customers[answered + i];
				const link = on(foreignLink(triggerUrl, customer, ROTATED_KEY), process.url);
				return { process, customer, link, old: on(ctx.links.get(customer.phone), process.url) };
			});
			// Each refused POST starts nothing, so the first that is recorded is the execution.
			const within = rereadMs() + 15_000;
			for (const { link, old } of fresh) {
				expect(
					await poll(
						() => answer(link),
						(a) => a.status === 200,
						within,
						500,
					),
				).toEqual({
					status: 200,
					recorded: true,
				});
				expect(await refusedBoth(old)).toEqual([
					['GET', 400, false],
					['POST', 400, false],
				]);
			}
			const total = earlier.size + fresh.length;
			const runs = await poll(
				() => executionsWith(ctx.rest, { workflowId, status: ['success'] }),
				(list) => list.length >= total,
				60_000,
			);
			expect(runs).toHaveLength(total);
			expect(await countWith(ctx.rest, { workflowId })).toBe(total);
			const added = runs.filter((run) => !earlier.has(String(run.id)));
			const references = await Promise.all(
				added.map(
					async ({ id }) =>
						lastOutput(await storedExecution(ctx.rest, id), 'Next')[0].json.reference,
				),
			);
			expect(references.sort()).toEqual(fresh.map((f) => f.customer.appointmentId).sort());
			// Received on the webhook processes, run on the workers.
			expect(added.map((run) => ctx.ranBy(String(run.id)))).not.toContain(undefined);
			expect(await countWith(ctx.rest, { status: ['waiting'] })).toBe(0);
		},
		180_000,
	);
}

module.exports = { webhookProcessTests };
