/**
 * The threat list of the API key (issue 23), one block per threat, through n8n-core's engine
 * against real servers on 127.0.0.1: a service (the fake) that redirects, loops or echoes the key,
 * and another host that must never receive anything. Every request kind is tried: the sends, the
 * reads, the editor's lists and mapper, and the credential test.
 */
import type { INodeParameters } from 'n8n-workflow';

import { mapperFields, runNode, runToolCalls, searchList, testCredential } from '../helpers/engine';
import { API_KEY, locator, mapped, serializeEverything, useFakeService } from '../helpers/fixtures';
import { useOtherHost } from '../robustness/support/otherHost';

const service = useFakeService();
const other = useOtherHost();

const SEND_TEXT: INodeParameters = {
	resource: 'message',
	operation: 'sendText',
	customerId: '1',
	text: 'hello',
};
const SEND_TEMPLATE: INodeParameters = {
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId: 12,
	templateId: locator(101),
	customerPhone: '+4915123456789',
	variables: mapped({ '1': 'Anna', '2': '1042', '3': 'Friday' }),
};
const GET: INodeParameters = {
	resource: 'whatsappTemplate',
	operation: 'get',
	channelId: 12,
	templateId: locator(101),
};
const GET_MANY: INodeParameters = {
	resource: 'whatsappTemplate',
	operation: 'getAll',
	channelId: 12,
	returnAll: true,
};
const PATH = {
	sendText: '/customers/send-text-message',
	sendTemplate: '/whatsapp/send-template-message',
	template: '/whatsapp/get-template-detail',
	templates: '/whatsapp/get-template-list',
	channels: '/whatsapp/get-platform-list',
};
// A Location whose path and query hold what must not be repeated (a token a front put there).
const elsewhere = (path = '/stable/open/x') => `${other.host.url}${path}?token=front-secret-123`;
const redirectTo = (status: number, location: string) => ({
	status,
	headers: { Location: location },
	body: {},
});

/** Nothing the run kept (items, errors with their hidden fields, hints) holds the secret. */
function expectNoSecret(value: unknown, ...secrets: string[]) {
	const text = serializeEverything(value);
	for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('a redirect is never followed: the other host receives nothing', () => {
	test.each([301, 302, 307, 308])(
		'Send Text answered %i to another host: not sent, and the item says where to point the Base URL',
		async (status) => {
			service.fake.addFault(PATH.sendText, redirectTo(status, elsewhere()));
			const { output, run } = await service.run(SEND_TEXT, {
				continueOnFail: true,
			});
			expect(other.host.received).toEqual([]);
			expect(service.fake.sends()).toHaveLength(1);
			expect(output).toHaveLength(1);
			expect(output[0].json.error).toBe(
				`The service redirected the request to ${other.host.url} (HTTP ${status})`,
			);
			expect(output[0].json.message).toContain(`set the credential's Base URL to it`);
			expect(output[0].json.message).toContain('The message was not sent.');
			expect(output[0].json.details).toEqual({
				outcome: 'notSent',
				reason: 'redirected',
				httpCode: String(status),
			});
			expect(serializeEverything(run)).not.toContain('front-secret-123');
			expectNoSecret(run, API_KEY);
		},
	);

	test('a 303 to a send: the server may have acted on it, so the outcome is unknown', async () => {
		service.fake.addFault(PATH.sendText, redirectTo(303, elsewhere()));
		const { output } = await service.run(SEND_TEXT, {
			continueOnFail: true,
		});
		expect(other.host.received).toEqual([]);
		expect(output[0].json.details).toEqual({
			outcome: 'unknown',
			reason: 'redirected',
			httpCode: '303',
		});
		expect(output[0].json.message).toContain('may or may not have been delivered');
	});

	test('without continue on fail, the run fails with the same words', async () => {
		service.fake.addFault(PATH.sendText, redirectTo(307, elsewhere()));
		const { error, output } = await service.run(SEND_TEXT);
		expect(other.host.received).toEqual([]);
		expect(output).toEqual([]);
		expect(error?.message).toBe(
			`The service redirected the request to ${other.host.url} (HTTP 307)`,
		);
	});

	test.each([
		['Template Send (its template read)', SEND_TEMPLATE, PATH.template],
		['Template Send (the send)', SEND_TEMPLATE, PATH.sendTemplate],
		['Get', GET, PATH.template],
		['Get Many', GET_MANY, PATH.templates],
	])(
		'%s answered 302 to another host: an error naming it, nothing sent there',
		async (_label, parameters, path) => {
			service.fake.addFault(path, redirectTo(302, elsewhere()));
			const { error, run } = await runNode({ parameters, credentials: service.credentials });
			expect(other.host.received).toEqual([]);
			expect(error?.message).toContain(`redirected the request to ${other.host.url} (HTTP 302)`);
			expectNoSecret(run, API_KEY, 'front-secret-123');
		},
	);

	test("a relative Location names the service's own origin", async () => {
		service.fake.addFault(
			PATH.template,
			redirectTo(301, '/v2/stable/open/whatsapp/get-template-detail'),
		);
		const { error } = await runNode({ parameters: GET, credentials: service.credentials });
		expect(error?.message).toBe(
			`The service redirected the request to ${service.fake.url} (HTTP 301)`,
		);
	});

	test.each([
		[
			'the channel picker',
			() => searchList('searchChannels', {}, service.credentials),
			PATH.channels,
		],
		[
			'the template picker',
			() => searchList('searchTemplates', { channelId: 12 }, service.credentials),
			PATH.templates,
		],
		[
			'the Variables mapper',
			() =>
				mapperFields(
					'getTemplateVariables',
					{ channelId: 12, templateId: locator(101) },
					service.credentials,
				),
			PATH.template,
		],
	])(
		'%s answered 302: the editor gets the error, the other host nothing',
		async (_label, load, path) => {
			service.fake.addFault(path, redirectTo(302, elsewhere()));
			await expect(load()).rejects.toThrow(`redirected the request to ${other.host.url}`);
			expect(other.host.received).toEqual([]);
		},
	);

	test.each([301, 302, 303, 307, 308])(
		'the credential test answered %i: it says it was redirected, the other host gets nothing',
		async (status) => {
			service.fake.addFault(PATH.channels, redirectTo(status, elsewhere()));
			const result = await testCredential(service.credentials);
			expect(other.host.received).toEqual([]);
			expect(service.fake.requests).toHaveLength(1);
			// n8n's tester matches status codes to fixed words: it cannot name the address (a run's error does).
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringContaining(
					`answered with a redirect (HTTP ${status}), which is never followed`,
				),
			});
			expect(result.message).toContain('Set the Base URL');
		},
	);
});

