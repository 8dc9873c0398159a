/**
 * Send Once per Key on an n8n without the processed-data helpers (`checkProcessedAndRecord` and
 * `removeProcessed` came with n8n 1.64): a key given is a clear error naming the version needed,
 * and nothing is sent. Run by a real older engine, n8n-core 1.63.0 (the devDependency alias
 * n8n-core-1-63, with its own n8n-workflow 1.62.0): its package loader loads dist/, its
 * WorkflowExecute runs the node with its own execute functions and helpers, against the fake service.
 *
 * What n8n 1.63 makes of this package as it is:
 * - With n8n 1.63's own n8n-workflow (1.62) the node does not load: 1.62 has no `NodeConnectionTypes`.
 * - With a newer n8n-workflow next to the package (this package names it as a peer, "*", and npm 7+
 *   installs a peer when a user runs `npm install n8n-nodes-omnichannel-messaging` in
 *   ~/.n8n/nodes; here dist/ sits next to node_modules/n8n-workflow 2.41 the same way) it loads,
 *   and its engine runs the node's own `execute` (0.1.x left the sends to `customOperations`, which
 *   n8n-core learnt in 1.81, so 1.63 ran them as a declarative GET of the base URL): the sends
 *   work, and a send-once key is the error naming n8n 1.64, with nothing sent.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { NodeExecuteFunctions, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core-1-63';
import {
	LoggerProxy,
	NodeHelpers,
	Workflow,
	WorkflowHooks,
} from 'n8n-core-1-63/node_modules/n8n-workflow';
import type { INodeParameters as CurrentNodeParameters } from 'n8n-workflow';
// The older n8n's own types, which its engine's functions take.
import type * as Older from 'n8n-core-1-63/node_modules/n8n-workflow';

import {
	CREDENTIAL_TYPE,
	NODE_NAME,
	NODE_TYPE,
	PACKAGE_NAME,
	PACKAGE_ROOT,
	TestCredentialsHelper,
} from '../helpers/engine';
import { API_KEY, broadcastSend, mapped, useFakeService } from '../helpers/fixtures';
import { startFakeServiceChild } from '../fake-service/process';
import { broadcastTurns, MOST_ITEMS_BETWEEN_TURNS, turnsWhileChecking } from '../helpers/eventLoop';

const service = useFakeService();
const SEND_PATH = '/whatsapp/send-template-message';
const OLD_CORE = path.dirname(require.resolve('n8n-core-1-63/package.json'));

async function loadWith1_63(packageRoot: string): Promise<PackageDirectoryLoader> {
	const loader = new PackageDirectoryLoader(packageRoot);
	await loader.loadAll();
	return loader;
}

let loader: PackageDirectoryLoader;
beforeAll(async () => {
	loader = await loadWith1_63(PACKAGE_ROOT);
});

/** One execution of a workflow whose only node is ours, by n8n-core 1.63's WorkflowExecute. */
async function runWith1_63(
	parameters: CurrentNodeParameters,
	items: Older.IDataObject[],
	onError?: Older.INode['onError'],
	credentials: { baseUrl: string; apiKey: string } = service.credentials,
) {
	const type = loader.nodeTypes[NODE_TYPE].type as Older.INodeType;
	const nodeTypes: Older.INodeTypes = {
		getByName: () => type,
		getByNameAndVersion: (_name, version) =>
			NodeHelpers.getVersionedNodeType(type, version) as Older.INodeType,
		getKnownTypes: () => ({}),
	};
	const node: Older.INode = {
		id: 'node-1',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		// The same JSON a workflow stores; only its TypeScript type differs between the two n8n-workflows.
		parameters: parameters as unknown as Older.INodeParameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
		...(onError ? { onError } : {}),
	};
	const workflowData = {
		id: 'wf-1',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		settings: { executionOrder: 'v1' as const },
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper(
			(name) => loader.credentialTypes[name].type as never,
			credentials,
		),
		hooks: new WorkflowHooks({}, 'manual', 'exec-1', workflowData as never),
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used');
		},
		logAiEvent: () => {},
	} as unknown as Older.IWorkflowExecuteAdditionalData;
	const runExecutionData: Older.IRunExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [
				{ node, data: { main: [items.map((json) => ({ json }))] }, source: null },
			],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	};
	const run: Older.IRun = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	return {
		output: taskData?.data?.main?.[0] ?? [],
		errorOutput: taskData?.data?.main?.[1] ?? [],
		hints: taskData?.hints ?? [],
		error: (taskData?.error ?? run.data.resultData.error) as
			| { message: string; description?: string | null }
			| undefined,
	};
}

const contacts = [
	{ orderId: 'A-1', phone: '+4915100000001', name: 'Anna' },
	{ orderId: 'A-2', phone: '+4915100000002', name: 'Ben' },
];
const withKey = broadcastSend({ sendOnceKey: '={{ $json.orderId }}-shipped' });

