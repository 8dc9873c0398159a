/**
 * Where the node connects. The credential's base URL must be http or https: any other scheme is
 * refused with a clear message before a single request. And the node never fetches a URL from
 * the input (attachment and header media URLs are handed to the service): every socket the
 * process opens during these runs goes to the fake service, and a second server serving the
 * media URLs sees no request at all.
 */
import net from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import type { FakeService } from '../fake-service';
import { mapperFields, searchList } from '../helpers/engine';
import { locator, templateOn } from '../helpers/parameters';
import { startMediaServer } from './support/mediaServer';
import type { MediaServer } from './support/mediaServer';
import { runBounded } from './support/run';
import { specProblems } from './support/spec';

const API_KEY = 'robustness-urls-key';

let fake: FakeService;
let media: MediaServer;
let fakePort: number;
const connections: string[] = [];
const originalConnect = net.Socket.prototype.connect;

/** Records the destination of every TCP connection the process opens (the node's, n8n's, axios'). */
function spyOnConnections() {
	net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
		const [first, second] = args as [unknown, unknown];
		if (first && typeof first === 'object' && !Array.isArray(first)) {
			const options = first as { host?: string; port?: number; path?: string };
			connections.push(
				options.path ? `unix:${options.path}` : `${options.host ?? 'localhost'}:${options.port}`,
			);
		} else if (Array.isArray(first)) {
			const [options] = first as Array<{ host?: string; port?: number }>;
			connections.push(`${options?.host ?? 'localhost'}:${options?.port}`);
		} else {
			connections.push(`${typeof second === 'string' ? second : 'localhost'}:${String(first)}`);
		}
		return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
	} as typeof net.Socket.prototype.connect;
}

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	fakePort = Number(new URL(fake.url).port);
	media = await startMediaServer();
	spyOnConnections();
});
afterAll(async () => {
	net.Socket.prototype.connect = originalConnect;
	await fake.close();
	await media.close();
});
beforeEach(() => {
	fake.reset();
	connections.length = 0;
});

function operations(): Record<string, INodeParameters> {
	return {
		'Send Text': { resource: 'message', operation: 'sendText', customerId: '1042', text: 'hi' },
		'Send Attachment': {
			resource: 'message',
			operation: 'sendAttachment',
			customerId: '1042',
			attachmentType: 'image',
			attachmentUrl: media.url,
		},
		'Template Send': {
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: 12,
			templateId: locator(102) as never,
			customerPhone: '+4915123456789',
			variablesMode: 'json',
			variablesJson: '{"1": "Anna", "2": "20"}',
			headerMediaUrl: media.url,
			options: { includeRenderedMessage: true },
		},
		Get: {
			resource: 'whatsappTemplate',
			operation: 'get',
			channelId: 12,
			templateId: locator(101) as never,
		},
		'Get Many': {
			resource: 'whatsappTemplate',
			operation: 'getAll',
			channelId: 12,
			returnAll: true,
		},
	};
}

