import { startFakeService } from '../fake-service';
import { runNode } from '../helpers/engine';

test('smoke', async () => {
	const fake = await startFakeService({});
	const r = await runNode({
		parameters: { resource: 'message', operation: 'sendText', customerId: '={{$json.id}}', text: 'hi' },
		credentials: { baseUrl: fake.url, apiKey: fake.apiKey },
		items: [{ id: 12 }],
	});
	console.log(JSON.stringify(r.output), r.error, JSON.stringify(fake.requests.map((x: any)=>[x.path,x.headers,x.body])));
	const g = await runNode({
		parameters: { resource: 'whatsappTemplate', operation: 'getAll', channelId: 12, limit: 2 },
		credentials: { baseUrl: fake.url + '/stable/open/', apiKey: fake.apiKey },
	});
	console.log(JSON.stringify(g.output).slice(0,300), g.error);
	await fake.close();
});
