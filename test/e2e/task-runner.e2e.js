'use strict';
/*
 * The n8n that `npm run dev` starts: external task-runner mode (the mode n8n 2.41 recommends) with
 * the JavaScript runner kept connected by scripts/lib/task-runner.js. Checks that a Code node runs
 * (through a production webhook, so the broker hands the task to that runner), that n8n starts
 * without the Python-runner failure and the deprecation notices, and that stopping the server
 * leaves no runner process behind.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { freshUserFolder } = require('./support');

const WEBHOOK_PATH = 'e2e-runner-check';
const WORKFLOW = {
	id: 'E2eRunnerWf00001',
	name: 'Task runner check: webhook → Code',
	active: false,
	nodes: [
		{
			id: 'r-n0',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'a3d7f0e2-5b7c-4f0e-9a51-2f1c9e0b7d11',
			parameters: { path: WEBHOOK_PATH, responseMode: 'lastNode', options: {} },
		},
		{
			id: 'r-n1',
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				jsCode: 'return [{ json: { sum: $input.first().json.query.a * 2 + 1 } }];',
			},
		},
	],
	connections: { Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
	pinData: {},
};

let server;
let brokerPort;
const lines = [];

beforeAll(async () => {
	const { root, userFolder } = freshUserFolder('e2e-runner');
	const env = n8n.n8nEnv({
		userFolder,
		port: await n8n.freePort(),
		brokerPort: (brokerPort = await n8n.freePort()),
		runners: 'external',
		logLevel: 'warn',
	});
	const workflowFile = path.join(root, 'workflow.json');
	fs.writeFileSync(workflowFile, JSON.stringify(WORKFLOW));
	await n8n.n8nCliOk(['import:workflow', `--input=${workflowFile}`], { env });
	server = await n8n.startN8nServer({ env, log: (line) => lines.push(line) });
}, 180_000);

afterAll(async () => {
	await server?.stop();
});

// `npm run dev` runs n8n 2.41.1. n8n 1.x announces its own coming defaults at every start
// (N8N_BLOCK_ENV_ACCESS_IN_NODE, DB_SQLITE_POOL_SIZE, …), whatever nodes are installed.
const is1x = Number(n8n.installedVersion().split('.')[0]) < 2;
(is1x ? test.skip : test)(
	'starts without the Python-runner failure and without deprecation notices (n8n 2.x)',
	() => {
		const output = lines.join('\n');
		expect(output).not.toMatch(/Python task runner/);
		expect(output).not.toMatch(/deprecations related to your n8n setup/);
		expect(output).not.toMatch(/ - N8N_[A-Z_]+ -> /);
	},
);

test('a Code node runs in the external JavaScript runner', async () => {
	const rest = new n8n.N8nRest(server.url);
	await rest.ownerSetupOrLogin();
	const workflow = await rest.request('GET', `/rest/workflows/${WORKFLOW.id}`);
	expect(workflow.status).toBe(200);
	const activate = await rest.request('POST', `/rest/workflows/${WORKFLOW.id}/activate`, {
		versionId: workflow.json.data.versionId,
	});
	expect(activate.status).toBe(200);

	// n8n registers the webhook a moment after the activation answers.
	let response;
	for (let tries = 0; tries < 20; tries++) {
		response = await fetch(`${server.url}/webhook/${WEBHOOK_PATH}?a=20`);
		if (response.status !== 404) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	expect(response.status).toBe(200);
	// In external mode the broker has no runner of its own: only the launched one can answer.
	expect(await response.json()).toEqual({ sum: 41 });
});

test('stopping the server stops the runner too', async () => {
	expect(runnerPids()).toHaveLength(1);
	await server.stop();
	expect(runnerPids()).toEqual([]);
});

/** Processes of a task runner connected to this test's broker (read from /proc, Linux). */
function runnerPids() {
	const wanted = `N8N_RUNNERS_TASK_BROKER_URI=http://127.0.0.1:${brokerPort}\0`;
	return fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((pid) => {
			try {
				return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(wanted);
			} catch {
				return false; // gone meanwhile, or not ours to read
			}
		});
}