describe("the credential's base URL", () => {
	const refused = (port: number) =>
		[
			[`ftp://127.0.0.1:${port}`, /must start with https:\/\/ \(or http:\/\/\), not "ftp:"/],
			[`file:///etc/passwd`, /not "file:"/],
			['javascript:alert(1)', /not "javascript:"/],
			['data:text/plain,hello', /not "data:"/],
			[`ws://127.0.0.1:${port}`, /not "ws:"/],
			[`gopher://127.0.0.1:${port}/`, /not "gopher:"/],
			[`127.0.0.1:${port}`, /base URL|https:\/\//],
			[`//127.0.0.1:${port}`, /is not a URL/],
			['', /has no base URL/],
			['   ', /has no base URL/],
		] as Array<[string, RegExp]>;

	test('every scheme but http and https is refused by every operation, before any request', async () => {
		for (const [baseUrl, reason] of refused(fakePort)) {
			for (const [name, parameters] of Object.entries(operations())) {
				const result = await runBounded({ parameters, credentials: { baseUrl, apiKey: API_KEY } });
				expect({ baseUrl, name, message: result.error?.message }).toEqual({
					baseUrl,
					name,
					message: expect.stringMatching(/^Invalid credential: /),
				});
				expect(result.error?.message).toMatch(reason);
				expect(result.error?.description).toContain('fix the Base URL');
			}
		}
		expect(fake.requests).toHaveLength(0);
		expect(connections).toEqual([]);
	});

	test("the editor's dropdown and mapper refuse it the same way", async () => {
		for (const [baseUrl, reason] of refused(fakePort)) {
			const search = await searchList(
				'searchTemplates',
				{ channelId: 12 },
				{ baseUrl, apiKey: API_KEY },
			).catch((e: Error) => e);
			expect((search as Error).message).toMatch(reason);
			const fields = await mapperFields('getTemplateVariables', templateOn(12, 101) as never, {
				baseUrl,
				apiKey: API_KEY,
			}).catch((e: Error) => e);
			expect((fields as Error).message).toMatch(reason);
		}
		expect(fake.requests).toHaveLength(0);
	});

	test.each([
		['plain http', (url: string) => url],
		[
			'upper-case scheme, spaces around',
			(url: string) => `  ${url.replace('http://', 'HTTP://')}  `,
		],
		['trailing slash', (url: string) => `${url}/`],
		['with /stable/open', (url: string) => `${url}/stable/open/`],
	])('%s works for every operation', async (_label, build) => {
		for (const [name, parameters] of Object.entries(operations())) {
			const result = await runBounded({
				parameters,
				credentials: { baseUrl: build(fake.url), apiKey: API_KEY },
			});
			expect({ name, error: result.error?.message }).toEqual({ name, error: undefined });
		}
		for (const request of fake.requests) {
			expect(request.path.startsWith('/stable/open/')).toBe(true);
			expect(request.path).not.toContain('/stable/open/stable/open');
			expect(specProblems(request, API_KEY)).toEqual([]);
		}
	});
});

describe('URLs from the input are passed on, never fetched', () => {
	test('attachment and header media URLs: only the fake service is contacted', async () => {
		const runs: Array<[string, INodeParameters]> = [
			...Object.entries(operations()),
			[
				'dry run',
				{
					...operations()['Template Send'],
					options: { dryRun: true, includeRenderedMessage: true },
				},
			],
			['media type given', { ...operations()['Template Send'], headerMediaType: 'image' }],
			[
				'template check off',
				{ ...operations()['Template Send'], options: { validateTemplate: false } },
			],
			[
				'wrong media for the header (refused)',
				{
					...operations()['Template Send'],
					templateId: locator(101) as never,
					variablesJson: '{"1":"a","2":"b","3":"c"}',
				},
			],
			[
				'attachment URL from an expression',
				{ ...operations()['Send Attachment'], attachmentUrl: '={{ $json.url }}' },
			],
		];
		for (const [name, parameters] of runs) {
			const result = await runBounded({
				parameters,
				credentials: { baseUrl: fake.url, apiKey: API_KEY },
				items: [{ url: `${media.url}?from=item` }],
				continueOnFail: true,
			});
			expect({ name, outputs: result.output.length > 0 }).toEqual({ name, outputs: true });
		}
		const sentUrls = fake.sends().map((r) => JSON.stringify(r.body));
		expect(sentUrls.some((body) => body.includes(media.url))).toBe(true);
		expect(media.hits).toEqual([]);
		const destinations = new Set(connections);
		expect([...destinations]).toEqual([`127.0.0.1:${fakePort}`]);
	});

	test('header media URLs in odd schemes are refused by name, never followed', async () => {
		for (const url of [
			'file:///etc/passwd',
			'javascript:alert(1)',
			'ftp://127.0.0.1/x.png',
			'/relative.png',
			`//127.0.0.1:${fakePort}/x.png`,
			'data:image/png;base64,AAAA',
		]) {
			const result = await runBounded({
				parameters: { ...operations()['Template Send'], headerMediaUrl: url },
				credentials: { baseUrl: fake.url, apiKey: API_KEY },
				continueOnFail: true,
			});
			expect(result.output[0].json.error).toMatch(/^Header Media URL \(item 0\): /);
			const attachment = await runBounded({
				parameters: { ...operations()['Send Attachment'], attachmentUrl: url },
				credentials: { baseUrl: fake.url, apiKey: API_KEY },
				continueOnFail: true,
			});
			expect(attachment.output[0].json.error).toMatch(/^Attachment URL \(item 0\): /);
		}
		expect(fake.sends()).toHaveLength(0);
		expect(media.hits).toEqual([]);
	});
});
