import { createServer } from 'node:net';

import { runNode } from '../helpers/engine';
import { API_KEY, locator, serializeEverything, useFakeService } from '../helpers/fixtures';

const service = useFakeService();

const sendText = { resource: 'message', operation: 'sendText', customerId: '1', text: 'hello' };
const getTemplate = {
	resource: 'whatsappTemplate',
	operation: 'get',
	channelId: 12,
	templateId: locator(101),
};

describe('error mapping', () => {
	test("400 {error, code}: the service's error is the message, the code is in the description", async () => {
		service.fake.addFault('/customers/send-text-message', {
			status: 400,
			body: {
				error: 'Customer has blocked this channel',
				code: 'customer_blocked',
				success: false,
			},
		});
		const { error, run } = await service.run(sendText);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Customer has blocked this channel');
		expect(error?.description).toContain('error code: customer_blocked');
		expect(error?.description).toContain('The message was not sent.');
		expect(serializeEverything(run)).not.toContain(API_KEY);
	});

	test.each([
		['a send', sendText],
		['a read', getTemplate],
	])(
		"401 on %s says the key was rejected, with the service's detail",
		async (_label, parameters) => {
			const { error, run } = await runNode({
				parameters,
				credentials: { ...service.credentials, apiKey: 'expired-key' },
			});
			expect(error?.message).toBe('The API key was rejected');
			expect(error?.description).toContain('"Invalid api key provided."');
			expect(error?.description).toContain('Check the API key');
			expect(serializeEverything(run)).not.toContain('expired-key');
		},
	);

	test('a 401 on a send is not sent again', async () => {
		await runNode({
			parameters: sendText,
			credentials: { ...service.credentials, apiKey: 'expired-key' },
		});
		expect(service.fake.sends()).toHaveLength(1);
	});

	test('5xx JSON: readable, and a send says the outcome is unknown', async () => {
		service.fake.addFault('/customers/send-text-message', { status: 500 });
		const { error } = await runNode({ parameters: sendText, credentials: service.credentials });
		expect(error?.message).toBe('The service failed with HTTP 500');
		expect(error?.description).toContain('may or may not have been delivered');
	});

	test('an HTML error page is summarized, not dumped', async () => {
		service.fake.addFault('/whatsapp/get-template-detail', { kind: 'html', status: 502 });
		const { error } = await runNode({ parameters: getTemplate, credentials: service.credentials });
		expect(error?.message).toBe('The service failed with HTTP 502');
		expect(error?.description).toContain('502 Bad Gateway');
		expect(error?.description).not.toContain('<');
		expect((error?.description ?? '').length).toBeLessThan(400);
	});

	test('a refused connection is a readable error, on reads and sends', async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		await new Promise((resolve) => server.close(resolve));
		const credentials = { ...service.credentials, baseUrl: `http://127.0.0.1:${port}` };
		const send = await runNode({ parameters: sendText, credentials });
		expect(send.error?.message).toContain('refused the connection');
		expect(send.error?.description).toContain('The message was not sent.');
		const read = await runNode({ parameters: getTemplate, credentials });
		expect(read.error?.message).toMatch(/refused/i);
		expect(serializeEverything(read.run)).not.toContain(API_KEY);
		expect(serializeEverything(send.run)).not.toContain(API_KEY);
	});

	test('a base URL with another scheme is refused before any request', async () => {
		const { error } = await runNode({
			parameters: sendText,
			credentials: { ...service.credentials, baseUrl: 'ftp://127.0.0.1' },
		});
		expect(error?.message).toContain('Invalid credential');
		expect(error?.message).toContain('must start with https://');
		const read = await runNode({
			parameters: getTemplate,
			credentials: { ...service.credentials, baseUrl: 'file:///etc' },
		});
		expect(read.error?.message).toContain('Invalid credential');
		expect(service.fake.requests).toHaveLength(0);
	});
});
