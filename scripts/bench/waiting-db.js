'use strict';
/*
 * node scripts/bench/waiting-db.js [N]: what N waiting executions cost n8n's database. A real
 * n8n 2.41.1 on SQLite runs docs/send-and-wait.md's "Asking many people at once": a parent
 * (Webhook → N recipients → Loop Over Items → Execute Workflow, not waiting) starts one
 * sub-execution per recipient (Execute Workflow Trigger → WhatsApp Template Send and Wait, a
 * Send Once key each), and each waits. Prints the database's growth and the stored bytes of one
 * waiting execution. Needs `npm run build` first and python3 (its sqlite3 module reads the file).
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');

const { startFakeService } = require('../../test/fake-service');
const e2e = require('../../test/e2e/support');

const COUNT = Number((require.main === module && process.argv[2]) || 100);

/**
 * The database as SQLite counts it (pages in use, the WAL included), the executions, and the
 * waiting rows' bytes; `stored`: every execution's data and copy of its workflow, in bytes.
 */
function measure(database) {
	const sql = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
one = lambda q: db.execute(q).fetchone()
pages = one('pragma page_count')[0] - one('pragma freelist_count')[0]
rows = one("""select count(*), sum(length(d.data)), sum(length(d.workflowData))
  from execution_data d join execution_entity e on e.id = d.executionId where e.status = 'waiting'""")
running = one("select count(*) from execution_entity where status in ('new', 'running')")[0]
executions = one('select count(*) from execution_entity')[0]
stored = one('select sum(length(data)) + sum(length(workflowData)) from execution_data')[0]
others = one("""select sum(length(d.data)) from execution_data d
  join execution_entity e on e.id = d.executionId where e.status != 'waiting'""")[0] or 0
print(json.dumps({'bytes': pages * one('pragma page_size')[0], 'waiting': rows[0], 'running': running,
  'executions': executions, 'stored': stored or 0, 'data': rows[1] or 0, 'workflowData': rows[2] or 0,
  'parentData': others}))`;
	return JSON.parse(execFileSync('python3', ['-c', sql, database], { encoding: 'utf8' }));
}

const at = (index, node) => ({ id: crypto.randomUUID(), position: [index * 240, 0], ...node });
const to = (node, index = 0) => ({ node, type: 'main', index });

function subWorkflow() {
	const ask = e2e.omniNode(
		'Ask',
		e2e.templateSend(
			'101',
			{ 1: '={{ $json.name }}', 2: '={{ $json.order }}' },
			{ sendOnceKey: '={{ $json.phone }}-appointment-2026-12-01' },
			{ operation: 'sendAndWait', linkVariable: 3 },
		),
	);
	const trigger = {
		name: 'Start',
		type: 'n8n-nodes-base.executeWorkflowTrigger',
		typeVersion: 1.1,
		parameters: { inputSource: 'passthrough' },
	};
	const nodes = [at(0, trigger), at(1, ask)];
	return { name: 'Ask one', nodes, connections: { Start: { main: [[to('Ask')]] } } };
}

function parentWorkflow(subId) {
	const recipients = Array.from({ length: COUNT }, (_, i) => ({
		phone: `+49152${String(i).padStart(7, '0')}`,
		name: `Customer ${i}`,
		order: `A-${i}`,
	}));
	const call = {
		name: 'Ask',
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		parameters: {
			source: 'database',
			workflowId: { __rl: true, mode: 'id', value: subId },
			mode: 'once',
			options: { waitForSubWorkflow: false },
		},
	};
	const loop = { name: 'Loop', type: 'n8n-nodes-base.splitInBatches', typeVersion: 3 };
	const nodes = [
		at(0, e2e.webhookTrigger('ask-many', { atOnce: true })),
		at(1, e2e.codeNode('Recipients', recipients)),
		at(2, { ...loop, parameters: { batchSize: 1, options: {} } }),
		at(3, call),
	];
	const connections = {
		Webhook: { main: [[to('Recipients')]] },
		Recipients: { main: [[to('Loop')]] },
		Loop: { main: [[], [to('Ask')]] },
		Ask: { main: [[to('Loop')]] },
	};
	return { name: 'Ask many', nodes, connections };
}

async function main() {
	const fake = await startFakeService({ apiKey: e2e.API_KEY });
	const { root, env } = await e2e.n8nWithCredentials('waiting-db', [e2e.credentialFor(fake.url)]);
	const database = path.join(root, 'user', '.n8n', 'database.sqlite');
	const { server, rest } = await e2e.startServerLoggedIn(env);
	try {
		const settings = { executionOrder: 'v1' };
		const sub = await e2e.createActiveWorkflow(rest, { ...subWorkflow(), settings });
		await e2e.createActiveWorkflow(rest, { ...parentWorkflow(sub.id), settings });
		const hook = `${server.url}/webhook/ask-many`;
		await e2e.waitForWebhook(hook);
		const before = measure(database);
		const started = Date.now();
		await e2e.callWebhook(hook, {});
		let after = measure(database);
		while (after.waiting < COUNT || after.running > 0) {
			if (Date.now() - started > 600_000) throw new Error(`${after.waiting} waiting after 10 min`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			after = measure(database);
		}
		const grown = after.bytes - before.bytes;
		const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
		console.log(
			JSON.stringify({
				before,
				after,
				sends: fake.sends().length,
				askedInMs: Date.now() - started,
			}),
		);
		console.log(
			`${COUNT} waiting executions: the database grew by ${kB(grown)} (${kB(grown / COUNT)} ` +
				`each, the parent's execution and its ${kB(after.parentData)} of data included); one ` +
				`waiting execution's stored data: ` +
				`${kB(after.data / COUNT)} + its copy of the workflow ${kB(after.workflowData / COUNT)}`,
		);
	} finally {
		await server.stop();
		await fake.close();
	}
}

if (require.main === module)
	main().catch((error) => {
		console.error(error);
		process.exitCode = 1;
	});

module.exports = { measure };
