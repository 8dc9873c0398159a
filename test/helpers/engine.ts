/*
 * Runs the built package through n8n-core's own engine: WorkflowExecute for executions (it picks
 * the node's custom operations or RoutingNode), LoadOptionsContext for the dropdown and mapper
 * methods, and RoutingNode for the credential test, the way n8n's CLI does it. Only the host
 * services n8n's server would provide (credential storage, lifecycle hooks) are supplied here.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_LOG_LEVEL ??= 'silent';
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'omni-n8n-'));
}

import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PackageDirectoryLoader,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	sleep,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	ResourceMapperFields,
	WorkflowExecuteMode,
} from 'n8n-workflow';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-omnichannel-messaging';
export const NODE_TYPE = `${PACKAGE_NAME}.omnichannelMessaging`;
export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';

let loaderPromise: Promise<PackageDirectoryLoader> | undefined;

/** Loads dist/ through n8n's package loader, as n8n loads an installed community package. */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loaderPromise ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaderPromise;
}

/** The next `loadPackage` loads dist/ again (test/helpers/process.ts, after a restart). */
export function forgetLoadedPackage(): void {
	loaderPromise = undefined;
}

function shortName(type: string): string {
	return type.startsWith(`${PACKAGE_NAME}.`) ? type.slice(PACKAGE_NAME.length + 1) : type;
}

/** n8n's rule (packages/cli utils) for the node types its registry gives a RoutingNode `execute`. */
function shouldAssignExecuteMethod(type: INodeType): boolean {
	const isDeclarative = type.description.requestDefaults !== undefined;
	return (
		!type.execute &&
		!type.poll &&
		!type.trigger &&
		(!type.webhook || isDeclarative) &&
		(!type.methods || isDeclarative)
	);
}

/**
 * The node types of a workflow, resolved as n8n's own registry (packages/cli NodeTypes) resolves
 * them: a declarative node gets a RoutingNode `execute`, and `<type>Tool` is the node's tool
 * variant, whose outputs are ai_tool (n8n's convertNodeToAiTool also adds a tool description
 * parameter, which these tests do not need).
 */
export class PackageNodeTypes implements INodeTypes {
	private readonly extra = new Map<string, INodeType>();

	constructor(private readonly loader: PackageDirectoryLoader) {}

	register(name: string, type: INodeType) {
		this.extra.set(name, type);
	}

