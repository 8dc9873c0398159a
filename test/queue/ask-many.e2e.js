'use strict';
/*
 * Asking many customers at once in queue mode (Redis, Postgres, a main, two workers and an
 * `n8n webhook` process that receives every production webhook, the main none; the benchmark
 * runs two behind a round-robin proxy, QUEUE_WEBHOOK_PROCESSES=2):
 * examples/ask-many-parent.json and examples/ask-many-sub-workflow.json imported through n8n's
 * CLI as shipped (the credential re-pointed, a wait limit of seconds instead of 24 hours), the
 * fake service at 100 ms with 10 requests in flight. The same checks as test/e2e/askMany.e2e.js
 * (test/helpers/askMany.js): one message per customer with its own link, every execution waiting
 * in Postgres, previews resume none, a second run sends nothing and leaves them waiting, answers
 * through the webhook process resume exactly those executions on a worker, the others end at the
 * limit.
 *
 * `npm run test:queue` asks 8 customers with a 45-second limit; `npm run bench:ask-many:queue`
 * asks 200 with a 5-minute limit (test/helpers/askMany.js, askManySizes).
 *
 * Then the other way, on the same deployment: answer links (test/helpers/answerLinksMany.js). A
 * worker sends the broadcast, sealing each link with the credential it decrypts; the webhook
 * processes open the links and start an execution per answer, which a worker runs; each refuses
 * a bad link and applies a rotated API key (test/helpers/answerLinksWebhooks.js). 20 customers,
 * 10 answers; `npm run bench:answer-links:queue` runs 500 and 200 on two webhook processes.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const queue = require('../../scripts/lib/queue');
const { sandboxTemplates } = require('../fake-service/seed');
const {
	API_KEY,
	startFakeServiceProcess,
	createCredential,
	waitForWebhook,
	stopAndReport,
} = require('./support');
const { createActiveWorkflow } = require('../e2e/support');
const ask = require('../helpers/askMany');
const links = require('../helpers/answerLinksMany');
const { webhookProcessTests } = require('../helpers/answerLinksWebhooks');

const { count, answered, waitSeconds } = ask.askManySizes();
const linkSizes = links.answerLinksSizes();
// `n8n webhook` processes receiving every production webhook; the benchmark runs two.
const WEBHOOK_PROCESSES = Number(process.env.QUEUE_WEBHOOK_PROCESSES ?? 1);
const LATENCY_MS = 100;
const LOG_DIR = path.join(n8n.REPO_ROOT, '.tmp', 'queue-logs');
const LOG_FILE = path.join(LOG_DIR, 'ask-many-stack.log');

let stack;
let fake;
const ctx = { figures: {} };
const linksCtx = { figures: {} };

beforeAll(async () => {
	fs.mkdirSync(LOG_DIR, { recursive: true });
	fs.writeFileSync(LOG_FILE, '');
	const log = (line) => fs.appendFileSync(LOG_FILE, `${line}\n`);
	stack = await queue.startQueueStack({ workers: 2, webhooks: WEBHOOK_PROCESSES, log });
	fake = await startFakeServiceProcess({
		apiKey: API_KEY,
		latencyMs: LATENCY_MS,
		concurrencyLimit: 10,
		templates: sandboxTemplates(),
	});
	ctx.requests = async () => (await fake.snapshot()).requests;
	ctx.rest = new n8n.N8nRest(stack.main.url);
	await ctx.rest.ownerSetupOrLogin();
	const credential = await createCredential(ctx.rest, fake.url);
	const { sub, parent, webhookPath } = ask.askManyExamples({
		waitSeconds,
		credential,
	});
	// The CLI writes into the deployment's Postgres, as an administrator imports examples there.
	const cliFolder = path.join(stack.dir, 'cli');
	fs.mkdirSync(cliFolder, { recursive: true });
	const env = queue.queueEnv({
		stack,
		userFolder: cliFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
	});
	await ask.importWorkflows(env, stack.dir, [sub, parent]);
	await ask.publishExamples(ctx.rest);
	ctx.hookUrl = `${stack.webhookUrl}/webhook/${webhookPath}`;
	await waitForWebhook(ctx.hookUrl);

	const workflows = links.answerLinksWorkflows({ baseUrl: stack.webhookUrl, credential });
	linksCtx.workflows = {
		...workflows,
		trigger: await createActiveWorkflow(ctx.rest, workflows.trigger),
		send: await createActiveWorkflow(ctx.rest, workflows.send),
		form: await createActiveWorkflow(ctx.rest, workflows.form),
	};
	await waitForWebhook(workflows.triggerUrl);
	await ask.poll(
		async () => (await fetch(workflows.formUrl)).status,
		(status) => status === 200,
		30_000,
		250,
	);
	await waitForWebhook(workflows.sendUrl);
	Object.assign(linksCtx, { rest: ctx.rest, requests: ctx.requests, latencyMs: LATENCY_MS });
	Object.assign(linksCtx, {
		credential,
		mainUrl: stack.main.url,
		processes: stack.webhooks.map(({ name, url }) => ({ name, url })),
		webhookBases: stack.webhooks.map(({ url }) => url),
		balancer: stack.balancer,
	});
	// Each worker logs the executions it takes: which one ran an execution, if any did.
	linksCtx.ranBy = (id) =>
		stack.workers.find((worker) => worker.started.some((s) => s.executionId === id))?.name;
}, 420_000);

afterAll(async () => {
	await stopAndReport(
		[fake, stack],
		`ask many (${count} customers, ${waitSeconds} s limit): ${JSON.stringify(ctx.figures)}\n` +
			`answer links (${JSON.stringify(linkSizes)}, ${WEBHOOK_PROCESSES} webhook processes): ` +
			JSON.stringify(linksCtx.figures),
		LOG_FILE,
	);
}, 120_000);

ask.askManyTests(ctx, { count, answered, waitSeconds });

describe('answer links', () => {
	links.answerLinksTests(linksCtx, linkSizes);
	webhookProcessTests(linksCtx, linkSizes);
});
