'use strict';
/*
 * Asking many customers at once in a real n8n (2.41.1, or 1.123.81 with N8N_PIN=1.x):
 * examples/ask-many-parent.json and examples/ask-many-sub-workflow.json imported as shipped (a
 * credential of the same id, a wait limit of seconds instead of 24 hours), against the fake
 * service at 100 ms with 10 requests in flight. Each customer's message reaches the service once
 * with its own link and every execution waits; link previews resume none; a run with the same
 * customers sends nothing and leaves them waiting; answers through the page resume exactly those
 * executions with their choice; the others end at the limit with their input.
 *
 * `npm run test:e2e` asks 8 customers with a 45-second limit; `npm run bench:ask-many` asks 500
 * with a 7-minute limit (test/helpers/askMany.js, askManySizes).
 */
const { startFakeService } = require('../fake-service');
const { sandboxTemplates } = require('../fake-service/seed');
const n8n = require('../../scripts/lib/n8n');
const { API_KEY, n8nWithCredentials, credentialFor, waitForWebhook } = require('./support');
const ask = require('../helpers/askMany');

const { count, answered, waitSeconds } = ask.askManySizes();
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
	const { sub, parent, webhookPath } = ask.askManyExamples({ waitSeconds });
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
		`\nask many (n8n ${n8n.installedVersion()}, ${count} customers, ${waitSeconds} s limit): ` +
			`${JSON.stringify(ctx.figures)}\n`,
	);
});

ask.askManyTests(ctx, { count, answered, waitSeconds });
