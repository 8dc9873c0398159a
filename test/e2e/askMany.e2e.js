'use strict';
/*
 * Asking 500 customers at once in a real n8n (2.41.1, or 1.123.81 with N8N_PIN=1.x):
 * examples/ask-many-parent.json and examples/ask-many-sub-workflow.json imported as shipped (a
 * credential of the same id, the wait limit 7 minutes instead of 24 hours), against the fake
 * service at 100 ms with 10 requests in flight. Each customer's message reaches the service once
 * with its own link and 500 executions wait; link previews resume none; a run with the same
 * customers sends nothing and leaves them waiting; 300 answers through the page resume exactly
 * those executions with their choice; the other 200 end at the limit with their input.
 */
const { startFakeService } = require('../fake-service');
const { sandboxTemplates } = require('../fake-service/seed');
const n8n = require('../../scripts/lib/n8n');
const { API_KEY, n8nWithCredentials, credentialFor, waitForWebhook } = require('./support');
const ask = require('../helpers/askMany');

const COUNT = 500;
const ANSWERED = 300;
// Long enough for the checks before the limit on a machine of its own (CI); a machine shared with
// other work may need more: ASK_MANY_WAIT_MINUTES.
const WAIT_MINUTES = Number(process.env.ASK_MANY_WAIT_MINUTES ?? 7);
const PREFIX = '/stable/open';

let fake;
let server;
const ctx = { figures: {} };

/** The fake's requests as the helper reads them (the queue test gets the same from its child process). */
ctx.requests = async () =>
	fake.requests.map((r) => ({
		method: r.method,
		path: r.path.startsWith(PREFIX) ? r.path.slice(PREFIX.length) : r.path,
		status: r.status,
		phone: r.body?.customer_phone,
		attributes: r.body?.attributes,
	}));

beforeAll(async () => {
	fake = await startFakeService({
		apiKey: API_KEY,
		latencyMs: 100,
		concurrencyLimit: 10,
		templates: sandboxTemplates(),
	});
	const { root, env } = await n8nWithCredentials('e2e-ask-many', [credentialFor(fake.url)]);
	const { sub, parent, webhookPath } = ask.askManyExamples({ waitMinutes: WAIT_MINUTES });
	await ask.importWorkflows(env, root, [sub, parent]);
	server = await n8n.startN8nServer({ env, timeoutMs: 240_000 });
	ctx.rest = new n8n.N8nRest(server.url);
	await ctx.rest.ownerSetupOrLogin();
	await ask.publishExamples(ctx.rest);
	ctx.hookUrl = `${server.url}/webhook/${webhookPath}`;
	await waitForWebhook(ctx.hookUrl);
}, 420_000);

afterAll(async () => {
	await server?.stop();
	await fake?.close();
	process.stderr.write(
		`\nask many (n8n ${n8n.installedVersion()}): ${JSON.stringify(ctx.figures)}\n`,
	);
});

ask.askManyTests(ctx, { count: COUNT, answered: ANSWERED, waitMinutes: WAIT_MINUTES });