	getByName(nodeType: string) {
		return (
			this.extra.get(nodeType) ?? this.loader.getNode(shortName(nodeType).replace(/Tool$/, '')).type
		);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		if (shouldAssignExecuteMethod(type)) {
			type.execute = async function (this: ExecuteContext) {
				return (await new RoutingNode(this, type).runNode()) ?? [];
			};
		}
		if (this.extra.has(nodeType) || !nodeType.endsWith('Tool')) return type;
		if (!type.description.usableAsTool)
			throw new Error(`${nodeType}: the node cannot be used as a tool`);
		const description = {
			...type.description,
			name: `${type.description.name}Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		};
		return Object.create(type, { description: { value: description } }) as INodeType;
	}

	getKnownTypes() {
		return {};
	}
}

/**
 * Stores credentials in memory and applies a credential type's `authenticate`, as n8n does. It
 * counts reads, and can make each take `readMs`: n8n's own helper reads the credential row from
 * its database and decrypts it on every read. `credentialType` looks a type up in whichever
 * n8n-core's package loader loaded dist/ (the older-engine test loads it with n8n-core 1.63).
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	reads = 0;

	constructor(
		private readonly credentialType: (name: string) => ICredentialType,
		private readonly data: ICredentialDataDecryptedObject,
		private readonly readMs = 0,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type === 'generic') {
			const resolve = (value: string) =>
				workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				) as string;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				const target = ((requestOptions as unknown as Record<string, Record<string, unknown>>)[
					outerKey
				] ??= {});
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					target[resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		this.reads++;
		if (this.readMs > 0) await sleep(this.readMs);
		return { ...this.data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties() {
		return this.credentialType(CREDENTIAL_TYPE).properties;
	}
}

export const credentialTypeOf = (loader: PackageDirectoryLoader) => (name: string) =>
	loader.getCredential(name).type;

export type CredentialData = ICredentialDataDecryptedObject & { baseUrl: string; apiKey: string };

export function additionalDataFor(
	credentialsHelper: TestCredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
	currentNodeParameters?: INodeParameters,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		currentNodeParameters,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface RunOptions {
	parameters: INodeParameters;
	credentials: CredentialData;
	items?: IDataObject[];
	/** Input items with more than json (binary data); instead of `items`. */
	inputItems?: INodeExecutionData[];
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** The execution's id (n8n gives each its own); the benchmark runs several at once. */
	executionId?: string;
	/**
	 * Run the node as an AI agent's tool, the way n8n 2.x does (n8n-core's engine-request path):
	 * the agent's arguments arrive as one item on `main`, parameters read them with `$fromAI()`,
	 * and the output goes to `ai_tool`, where a failure is `{ error: message }`.
	 */
	asAgentTool?: boolean;
	/** Run this type under the node's name instead of the package's (the benchmark's variant). */
	nodeType?: INodeType;
	/** Simulated duration of one credential read, in ms. */
	credentialReadMs?: number;
	/** Cancel the execution after this many ms, as the editor's stop button or n8n's workflow timeout does. */
	cancelAfterMs?: number;
	/** The node's ID (default node-1): two IDs are two nodes of the same workflow. */
	nodeId?: string;
	/**
	 * "Continue (using error output)": the items come from a node before ours (a Start that outputs
	 * them), as in a real workflow, and `errorOutput` holds what n8n routed to the second output.
	 */
	errorOutput?: boolean;
	/**
	 * Go on with a waiting execution (its `run.data`) as n8n's wait tracker does when the wait
	 * time ends: the engine finds `waitTill` set and passes the waiting node's input on.
	 */
	resumeFrom?: IRunExecutionData;
}

export interface RunResult {
	run: IRun;
	/** The node's output items (main output 0, or ai_tool for a tool), or [] when it failed. */
	output: INodeExecutionData[];
	/** With `errorOutput`: the items n8n routed to the error output. */
	errorOutput: INodeExecutionData[];
	/** The error the node failed with, if it did. */
	error?: { message: string; description?: string | null; name?: string; context?: IDataObject };
	hints: Array<{ message: string }>;
	/** How often the engine read the credential. */
	credentialReads: number;
}

export const NODE_NAME = 'Omnichannel Messaging';

/** A node before ours that outputs `items`: n8n then knows where each of our items came from. */
function startBefore(nodeTypes: PackageNodeTypes, items: INodeExecutionData[]) {
	nodeTypes.register('start', {
		description: {
			displayName: 'Start',
			name: 'start',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute() {
			return [items.map((item) => ({ json: { ...item.json } }))];
		},
	});
	const node: INode = {
		id: 'start-1',
		name: 'Start',
		type: 'start',
		typeVersion: 1,
		position: [-200, 0],
		parameters: {},
	};
	const connections = {
		Start: { main: [[{ node: NODE_NAME, type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	return { node, connections };
}

/** One execution of a workflow whose only node is ours, fed `items` as its input. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const loader = await loadPackage();
	const nodeTypes = new PackageNodeTypes(loader);
	if (options.nodeType) nodeTypes.register(NODE_TYPE, options.nodeType);
	const node: INode = {
		id: options.nodeId ?? 'node-1',
		name: NODE_NAME,
		type: options.asAgentTool ? `${NODE_TYPE}Tool` : NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
		continueOnFail: options.continueOnFail ?? false,
		onError: options.errorOutput
			? 'continueErrorOutput'
			: options.continueOnFail
				? 'continueRegularOutput'
				: 'stopWorkflow',
		...(options.asAgentTool ? { rewireOutputLogTo: 'ai_tool' as const } : {}),
	};
	const items = options.inputItems ?? (options.items ?? [{}]).map((json) => ({ json }));
	const start = options.errorOutput ? startBefore(nodeTypes, items) : undefined;
	const workflow = new Workflow({
		id: 'wf-1',
		name: 'test',
		nodes: start ? [start.node, node] : [node],
		connections: start?.connections ?? {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, options.executionId ?? 'exec-1', {
		id: 'wf-1',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	} as never);
	const credentialsHelper = new TestCredentialsHelper(
		credentialTypeOf(loader),
		options.credentials,
		options.credentialReadMs,
	);
	const additionalData = additionalDataFor(credentialsHelper, hooks);
	if (options.executionId) additionalData.executionId = options.executionId;
	const runExecutionData: IRunExecutionData =
		options.resumeFrom ??
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					start
						? { node: start.node, data: { main: [[{ json: {} }]] }, source: null }
						: { node, data: { main: [items] }, source: null },
				],
			},
		});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	// A cancelled execution's promise never settles: n8n reports it through the workflowExecuteAfter hook.
	const cancelled = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolve(fullRunData)),
	);
	const running = workflowExecute.processRunExecutionData(workflow);
	const canceller =
		options.cancelAfterMs === undefined
			? undefined
			: setTimeout(() => running.cancel(), options.cancelAfterMs);
	const run = await Promise.race([
		running,
		options.cancelAfterMs === undefined ? running : cancelled,
	]).finally(() => clearTimeout(canceller));
	const runs = run.data.resultData.runData[NODE_NAME] ?? [];
	const taskData = runs[runs.length - 1];
	const error = taskData?.error ?? run.data.resultData.error;
	return {
		run,
		output:
			(taskData?.data?.[options.asAgentTool ? 'ai_tool' : 'main']?.[0] as
				| INodeExecutionData[]
				| undefined) ?? [],
		errorOutput: (taskData?.data?.main?.[1] as INodeExecutionData[] | undefined) ?? [],
		error: error as RunResult['error'],
		hints: (taskData?.hints as Array<{ message: string }>) ?? [],
		credentialReads: credentialsHelper.reads,
	};
}

/** The node alone in a workflow, as the editor's methods and its waiting webhook see it. */
export function packageNode(parameters: INodeParameters, typeVersion = 1): INode {
	return {
		id: 'node-1',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
	};
}

async function loadOptionsContext(
	parameters: INodeParameters,
	credentials: CredentialData,
	pathName: string,
) {
	const loader = await loadPackage();
	const nodeTypes = new PackageNodeTypes(loader);
	const node = packageNode(parameters);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(
		new TestCredentialsHelper(credentialTypeOf(loader), credentials),
		undefined,
		parameters,
	);
	const type = nodeTypes.getByNameAndVersion(NODE_TYPE, 1);
	return { context: new LoadOptionsContext(workflow, node, additionalData, pathName), type };
}

/** What the editor does when the template dropdown opens or the user types into its search. */
export async function searchList(
	method: string,
	parameters: INodeParameters,
	credentials: CredentialData,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { context, type } = await loadOptionsContext(parameters, credentials, 'templateId');
	const fn = type.methods?.listSearch?.[method];
	if (!fn) throw new Error(`no listSearch method ${method}`);
	return await fn.call(context, filter, paginationToken);
}

/** What the editor does when the Variables mapper loads its fields. */
export async function mapperFields(
	method: string,
	parameters: INodeParameters,
	credentials: CredentialData,
): Promise<ResourceMapperFields> {
	const { context, type } = await loadOptionsContext(parameters, credentials, 'variables');
	const fn = type.methods?.resourceMapping?.[method];
	if (!fn) throw new Error(`no resourceMapping method ${method}`);
	return await fn.call(context);
}

/**
 * n8n's credential test for a credential with a declarative `test`, as the CLI's
 * CredentialsTester runs it: RoutingNode sends the request; rules map the answer.
 */
export async function testCredential(
	credentials: CredentialData,
): Promise<INodeCredentialTestResult> {
	const loader = await loadPackage();
	const credentialType = loader.getCredential(CREDENTIAL_TYPE).type;
	const testRequest = credentialType.test!;
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes = new PackageNodeTypes(loader);
	nodeTypes.register('temp', nodeType);
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(
		new TestCredentialsHelper(credentialTypeOf(loader), credentials),
	);
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		{ resultData: { runData: {} } } as IRunExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const decrypted: ICredentialsDecrypted = {
		id: 'cred-1',
		name: 'Omnichannel account',
		type: CREDENTIAL_TYPE,
		data: credentials,
	};
	try {
		await new RoutingNode(context, nodeType, decrypted).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === cause.response.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

const AGENT_NAME = 'Agent';

/**
 * An agent loop's stand-in: it asks n8n-core for its ai_tool connections (getInputConnectionData,
 * the path of AI Agent up to 2.2, the Tools Agent and the MCP Server Trigger) and invokes the
 * first tool once per scripted call, outputting what each call answered.
 */
function scriptedAgent(calls: IDataObject[]): INodeType {
	return {
		description: {
			displayName: AGENT_NAME,
			name: 'scriptedAgent',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
				invoke(args: IDataObject): Promise<unknown>;
			}>;
			const answers: INodeExecutionData[] = [];
			for (const args of calls)
				answers.push({ json: { answer: String(await tools[0].invoke(args)) } });
			return [answers];
		},
	};
}

/**
 * A workflow of an agent (scriptedAgent) with this node as its tool: each of `calls` is one tool
 * call with the arguments a model chose. Returns what each call answered the agent.
 */
export async function runToolCalls(options: {
	parameters: INodeParameters;
	credentials: CredentialData;
	calls: IDataObject[];
}): Promise<{ run: IRun; answers: string[]; error?: unknown }> {
	const loader = await loadPackage();
	const nodeTypes = new PackageNodeTypes(loader);
	nodeTypes.register('scriptedAgent', scriptedAgent(options.calls));
	const agent: INode = {
		id: 'agent-1',
		name: AGENT_NAME,
		type: 'scriptedAgent',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const tool: INode = {
		id: 'node-1',
		name: NODE_NAME,
		type: `${NODE_TYPE}Tool`,
		typeVersion: 1,
		position: [0, 200],
		parameters: options.parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
	};
	const connections = {
		[NODE_NAME]: {
			[NodeConnectionTypes.AiTool]: [
				[{ node: AGENT_NAME, type: NodeConnectionTypes.AiTool, index: 0 }],
			],
		},
	};
	const workflow = new Workflow({
		id: 'wf-1',
		name: 'agent',
		nodes: [agent, tool],
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new TestCredentialsHelper(
		credentialTypeOf(loader),
		options.credentials,
	);
	const hooks = new ExecutionLifecycleHooks('manual', 'exec-agent', {
		id: 'wf-1',
		name: 'agent',
		nodes: [agent, tool],
		connections,
		settings: {},
	} as never);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: agent, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const additionalData = additionalDataFor(credentialsHelper, hooks);
	// n8n gives every execution its id (Send and Wait signs its links with it).
	additionalData.executionId = 'exec-agent';
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[AGENT_NAME]?.[0];
	const answers = ((taskData?.data?.main?.[0] ?? []) as INodeExecutionData[]).map(
		(item) => item.json.answer as string,
	);
	return { run, answers, error: taskData?.error ?? run.data.resultData.error };
}
