'use strict';
/*
 * What a builder and an operator see of a broadcast in a real n8n (2.41.1, or 1.123.81 with
 * N8N_PIN=1.x), with N8N_LOG_LEVEL=debug: the run summary is an execution hint stored with the
 * execution (the node's run data, `hints`, read back over n8n's REST API), and n8n's server output
 * has the node's start, pause and end lines, with no phone number, name, variable value or key.
 */
const { startFakeService } = require('../fake-service');
const n8n = require('../../scripts/lib/n8n');
const { freshUserFolder, executionMark, executionSince } = require('./support');
// The queue tests' n8n helpers: credential, workflow, webhook and execution over the REST API.
const queue = require('../queue/support');

const SEND_PATH = '/whatsapp/send-template-message';
const BAD = [7, 300, 599];

let fake;
let server;
let rest;
let credential;
const serverLines = [];

beforeAll(async () => {
	fake = await startFakeService({ apiKey: queue.API_KEY });
	const { userFolder } = freshUserFolder('e2e-run-summary');
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: await n8n.freePort(),
		logLevel: 'debug',
	});
	server = await n8n.startN8nServer({ env, log: (line) => serverLines.push(line) });
	rest = new n8n.N8nRest(server.url);
	await rest.ownerSetupOrLogin();
	credential = await queue.createCredential(rest, fake.url);
}, 180_000);

afterAll(async () => {
	await server?.stop();
	await fake?.close();
});

/** Publishes a broadcast workflow and calls it once with `people`; gives back the stored execution. */
async function broadcast(webhookPath, people, { onError } = {}) {
	const workflow = queue.broadcastWorkflow({
		name: `e2e run summary ${webhookPath}`,
		webhookPath,
		credential,
		options: { validateTemplate: false },
	});
	if (onError)
		for (const node of workflow.nodes) if (node.name === 'Send template') node.onError = onError;
	const created = await queue.createActiveWorkflow(rest, workflow);
	const url = `${server.url}/webhook/${webhookPath}`;
	await queue.waitForWebhook(url);
	const mark = await executionMark(rest, created.id);
	await queue.callWebhook(url, { recipients: people });
	const { id } = await executionSince(rest, created.id, mark);
	return await queue.execution(rest, id);
}

test(
	'600 recipients, 3 bad, Continue (using error output): one hint stored with the execution, ' +
		'597 sent and 3 failed',
	async () => {
		fake.reset();
		const people = queue
			.recipients(1, 600)
			.map((person, i) => (BAD.includes(i) ? { ...person, phone: `0151 ${i}` } : person));
		const stored = await broadcast('e2e-run-summary-hint', people, {
			onError: 'continueErrorOutput',
		});
		const [run] = stored.data.resultData.runData['Send template'];
		expect(run.data.main[0]).toHaveLength(597);
		expect(run.data.main[1]).toHaveLength(3);
		expect(fake.sends(SEND_PATH).filter((r) => r.status === 200)).toHaveLength(597);
		expect(run.hints).toEqual([
			{
				message: expect.stringMatching(
					/^600 item\(s\): 597 sent, 3 failed \(on the error output\), in \d+(\.\d)? (s|min)/,
				),
				type: 'warning',
				location: 'outputPane',
			},
		]);
	},
	180_000,
);

test(
	"a broadcast of 600 against a service answering 429: n8n's debug log has the node's start, " +
		'pause and end lines, and no number, name, variable value or key',
	async () => {
		fake.reset();
		fake.setLimits({ concurrencyLimit: 4, retryAfter: '1' });
		fake.latencyMs = 20;
		const people = queue.recipients(2, 600);
		const from = serverLines.length;
		let stored;
		try {
			stored = await broadcast('e2e-run-summary-log', people);
		} finally {
			fake.setLimits({ concurrencyLimit: null });
			fake.latencyMs = 0;
		}
		expect(stored.status).toBe('success');
		expect(fake.tooMany.inFlight).toBeGreaterThan(0);
		const log = serverLines.slice(from);
		const ours = log.filter((line) => line.includes('Omnichannel Messaging: '));
		expect(ours.some((line) => line.includes('send run started: 600 item(s)'))).toBe(true);
		expect(ours.some((line) => /asked to slow down \(429\)/.test(line))).toBe(true);
		expect(ours.some((line) => /send run completed: 600 item\(s\): 600 sent/.test(line))).toBe(
			true,
		);
		const text = serverLines.join('\n');
		expect(text).not.toContain(queue.API_KEY);
		for (const person of people) {
			expect(text).not.toContain(person.phone);
			expect(text).not.toContain(person.name);
			expect(text).not.toContain(person.orderId);
		}
		expect(text).not.toContain('Friday');
	},
	240_000,
);
