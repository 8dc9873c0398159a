'use strict';
/*
 * The editor's own REST calls in a real n8n against a service that accepts the connection and
 * never answers: the credential Test, the Channel and Template lists and the Variables mapper each
 * stop waiting (the node's EDITOR_TIMEOUT_MS is 10 s), close their connection and answer. The
 * lists and the mapper say that the service did not answer, name the Base URL's origin and say
 * to check it; the Test shows n8n's own words for a timeout (its rules match status codes only).
 * Nothing carries the API key.
 */
const n8n = require('../../scripts/lib/n8n');
const { startSilentServer } = require('../helpers/silentServer');
const { API_KEY, CREDENTIAL } = require('./support');
const { useEditorN8n } = require('./support');

const editor = useEditorN8n('e2e-silent', startSilentServer);

/** One REST call of the editor. */
const timed = async (method, pathname, body) => await editor.rest.request(method, pathname, body);

const nodeTypeAndVersion = { name: n8n.NODE_TYPE, version: 1 };
const credentials = { [n8n.CREDENTIAL_TYPE]: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
const currentNodeParameters = {
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId: { __rl: true, mode: 'list', value: '12' },
	templateId: { __rl: true, mode: 'list', value: '101' },
};
const listOf = (methodName, name) => ({
	nodeTypeAndVersion,
	credentials,
	currentNodeParameters,
	methodName,
	path: `parameters.${name}`,
});

test(
	'credential Test, Channel list, Template list and Variables mapper each stop waiting and ' +
		'answer, naming the Base URL',
	async () => {
		const stored = await editor.rest.request(
			'GET',
			`/rest/credentials/${CREDENTIAL.id}?includeData=true`,
		);
		const { name, type, data } = stored.json.data;
		const calls = await Promise.all([
			timed('POST', '/rest/credentials/test', {
				credentials: { id: CREDENTIAL.id, name, type, data },
			}),
			timed(
				'POST',
				'/rest/dynamic-node-parameters/resource-locator-results',
				listOf('searchChannels', 'channelId'),
			),
			timed(
				'POST',
				'/rest/dynamic-node-parameters/resource-locator-results',
				listOf('searchTemplates', 'templateId'),
			),
			timed(
				'POST',
				'/rest/dynamic-node-parameters/resource-mapper-fields',
				listOf('getTemplateVariables', 'variables'),
			),
		]);
		expect(editor.service.connections()).toBeGreaterThanOrEqual(4);
		// Each call closed its connection when it stopped waiting (a closed socket may reach the
		// silent service a moment after the answer).
		const deadline = Date.now() + 5_000;
		while (editor.service.givenUp() < editor.service.connections() && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100));
		expect(editor.service.givenUp()).toBe(editor.service.connections());
		for (const call of calls) expect(call.text).not.toContain(API_KEY);
		const [test, channels, templates, mapper] = calls;
		expect(test.status).toBe(200);
		// n8n's tester words the timeout: 2.x shows the request error's code, 1.x its own sentence.
		const testWords =
			Number(n8n.installedVersion().split('.')[0]) >= 2
				? 'ECONNABORTED'
				: 'The connection was aborted, perhaps the server is offline';
		expect(test.json.data).toEqual({ status: 'Error', message: testWords });
		for (const call of [channels, templates, mapper]) {
			expect(call.status).toBeGreaterThanOrEqual(400);
			expect(call.json.message).toBe(
				`The service at ${editor.service.url} did not answer within 10 seconds: check the Base URL in the credential`,
			);
		}
	},
	60_000,
);
