import { createServer } from 'node:net';

import { testCredential } from '../helpers/engine';
import { API_KEY, useFakeService } from '../helpers/fixtures';

const service = useFakeService();

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

describe('credential test', () => {
	test('a good key passes, with a real request carrying the key header', async () => {
		expect(await testCredential(service.credentials)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(service.fake.requests).toHaveLength(1);
		expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-platform-list');
		expect(service.fake.requests[0].headers['x-service-api-key']).toBe(API_KEY);
	});

	test.each(['/', '/stable/open', '/stable/open/'])(
		'the base URL may end in %j',
		async (suffix) => {
			const result = await testCredential({
				...service.credentials,
				baseUrl: service.fake.url + suffix,
			});
			expect(result.status).toBe('OK');
			expect(service.fake.requests[0].path).toBe('/stable/open/whatsapp/get-platform-list');
		},
	);

	test("a wrong key is told apart: 401 with the service's detail text", async () => {
		const result = await testCredential({ ...service.credentials, apiKey: 'wrong' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('The API key was rejected');
		expect(result.message).toContain('Invalid api key provided.');
	});

	test('a custom key header name is honoured', async () => {
		const result = await testCredential({ ...service.credentials, apiKeyHeader: 'X-Other-Key' });
		expect(result.status).toBe('Error');
		expect(service.fake.requests[0].headers['x-other-key']).toBe(API_KEY);
		expect(service.fake.requests[0].headers['x-service-api-key']).toBeUndefined();
	});

	test('an unreachable URL is told apart from a wrong key', async () => {
		const port = await closedPort();
		const result = await testCredential({
			...service.credentials,
			baseUrl: `http://127.0.0.1:${port}`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toBe('ECONNREFUSED');
	});
});
