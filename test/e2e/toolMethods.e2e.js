'use strict';
/*
 * The node as an AI agent's tool (`omnichannelMessagingTool`, n8n's variant of a usableAsTool node)
 * in a real n8n: the Channel and Template lists and the Variables mapper answer the editor's REST
 * calls for it as for the node, in both node versions and for Channel in each saved form (a
 * locator, 0.1.0's plain number). And n8n loads the node's versions and its editor hints; the
 * AI Workflow Builder's hints are description fields n8n 1.x does not know and loads past.
 */

const { startFakeService } = require('../fake-service');
const n8n = require('../../scripts/lib/n8n');
const { API_KEY, CREDENTIAL } = require('./support');
const { useEditorN8n } = require('./support');

const TOOL_NODE_TYPE = `${n8n.NODE_TYPE}Tool`;
const CHANNELS = [
	['12', 'WhatsApp Sales (+4930123456)'],
	['13', 'WhatsApp Support (+4930654321)'],
];
const ORDER_SHIPPED_FIELDS = [
	['1', '{{1}}: Hi ___, your order…'],
	['2', '{{2}}: …{{1}}, your order ___ has shipped and…'],
	['3', '{{3}}: …and arrives on ___. Track it…'],
];

const editor = useEditorN8n(
	'e2e-tool-methods',
	async () => await startFakeService({ apiKey: API_KEY }),
);

/** One of the editor's calls for a list or the mapper of the node `type` at `version`. */
async function editorCall(endpoint, { type, version, methodName, name, channelId }) {
	const response = await editor.rest.request('POST', `/rest/dynamic-node-parameters/${endpoint}`, {
		nodeTypeAndVersion: { name: type, version },
		credentials: { [n8n.CREDENTIAL_TYPE]: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		currentNodeParameters: {
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId,
			templateId: { __rl: true, mode: 'list', value: '101' },
			variablesMode: 'mapper',
		},
		methodName,
		path: `parameters.${name}`,
	});
	if (response.status !== 200) throw new Error(`${endpoint}: ${response.status} ${response.text}`);
	return response.json.data;
}

// Each node type and version, with Channel as each of them saves it.
const CASES = [
	[TOOL_NODE_TYPE, 2, { __rl: true, mode: 'list', value: '12' }],
	[TOOL_NODE_TYPE, 1, { __rl: true, mode: 'id', value: '12' }],
	[TOOL_NODE_TYPE, 1, 12],
	[n8n.NODE_TYPE, 2, { __rl: true, mode: 'id', value: '12' }],
];

test.each(CASES)(
	'%s version %s, Channel %j: channel list, template list, variables mapper',
	async (type, version, channelId) => {
		const call = { type, version, channelId };
		const channels = await editorCall('resource-locator-results', {
			...call,
			methodName: 'searchChannels',
			name: 'channelId',
		});
		expect(channels.results.map(({ value, name }) => [value, name])).toEqual(CHANNELS);
		editor.service.reset();
		const templates = await editorCall('resource-locator-results', {
			...call,
			methodName: 'searchTemplates',
			name: 'templateId',
		});
		// The fake's seven templates, 101 to 107.
		const ids = Array.from({ length: 7 }, (_, index) => String(101 + index));
		expect(templates.results.map(({ value }) => value)).toEqual(ids);
		expect(templates.results[0].name).toMatch(/^order_shipped/);
		expect(editor.service.requests.map((r) => r.query)).toEqual([{ platform_id: '12' }]);
		const mapper = await editorCall('resource-mapper-fields', {
			...call,
			methodName: 'getTemplateVariables',
			name: 'variables',
		});
		expect(mapper.fields.map(({ id, displayName }) => [id, displayName])).toEqual(
			ORDER_SHIPPED_FIELDS,
		);
		expect(mapper.fields.every((field) => field.required && field.type === 'string')).toBe(true);
	},
	60_000,
);

test('n8n loads both node versions, new nodes get version 2; the tool variant has the same', async () => {
	const types = await editor.rest.request('GET', '/types/nodes.json');
	expect(types.status).toBe(200);
	for (const name of [n8n.NODE_TYPE, TOOL_NODE_TYPE]) {
		const node = types.json.find((candidate) => candidate.name === name);
		expect(node).toMatchObject({ version: [1, 2], defaultVersion: 2 });
		expect(node.hints.map(({ type, location }) => [type, location])).toEqual([
			['warning', 'ndv'],
			['warning', 'ndv'],
		]);
		const phone = node.properties.find((property) => property.name === 'customerPhone');
		expect(phone.builderHint.propertyHint).toContain('+E.164');
		expect(node.builderHint.searchHint).toContain('WhatsApp');
	}
});