test('the engine is n8n-core 1.63.0: no processed-data helpers, no custom operations', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	expect(require(path.join(OLD_CORE, 'package.json')).version).toBe('1.63.0');
	expect(NodeExecuteFunctions).not.toHaveProperty('checkProcessedAndRecord');
	expect(NodeExecuteFunctions).not.toHaveProperty('removeProcessed');
	// n8n-core 1.81+ picks a custom operation in WorkflowExecute.getCustomOperation.
	expect(WorkflowExecute.prototype).not.toHaveProperty('getCustomOperation');
});

describe('what n8n 1.63 makes of the package as it is', () => {
	test("with n8n 1.63's own n8n-workflow (1.62), the node does not load", async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'omni-n8n-1.63-'));
		try {
			const installed = path.join(root, 'node_modules', PACKAGE_NAME);
			mkdirSync(installed, { recursive: true });
			cpSync(path.join(PACKAGE_ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true });
			cpSync(path.join(PACKAGE_ROOT, 'package.json'), path.join(installed, 'package.json'));
			symlinkSync(
				path.join(OLD_CORE, 'node_modules', 'n8n-workflow'),
				path.join(root, 'node_modules', 'n8n-workflow'),
				'dir',
			);
			await expect(loadWith1_63(installed)).rejects.toThrow(
				"Cannot read properties of undefined (reading 'Main')",
			);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

describe("the send operation in n8n 1.63's engine, with n8n-workflow 2.x as its peer", () => {
	test('without a key, it sends: each message reaches the service once', async () => {
		const { output, error } = await runWith1_63(broadcastSend(), contacts);
		expect(error).toBeUndefined();
		expect(output.map((item) => [item.json.status, item.pairedItem])).toEqual([
			['ongoing', { item: 0 }],
			['ongoing', { item: 1 }],
		]);
		expect(service.fake.sends(SEND_PATH).map((r) => [r.status, r.body.customer_phone])).toEqual([
			[200, '+4915100000001'],
			[200, '+4915100000002'],
		]);
	});

	test('with Send Once per Key, it fails naming n8n 1.64, and the service gets no request at all', async () => {
		const { output, error } = await runWith1_63(withKey, contacts);
		expect(output).toEqual([]);
		expect(error?.message).toBe('Send Once per Key needs n8n 1.64 or later');
		expect(error?.description).toBe(
			'This n8n has no processed-data store for nodes. Update n8n, or clear the Send Once per ' +
				'Key option. Nothing was sent.',
		);
		// Not a send, and not the template check's read either.
		expect(service.fake.requests).toEqual([]);
	});
});

describe("n8n 1.x's error output: only an item with `error` set goes there (json with `details` does not)", () => {
	test(
		'Continue (using error output): the bad item on the error output with its documented json, ' +
			'the others sent',
		async () => {
			const items = [contacts[0], { orderId: 'A-3', phone: '0151 234', name: 'Cara' }, contacts[1]];
			const { output, errorOutput, error } = await runWith1_63(
				broadcastSend(),
				items,
				'continueErrorOutput',
			);
			expect(error).toBeUndefined();
			// n8n 1.63 reverses the order of what it routes (it pops the items; 1.123 shifts them).
			expect(output.map((item) => [item.json.status, item.pairedItem]).reverse()).toEqual([
				['ongoing', { item: 0 }],
				['ongoing', { item: 2 }],
			]);
			expect(errorOutput).toHaveLength(1);
			expect(Object.keys(errorOutput[0].json).sort()).toEqual(['details', 'error', 'message']);
			expect(errorOutput[0].json.details).toEqual({
				outcome: 'notSent',
				reason: 'invalidInput',
				field: 'Customer Phone',
			});
			expect(errorOutput[0].error).toBeUndefined();
		},
	);
});

describe('the run summary on n8n 1.63, whose nodes have no execution hints', () => {
	afterEach(() => {
		const silent = () => {};
		LoggerProxy.init({ error: silent, warn: silent, info: silent, debug: silent });
	});

	test(
		'600 recipients, 3 bad, Continue (using error output): the run goes on without a hint, and ' +
			"n8n's log has the summary",
		async () => {
			const lines: string[] = [];
			const record = (message: string) => lines.push(message);
			LoggerProxy.init({ error: record, warn: record, info: record, debug: record });
			const bad = [7, 300, 599];
			const items = Array.from({ length: 600 }, (_, i) => ({
				phone: bad.includes(i) ? `0151 ${i}` : `+491520${String(i).padStart(6, '0')}`,
				name: `Customer ${i}`,
			}));
			const { output, errorOutput, error, hints } = await runWith1_63(
				broadcastSend({ validateTemplate: false }),
				items,
				'continueErrorOutput',
			);
			expect(error).toBeUndefined();
			// First what went to the error output: a send lost at random (seen once in CI) shows why.
			expect(errorOutput.map((item) => item.json.details)).toEqual(
				bad.map(() => expect.objectContaining({ outcome: 'notSent', reason: 'invalidInput' })),
			);
			expect(output).toHaveLength(597);
			expect(errorOutput).toHaveLength(3);
			expect(hints).toEqual([]);
			expect(lines).toContainEqual(
				expect.stringMatching(
					/^Omnichannel Messaging: send run completed: 600 item\(s\): 597 sent, 3 failed \(on the error output\), in /,
				),
			);
		},
	);
});

describe("n8n 1.x's event loop while thousands are checked and sent", () => {
	const RECIPIENTS = 2000;
	const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
		phone: `+491520${String(i).padStart(6, '0')}`,
		name: `Customer ${i}`,
	}));
	const parameters = broadcastSend({ validateTemplate: false });

	test('Stop Workflow: every item is checked before the first send, the event loop turning throughout', async () => {
		const { result, firstSendAt, phoneReadAt } = await broadcastTurns(
			service.fake,
			recipients,
			async (items) => await runWith1_63(parameters, items),
		);
		expect(result.error?.message).toBeUndefined();
		expect(result.output).toHaveLength(RECIPIENTS);
		expect(Math.max(...phoneReadAt)).toBeLessThanOrEqual(firstSendAt);
		expect(turnsWhileChecking(phoneReadAt)).toBeGreaterThanOrEqual(
			Math.floor(RECIPIENTS / MOST_ITEMS_BETWEEN_TURNS),
		);
	}, 120_000);

	test(
		'Continue (using error output): the first message leaves while the others are still being ' +
			'checked, the event loop turning throughout',
		async () => {
			const { result, firstSendAt, phoneReadAt } = await broadcastTurns(
				service.fake,
				recipients,
				async (items) => await runWith1_63(parameters, items, 'continueErrorOutput'),
			);
			expect(result.output.length + result.errorOutput.length).toBe(RECIPIENTS);
			expect(result.output).toHaveLength(RECIPIENTS);
			expect(firstSendAt).toBeLessThan(phoneReadAt[MOST_ITEMS_BETWEEN_TURNS]);
			expect(turnsWhileChecking(phoneReadAt)).toBeGreaterThanOrEqual(
				Math.floor(RECIPIENTS / MOST_ITEMS_BETWEEN_TURNS),
			);
		},
		120_000,
	);
});