describe('a service that redirects every request to itself (a loop)', () => {
	test('one request per send reaches it, and the item fails at once', async () => {
		service.fake.addFault(
			'*',
			redirectTo(307, `${service.fake.url}/stable/open${PATH.sendText}`),
			100,
		);
		const { output } = await service.run(SEND_TEXT, {
			continueOnFail: true,
		});
		expect(service.fake.requests).toHaveLength(1);
		expect(output[0].json.details).toMatchObject({ outcome: 'notSent', reason: 'redirected' });
	});
});

describe('a service that puts the key in what it answers', () => {
	const echo = `Key ${API_KEY} is not allowed for this project`;

	test.each([
		[
			'a 400 on a send',
			PATH.sendText,
			SEND_TEXT,
			{ status: 400, body: { error: echo, code: API_KEY, success: false } },
		],
		['a 401 on a send', PATH.sendText, SEND_TEXT, { status: 401, body: { detail: echo } }],
		[
			'a 500 page on a read',
			PATH.template,
			GET,
			{ status: 500, headers: { 'Content-Type': 'text/plain' }, body: echo },
		],
		[
			'a 403 on Get Many',
			PATH.templates,
			GET_MANY,
			{ status: 403, body: { detail: echo, message: echo } },
		],
		[
			'a success that echoes it',
			PATH.template,
			GET,
			{ status: 200, body: { id: 101, name: echo, body: echo } },
		],
	])('%s: the key is in no item, error or run data', async (_label, path, parameters, fault) => {
		for (const continueOnFail of [false, true]) {
			service.fake.addFault(path, fault);
			const { run, output, error } = await runNode({
				parameters,
				credentials: service.credentials,
				continueOnFail,
			});
			// What the user sees: a failure is the run's error, or with continue on fail the item's; a success is its item.
			const failed = fault.status !== 200;
			expect({ items: output.length, runFailed: error !== undefined }).toEqual({
				items: failed && !continueOnFail ? 0 : 1,
				runFailed: failed && !continueOnFail,
			});
			if (failed && continueOnFail)
				expect(output[0].json.details).toMatchObject({
					outcome: expect.any(String),
					reason: expect.any(String),
				});
			expect(serializeEverything({ output, error })).toContain('[hidden]');
			expectNoSecret(run, API_KEY);
		}
	});

	test('a Base URL with a user name and password: neither is sent nor shown', async () => {
		const password = 'base-url-pass-9f8e';
		const credentials = {
			...service.credentials,
			baseUrl: service.fake.url.replace('http://', `http://ops:${password}@`),
		};
		service.fake.addFault(PATH.sendText, {
			status: 400,
			body: { error: `Basic ${password} refused, key ${API_KEY}`, code: 'x' },
		});
		const { run, output } = await runNode({
			parameters: SEND_TEXT,
			credentials,
			continueOnFail: true,
		});
		expect(output[0].json.error).toBe('Basic [hidden] refused, key [hidden]');
		expectNoSecret(run, API_KEY, password);
		expect(JSON.stringify(service.fake.requests)).not.toContain(password);
	});

	test("the editor's lists and the credential test do not show it either", async () => {
		service.fake.addFault(PATH.channels, {
			status: 200,
			body: [{ platform_id: 12, title: `Sales ${API_KEY}`, number: '+49' }],
		});
		const channels = await searchList('searchChannels', {}, service.credentials);
		expect(JSON.stringify(channels)).not.toContain(API_KEY);
		service.fake.addFault(PATH.channels, { status: 500, body: { error: `bad key ${API_KEY}` } });
		const tested = await testCredential(service.credentials);
		expect(tested.status).toBe('Error');
		expect(tested.message).not.toContain(API_KEY);
	});
});

