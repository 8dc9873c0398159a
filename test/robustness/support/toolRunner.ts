/**
 * Runs the node the way n8n 2.x runs a tool an AI agent called (the "engine request" path of
 * n8n-core's requests-response.ts): the tool node gets the agent's arguments as one item on its
 * `main` input, `node.rewireOutputLogTo = 'ai_tool'`, and `$fromAI('name')` reads the argument.
 * A failure then becomes `{ error: message }` on the ai_tool output: the message (not the
 * description) is all the agent reads.
 *
 * Needed because the harness' `inputConnection: 'ai_tool'` puts the items under an `ai_tool`
 * key of the start node's input, which n8n-core does not run: establishing the execution context
 * reads `data.main[0]` of the first node (TypeError), and prepareConnectionInputData only takes
 * `main` input for a node with custom operations.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { ICredentialsHelper, NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, NODE_NAME, NODE_TYPE, PACKAGE_NAME, loadPackage } from '../../helpers/engine';
import type { CredentialData } from '../../helpers/engine';

type Loader = Awaited<ReturnType<typeof loadPackage>>;

class NodeTypes implements INodeTypes {
	constructor(private readonly loader: Loader) {}

	getByName(nodeType: string) {
		return this.loader.getNode(nodeType.replace(`${PACKAGE_NAME}.`, '')).type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

/** Applies the credential's generic `authenticate` block, as n8n's CredentialsHelper does. */
class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly loader: Loader,
		private readonly data: ICredentialDataDecryptedObject,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions, workflow: Workflow, node: INode) {
		const { authenticate } = this.loader.getCredential(typeName).type;
		if (authenticate && typeof authenticate === 'object' && authenticate.type === 'generic') {
			const resolve = (value: string) =>
				workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '') as string;
			for (const [outer, inner] of Object.entries(authenticate.properties)) {
				const target = ((requestOptions as unknown as Record<string, Record<string, unknown>>)[outer] ??= {});
				for (const [key, value] of Object.entries(inner as Record<string, string>)) target[resolve(key)] = resolve(value);
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

	async getDecrypted() {
		return { ...this.data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	isCredentialUsableByNode() {
		return true;
	}

	getCredentialsProperties() {
		return this.loader.getCredential(CREDENTIAL_TYPE).type.properties;
	}
}

export interface ToolRunResult {
	run: IRun;
	/** What the agent gets back: the node's ai_tool output. */
	output: INodeExecutionData[];
}

/** One tool call: `args` are what the agent passed; parameters read them with `$fromAI(...)`. */
export async function runAsTool(parameters: INodeParameters, credentials: CredentialData, args: IDataObject): Promise<ToolRunResult> {
	const loader = await loadPackage();
	const node: INode = {
		id: 'tool-1',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Omnichannel account' } },
		rewireOutputLogTo: 'ai_tool',
	};
	const workflow = new Workflow({ id: 'wf-tool', name: 'agent', nodes: [node], connections: {}, active: false, nodeTypes: new NodeTypes(loader), settings: { executionOrder: 'v1' } });
	const hooks = new ExecutionLifecycleHooks('manual', 'exec-tool', { id: 'wf-tool', name: 'agent', nodes: [node], connections: {}, active: false, settings: {}, createdAt: new Date(), updatedAt: new Date(), isArchived: false, activeVersionId: null } as never);
	const additionalData = {
		credentialsHelper: new CredentialsHelper(loader, credentials),
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not used');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: [[{ json: { ...args, toolCallId: 'call_1' } }]] }, source: null }] },
	});
	const run = await new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	const task = run.data.resultData.runData[NODE_NAME]?.[0];
	return { run, output: (task?.data?.ai_tool?.[0] as INodeExecutionData[] | undefined) ?? [] };
}