/** Enough recipients that checking them all takes this engine well over a second. */
const BROADCAST_OUTLASTING_IDLE = 3000;

describe("n8n 1.x's pool of idle connections", () => {
	test(
		'a check that outlasts the service closing idle connections sends no message on a closed one: ' +
			'every item is sent once, none is lost',
		async () => {
			// In a process of its own, so that it closes idle connections whatever the test's event loop does.
			const fake = await startFakeServiceChild({ apiKey: API_KEY, idleTimeoutMs: 1000 });
			try {
				const credentials = { baseUrl: fake.url, apiKey: API_KEY };
				const recipients = (count: number) =>
					Array.from({ length: count }, (_, i) => ({
						phone: `+491520${String(i).padStart(6, '0')}`,
						name: `Customer ${i}`,
						order: 1000 + i,
						day: 'Friday',
					}));
				// Every value an expression: a check that costs what a CRM broadcast's does.
				const parameters = broadcastSend(
					{ validateTemplate: false, concurrency: 20 },
					{
						variables: mapped({
							'1': '={{ $json.name }}',
							'2': '={{ $json.order }}',
							'3': '={{ $json.day }}',
						}),
					},
				);
				// The first run leaves the helper's pool holding idle connections to the service.
				const warm = await runWith1_63(parameters, recipients(40), undefined, credentials);
				expect(warm.output).toHaveLength(40);
				await fake.reset();
				// Stop Workflow, n8n's default: every item is checked before the first is sent.
				const items = recipients(BROADCAST_OUTLASTING_IDLE);
				const { output, error } = await runWith1_63(parameters, items, undefined, credentials);
				const { requests, idleClosedAt } = await fake.snapshot();
				const sends = requests.filter((request) => request.path === SEND_PATH);
				// A message sent on a closed connection stops the run, and its error says why.
				expect(error?.message).toBeUndefined();
				expect(output).toHaveLength(items.length);
				expect(sends).toHaveLength(items.length);
				// The service did close the idle connections before the first send: the check outlasted them.
				const firstSend = Math.min(...sends.map((request) => request.time));
				expect(idleClosedAt.filter((at) => at < firstSend).length).toBeGreaterThan(0);
			} finally {
				await fake.stop();
			}
		},
		120_000,
	);
});