describe('a credential no request could carry is stopped before anything is sent', () => {
	const BAD = [
		[
			'an API Key Header with a line break',
			{ apiKeyHeader: 'X-Service-Api-Key\r\nX-Injected: 1' },
			'API Key Header',
			'X-Service-Api-Key',
		],
		[
			'an API Key Header with a space',
			{ apiKeyHeader: 'X Service Api Key' },
			'API Key Header',
			'X-Service-Api-Key',
		],
		['an API key with a line break', { apiKey: `${API_KEY}\n` }, 'API Key', 'for example sk-live-'],
		['an API key with a NUL', { apiKey: `${API_KEY}\u0000x` }, 'API Key', 'for example sk-live-'],
	] as const;

	test.each(BAD)(
		'%s: a workflow run fails naming the field, and the service gets nothing',
		async (_label, change, field, example) => {
			for (const parameters of [SEND_TEXT, SEND_TEMPLATE, GET]) {
				const { error } = await runNode({
					parameters,
					credentials: { ...service.credentials, ...change },
				});
				expect(error?.message).toMatch(/^Invalid credential: /);
				expect(error?.description).toContain(`fix the ${field}`);
				expect(error?.description).toContain(example);
				expect(error?.message).not.toContain('Network error');
			}
			expect(service.fake.requests).toEqual([]);
		},
	);

	test.each(BAD)(
		'%s: as a tool, the model gets the error item with the field',
		async (_label, change, field) => {
			const { answers } = await runToolCalls({
				parameters: SEND_TEXT,
				credentials: { ...service.credentials, ...change },
				calls: [{}],
			});
			expect(answers[0]).toContain('Invalid credential');
			expect(answers[0]).toContain(`"field":"${field}"`);
			expect(service.fake.requests).toEqual([]);
		},
	);

	test.each(BAD)(
		'%s: as a tool run by the engine (AI Agent 3.x), the answer is the error item with the field',
		async (_label, change, field) => {
			for (const parameters of [SEND_TEXT, GET]) {
				const { output, error, run } = await runNode({
					parameters,
					credentials: { ...service.credentials, ...change },
					asAgentTool: true,
				});
				expect(error).toBeUndefined();
				expect(run.status).toBe('success');
				expect(output[0].json).toMatchObject({
					error: expect.stringMatching(/^Invalid credential: /),
					details: { outcome: 'notSent', field },
				});
			}
			expect(service.fake.requests).toEqual([]);
		},
	);

	test.each(BAD)(
		'%s: the credential test says which field, and sends nothing',
		async (_label, change, field) => {
			const result = await testCredential({ ...service.credentials, ...change });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Invalid credential: /);
			expect(result.message).toContain(field);
			expect(service.fake.requests).toEqual([]);
		},
	);
});
