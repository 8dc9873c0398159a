'use strict';
/*
 * End-to-end: the built package installed as a community package in a real n8n (2.41.1), run
 * with the n8n CLI (`import:credentials`, `import:workflow`, `execute --rawOutput`) against the
 * fake service, n8n's own credential test over its REST API, and a published workflow's production
 * webhook called twice at once (send once per key). Each workflow feeds the node's
 * fields with expressions from a Set or Code node before it; every test checks both n8n's output
 * and the requests the fake service received.
 */
const fs = require('node:fs');
const path = require('node:path');

const { startFakeService } = require('../fake-service');
const { mapperValue } = require('../helpers/mapperValue');
const n8n = require('../../scripts/lib/n8n');
// n8n's folder and the credential; workflows, node by node; webhooks, another host; what is sent.
const { API_KEY, CREDENTIAL, n8nWithCredentials, credentialFor } = require('./support');
const { trigger, setNode, codeNode, omniNode, chain, outputOf } = require('./support');
const { webhookTrigger, splitOut, orderShippedSend, orderShippedJsonSend } = require('./support');
const { createActiveWorkflow, waitForWebhook, callWebhook, startOtherHost } = require('./support');
const { templateSendBody, startServerLoggedIn } = require('./support');

const BAD_KEY_CREDENTIAL = {
	id: 'OmniBadKeyCred01',
	name: 'Omnichannel Messaging (wrong key)',
	apiKey: 'wrong-key-4711',
};
const EXAMPLES_DIR = path.join(n8n.REPO_ROOT, 'examples');

let fake;
let other;
let env;

/** As a CRM hands contacts over (HubSpot's shape): the number as typed, the contact's country code. */
const CRM_CONTACTS = [
	[501, 'Anna', '0151 2345 6789', 'DE'],
	[502, 'Bob', '(415) 555-0132', 'US'],
	[503, 'Chloé', '06 12 34 56 78', 'FR'],
	[504, 'Diego', '011 15-2345-6789', 'AR'],
	[505, 'Giulia', '02 1234 5678', 'IT'],
	[506, 'Ben', '0151 234', 'DE'],
].map(([id, firstname, phone, country]) => ({
	id,
	properties: { firstname, phone, hs_country_region_code: country },
}));

/** The resource locator's "By ID" value. */
const byId = (value) => ({ __rl: true, mode: 'id', value });

/** WhatsApp Template → `operation` on the channel the item names. */
const templateRead = (operation, fields) => ({
	resource: 'whatsappTemplate',
	operation,
	channelId: '={{ $json.channel }}',
	...fields,
});

/** A No Operation node: a branch's end, where the test reads what reached it. */
const noOp = (name) => ({ name, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} });

/** chain() with two more nodes: `success` on the last node's first output, `failure` on its error output. */
function withBranches(workflow, success, failure) {
	const last = workflow.nodes[workflow.nodes.length - 1];
	const ends = [success, failure].map((node, index) => ({
		id: `${workflow.id}-b${index}`,
		position: [last.position[0] + 220, index * 200],
		...node,
	}));
	const connections = {
		...workflow.connections,
		[last.name]: { main: ends.map((node) => [{ node: node.name, type: 'main', index: 0 }]) },
	};
	return { ...workflow, nodes: [...workflow.nodes, ...ends], connections };
}

const workflows = {
	sendOnce: withBranches(
		chain('E2eSendOnce00001', 'e2e send once per key', [
			trigger(),
			codeNode('Orders', [
				{ orderId: 'A-1', phone: '+4915100000001', name: 'Anna' },
				{ orderId: 'A-2', phone: '0151 2345678', name: 'Ben' },
				{ orderId: 'A-1', phone: '+4915100000001', name: 'Anna' },
			]),
			omniNode(
				'Send once',
				orderShippedJsonSend({
					customerPhone: '={{ $json.phone }}',
					variablesJson: '={{ JSON.stringify({ 1: $json.name, 2: $json.orderId, 3: "Friday" }) }}',
					options: { sendOnceKey: '={{ $json.orderId }}-shipped' },
				}),
				{ onError: 'continueErrorOutput' },
			),
		]),
		noOp('Sent'),
		noOp('Notify the team'),
	),
	sendText: chain('E2eSendText00001', 'e2e send text', [
		trigger(),
		setNode('Contact', { customer: { id: 4711 }, firstName: 'Anna' }),
		omniNode('Send text', {
			resource: 'message',
			operation: 'sendText',
			customerId: '={{ $json.customer.id }}',
			text: '=Hi {{ $json.firstName }}, your order is ready.',
			options: {},
		}),
	]),
	sendAttachment: chain('E2eSendAttach001', 'e2e send attachment', [
		trigger(),
		setNode('Form', {
			customerId: '4712',
			fileUrl: 'https://cdn.example.com/files/price-list.pdf',
			kind: 'document',
		}),
		omniNode('Send attachment', {
			resource: 'message',
			operation: 'sendAttachment',
			customerId: '={{ $json.customerId }}',
			attachmentType: '={{ $json.kind }}',
			attachmentUrl: '={{ $json.fileUrl }}',
			options: {},
		}),
	]),
	sendTemplateMapper: chain('E2eSendTmplMap01', 'e2e send template, mapped variables', [
		trigger(),
		setNode('Order', {
			phone: '+49 (151) 2345-6789',
			firstName: 'Anna',
			order: 1042,
			eta: 'Friday',
		}),
		omniNode(
			'Send template',
			orderShippedSend(
				{ 1: '={{ $json.firstName }}', 2: '={{ $json.order }}', 3: '={{ $json.eta }}' },
				{ includeRenderedMessage: true },
			),
		),
	]),
	sendTemplateMedia: chain('E2eSendTmplImg01', 'e2e send template, header media', [
		trigger(),
		setNode('Offer', {
			channel: 12,
			template: '102',
			phone: '0049 151 2345 6789',
			firstName: 'Ben',
			discount: 20,
			image: 'https://cdn.example.com/samples/offer-ben.jpg',
		}),
		omniNode('Send offer', {
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: '={{ $json.channel }}',
			templateId: byId('={{ $json.template }}'),
			customerPhone: '={{ $json.phone }}',
			variablesMode: 'mapper',
			variables: mapperValue({ 1: '={{ $json.firstName }}', 2: '={{ $json.discount }}' }),
			headerMediaUrl: '={{ $json.image }}',
			headerMediaType: 'auto',
			options: {},
		}),
	]),
	getTemplate: chain('E2eGetTemplate01', 'e2e get template', [
		trigger(),
		setNode('Which', { channel: 13, template: 103 }),
		omniNode('Get template', templateRead('get', { templateId: byId('={{ $json.template }}') })),
	]),
	getAllTemplates: chain('E2eGetAllTmpl001', 'e2e get many templates', [
		trigger(),
		setNode('Which', { channel: 12, max: 3 }),
		omniNode('Get many', templateRead('getAll', { returnAll: false, limit: '={{ $json.max }}' })),
	]),
	crmDefaultCountry: chain('E2eCrmCountry001', 'e2e CRM contacts with national numbers', [
		trigger(),
		codeNode('CRM contacts', CRM_CONTACTS),
		omniNode(
			'Send template',
			{
				...orderShippedSend(
					{ 1: '={{ $json.properties.firstname }}', 2: '={{ $json.id }}', 3: 'Friday' },
					{
						defaultCountry: '={{ $json.properties.hs_country_region_code }}',
						includeRenderedMessage: true,
					},
				),
				customerPhone: '={{ $json.properties.phone }}',
			},
			{ onError: 'continueRegularOutput' },
		),
	]),
	continueOnFail: chain('E2eContinueFail1', 'e2e continue on fail', [
		trigger(),
		codeNode(
			'Contacts',
			[
				['+4915100000001', 'Anna'],
				['0151 2345 6789', 'Ben'],
				['+4915100000003', 'Cara'],
			].map(([phone, name], index) => ({ phone, name, order: String(index + 1) })),
		),
		omniNode(
			'Send template',
			orderShippedSend({ 1: '={{ $json.name }}', 2: '={{ $json.order }}', 3: 'Monday' }),
			{ onError: 'continueRegularOutput' },
		),
	]),
};

/** Runs an imported workflow with `n8n execute --rawOutput`; the fake's log is reset first, then `faults` set. */
async function execute(id, faults = []) {
	fake.reset();
	for (const [path, fault, times] of faults) fake.addFault(path, fault, times);
	const run = await n8n.executeWorkflow(id, { env });
	if (run.result === undefined)
		throw new Error(
			`n8n execute --id=${id} exited ${run.code} without JSON:\n${run.stdout}\n${run.stderr}`,
		);
	// The last lines n8n wrote to stderr, shown only when it did not exit 0 (a crash says why there).
	const stderrEnd = run.code === 0 ? '' : run.stderr.trim().split('\n').slice(-5).join('\n');
	return { code: run.code, signal: run.signal, stderrEnd, result: run.result };
}

/** Runs an imported workflow as `execute` does, expects n8n to exit 0, and gives back what `node` output. */
async function outputOfRun(id, node) {
	const { code, signal, stderrEnd, result } = await execute(id);
	expect({ code, signal, stderrEnd }).toEqual({ code: 0, signal: null, stderrEnd: '' });
	return outputOf(result, node);
}

/** The body of a send of spring_offer (102, an image header) to +4915123456789. */
const offerSendBody = (name, discount, image) =>
	templateSendBody('102', '+4915123456789', { 1: name, 2: discount }, { attachment: { image } });

const PREFIX = '/stable/open';
const requestsTo = (suffix) => fake.requests.filter((r) => r.path === PREFIX + suffix);

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	other = await startOtherHost();
	const credentials = [credentialFor(fake.url), credentialFor(fake.url, BAD_KEY_CREDENTIAL)];
	const folder = await n8nWithCredentials('e2e-cli', credentials);
	env = folder.env;
	const { root } = folder;

	const workflowDir = path.join(root, 'workflows');
	fs.mkdirSync(workflowDir);
	for (const workflow of Object.values(workflows)) {
		fs.writeFileSync(
			path.join(workflowDir, `${workflow.id}.json`),
			JSON.stringify(workflow, null, 2),
		);
	}
	for (const file of fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json'))) {
		fs.copyFileSync(path.join(EXAMPLES_DIR, file), path.join(workflowDir, `example-${file}`));
	}
	await n8n.n8nCliOk(['import:workflow', '--separate', `--input=${workflowDir}`], { env });
}, 240_000);

afterAll(async () => {
	await fake?.close();
	await other?.close();
});

describe('operations, fields fed by expressions', () => {
	test('Message → Send Text', async () => {
		const [item] = await outputOfRun(workflows.sendText.id, 'Send text');
		expect(item.json).toMatchObject({ function_name: 'send_text_message', status: 'sent' });
		expect(item.json.id).toMatch(/^msg_\d+$/);

		const sends = requestsTo('/customers/send-text-message');
		expect(sends).toHaveLength(1);
		expect(sends[0].body).toEqual({ customer_id: '4711', text: 'Hi Anna, your order is ready.' });
		expect(sends[0].headers['x-service-api-key']).toBe(API_KEY);
		expect(fake.requests).toHaveLength(1);
	});

	test('Message → Send Attachment', async () => {
		const [item] = await outputOfRun(workflows.sendAttachment.id, 'Send attachment');
		expect(item.json).toMatchObject({ function_name: 'send_attachment_message', status: 'sent' });

		expect(requestsTo('/customers/send-attachment-message').map((r) => r.body)).toEqual([
			{
				customer_id: '4712',
				attachment_type: 'document',
				attachment_url: 'https://cdn.example.com/files/price-list.pdf',
			},
		]);
		expect(fake.requests).toHaveLength(1);
	});

	test('WhatsApp Template → Send, variables mapped one by one', async () => {
		const [item] = await outputOfRun(workflows.sendTemplateMapper.id, 'Send template');
		expect(item.json).toMatchObject({ function_name: 'send_template_message', status: 'ongoing' });
		expect(item.json.rendered.body).toBe(
			'Hi Anna, your order 1042 has shipped and arrives on Friday. Track it below.',
		);

		expect(requestsTo('/whatsapp/send-template-message').map((r) => r.body)).toEqual([
			templateSendBody('101', '+4915123456789', { 1: 'Anna', 2: '1042', 3: 'Friday' }),
		]);
		// "Check Against Template" (on by default) reads the template once before sending.
		expect(requestsTo('/whatsapp/get-template-detail').map((r) => r.query)).toEqual([
			{ platform_id: '12', template_id: '101' },
		]);
	});

	test('WhatsApp Template → Send with header media (image header)', async () => {
		const [item] = await outputOfRun(workflows.sendTemplateMedia.id, 'Send offer');
		expect(item.json).toMatchObject({
			status: 'ongoing',
			extra: { template_id: '102', customer_phone: '+4915123456789' },
		});

		expect(requestsTo('/whatsapp/send-template-message').map((r) => r.body)).toEqual([
			offerSendBody('Ben', '20', 'https://cdn.example.com/samples/offer-ben.jpg'),
		]);
	});

	test('WhatsApp Template → Get', async () => {
		const items = await outputOfRun(workflows.getTemplate.id, 'Get template');
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: 103,
			name: 'invoice_ready',
			header: { type: 'document' },
		});

		expect(fake.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `${PREFIX}/whatsapp/get-template-detail`, { platform_id: '13', template_id: '103' }],
		]);
	});

	test('WhatsApp Template → Get Many, limit from an expression', async () => {
		const items = await outputOfRun(workflows.getAllTemplates.id, 'Get many');
		expect(items.map((i) => i.json.name)).toEqual([
			'order_shipped',
			'spring_offer',
			'invoice_ready',
		]);

		expect(fake.requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `${PREFIX}/whatsapp/get-template-list`, { platform_id: '12' }],
		]);
	});
});

test('continue on fail: a bad phone number gives an error item, the other items are sent', async () => {
	const items = await outputOfRun(workflows.continueOnFail.id, 'Send template');
	expect(items).toHaveLength(3);
	expect(items[0].json).toMatchObject({
		status: 'ongoing',
		extra: { customer_phone: '+4915100000001' },
	});
	expect(items[1].json.error).toMatch(/Customer Phone/);
	expect(items[1].json.error).toContain('0151 2345 6789');
	expect(items[1].pairedItem).toEqual({ item: 1 });
	expect(items[2].json).toMatchObject({
		status: 'ongoing',
		extra: { customer_phone: '+4915100000003' },
	});

	const sends = requestsTo('/whatsapp/send-template-message');
	expect(sends.map((r) => r.body.customer_phone)).toEqual(['+4915100000001', '+4915100000003']);
	expect(sends.map((r) => r.body.attributes[1])).toEqual(['Anna', 'Cara']);
	// Nothing at all went out for the bad item.
	expect(
		fake.requests.filter((r) => r.rawBody.includes('Ben') || r.rawBody.includes('2345')),
	).toEqual([]);
});

describe('the API key goes to the service and nowhere else', () => {
	test(
		'a send answered with a redirect to another host: not followed, the run fails saying where ' +
			'it pointed',
		async () => {
			other.received.length = 0;
			const location = `${other.url}/stable/open/customers/send-text-message?token=front-secret`;
			const { code, result } = await execute(workflows.sendText.id, [
				['*', { status: 307, headers: { Location: location } }, 30],
			]);
			expect(code).toBe(1);
			expect(other.received).toEqual([]);
			expect(fake.requests).toHaveLength(1);
			const text = JSON.stringify(result);
			expect(text).toContain(`redirected the request to ${other.url} (HTTP 307)`);
			expect(text).not.toContain('front-secret');
			expect(text).not.toContain(API_KEY);
		},
	);
});

test(
	'CRM contacts with national numbers of five countries: Default Country from a contact ' +
		'field, one send each, a bad number refused',
	async () => {
		const { code, result } = await execute(workflows.crmDefaultCountry.id);
		expect(code).toBe(0);
		const expected = [
			'+4915123456789',
			'+14155550132',
			'+33612345678',
			'+5491123456789',
			'+390212345678',
		];
		const sends = requestsTo('/whatsapp/send-template-message');
		// One request per good contact, each to its own number (requests may arrive in any order).
		const sent = sends.map((r) => `${r.body.attributes[1]} ${r.body.customer_phone}`).sort();
		expect(sent).toEqual(
			['Anna', 'Bob', 'Chloé', 'Diego', 'Giulia'].map(
				(name, index) => `${name} ${expected[index]}`,
			),
		);
		const items = outputOf(result, 'Send template');
		expect(items.slice(0, 5).map((i) => i.json.rendered.to)).toEqual(expected);
		expect(items[5].json.error).toBe(
			'Customer Phone (item 5): "0151 234" is not a valid phone number: it is not a number of ' +
				'Germany (DE, +49) by its numbering plan: give it as dialled in Germany, for example 01512 ' +
				'3456789, or with + and the country code, for example +4915123456789',
		);
		expect(fake.requests.filter((r) => r.rawBody.includes('Ben'))).toEqual([]);
	},
);

describe("send once per key, in n8n's own processed-data store", () => {
	test(
		'the same workflow run twice: each message reaches the service once; error items carry ' +
			'details on the error output',
		async () => {
			const first = await execute(workflows.sendOnce.id);
			expect(first.code).toBe(0);
			expect(
				requestsTo('/whatsapp/send-template-message').map((r) => r.body.customer_phone),
			).toEqual(['+4915100000001']);
			const [sent, duplicate] = outputOf(first.result, 'Send once');
			expect(sent.json).toMatchObject({ status: 'ongoing' });
			expect(duplicate.json).toEqual({
				skipped: true,
				reason: 'duplicateInRun',
				sendOnceKey: 'A-1-shipped',
			});
			const errorOutput = first.result.data.resultData.runData['Send once'][0].data.main[1];
			expect(errorOutput).toHaveLength(1);
			expect(errorOutput[0].json.details).toEqual({
				outcome: 'notSent',
				reason: 'invalidInput',
				field: 'Customer Phone',
			});
			expect(errorOutput[0].json.error).toMatch(/^Customer Phone \(item 1\): /);
			expect(errorOutput[0].json.message).toBe('Nothing was sent for this item.');
			// n8n adds the input item's fields; the item's own `error` stays out of the execution data.
			expect(errorOutput[0].json).toMatchObject({ orderId: 'A-2', phone: '0151 2345678' });
			expect(errorOutput[0]).not.toHaveProperty('error');
			// Each branch gets its own items only.
			expect(
				outputOf(first.result, 'Sent').map((item) => item.json.status ?? item.json.reason),
			).toEqual(['ongoing', 'duplicateInRun']);
			expect(
				outputOf(first.result, 'Notify the team').map((item) => item.json.details?.reason),
			).toEqual(['invalidInput']);
			expect(JSON.stringify(first.result)).not.toContain(API_KEY);

			const second = await execute(workflows.sendOnce.id);
			expect(second.code).toBe(0);
			expect(requestsTo('/whatsapp/send-template-message')).toEqual([]);
			// A key sent before is alreadySent, also where it comes twice in the run.
			expect(outputOf(second.result, 'Send once').map((item) => item.json.reason)).toEqual([
				'alreadySent',
				'alreadySent',
			]);
		},
	);
});

describe('examples/ workflows', () => {
	test('new CRM contact → WhatsApp welcome offer', async () => {
		const [item] = await outputOfRun('OmniExampleCrm01', 'Send WhatsApp welcome offer');
		expect(item.json).toMatchObject({ status: 'ongoing' });
		expect(item.json.rendered.body).toBe('Hello Anna, enjoy 15% off this week only.');
		expect(requestsTo('/whatsapp/send-template-message').map((r) => r.body)).toEqual([
			offerSendBody('Anna', '15', 'https://cdn.example.com/samples/offer.jpg'),
		]);
	});

	test('pick a template by name → send', async () => {
		const { code, result } = await execute('OmniExamplePick1');
		expect(code).toBe(0);
		expect(outputOf(result, 'Get many templates')).toHaveLength(7);
		expect(outputOf(result, 'Pick template by name').map((i) => i.json.name)).toEqual([
			'order_shipped',
		]);
		const [item] = outputOf(result, 'Send WhatsApp template');
		expect(item.json.rendered.body).toBe(
			'Hi Jonas, your order 1042 has shipped and arrives on Friday. Track it below.',
		);
		const sends = requestsTo('/whatsapp/send-template-message');
		expect(sends.map((r) => r.body)).toEqual([
			templateSendBody('101', '+491701234567', { 1: 'Jonas', 2: '1042', 3: 'Friday' }),
		]);
	});

	test('form submission → send the document', async () => {
		const { code, result } = await execute('OmniExampleForm1');
		expect(code).toBe(0);
		expect(outputOf(result, 'Send the document')[0].json).toMatchObject({ status: 'sent' });
		expect(fake.requests.map((r) => [r.path, r.body])).toEqual([
			[
				`${PREFIX}/customers/send-text-message`,
				{
					customer_id: '123456',
					text: 'Hi Anna, thanks for your request! Here is the document you asked for.',
				},
			],
			[
				`${PREFIX}/customers/send-attachment-message`,
				{
					customer_id: '123456',
					attachment_type: 'document',
					attachment_url: 'https://cdn.example.com/samples/price-list.pdf',
				},
			],
		]);
	});
});

describe("n8n's server", () => {
	let server;
	let rest;

	beforeAll(async () => {
		({ server, rest } = await startServerLoggedIn(env));
	}, 120_000);

	afterAll(async () => {
		await server?.stop();
	});

	test('loads the node and its credential type from the installed community package', async () => {
		const nodes = await rest.request('GET', '/types/nodes.json');
		expect(nodes.status).toBe(200);
		const node = nodes.json.find((n) => n.name === n8n.NODE_TYPE);
		expect(node).toMatchObject({
			displayName: 'Omnichannel Messaging',
			version: [1, 2],
			defaultVersion: 2,
		});
		const credentials = await rest.request('GET', '/types/credentials.json');
		expect(credentials.json.map((c) => c.name)).toContain(n8n.CREDENTIAL_TYPE);
	});

	test(
		'send once: a webhook called twice at once with the same body sends each message once; the ' +
			'later execution skips them as alreadySent',
		async () => {
			// One CRM event delivered twice at once (a webhook retried while the first delivery still runs).
			const event = {
				event: 'order.shipped',
				recipients: [
					{ orderId: 'W-1', phone: '+4915100000011', name: 'Anna' },
					{ orderId: 'W-2', phone: '+4915100000012', name: 'Ben' },
					{ orderId: 'W-3', phone: '+4915100000013', name: 'Cara' },
				],
			};
			const webhookPath = 'e2e-send-once-twice-at-once';
			const workflow = chain(
				'E2eSendOnceHook1',
				'e2e send once, one webhook called twice at once',
				[
					webhookTrigger(webhookPath),
					splitOut('Recipients', 'body.recipients'),
					omniNode(
						'Send once',
						orderShippedSend(
							{ 1: '={{ $json.name }}', 2: '={{ $json.orderId }}', 3: 'Friday' },
							{ sendOnceKey: '={{ $json.orderId }}-shipped' },
						),
					),
				],
			);
			await createActiveWorkflow(rest, workflow);
			const url = `${server.url}/webhook/${webhookPath}`;
			await waitForWebhook(url);

			// Every answer of the service takes this long: both executions are inside the node at once.
			const LATENCY_MS = 3000;
			fake.reset();
			fake.latencyMs = LATENCY_MS;
			let answers;
			const took = [];
			try {
				answers = await Promise.all(
					[0, 1].map(async (call) => {
						const started = Date.now();
						const answer = await callWebhook(url, event);
						took[call] = Date.now() - started;
						return answer;
					}),
				);
			} finally {
				fake.latencyMs = 0;
			}

			// The executions overlapped: both calls took a template read and a send (two answers of
			// LATENCY_MS each), so the later execution did not find the keys in n8n's store but waited
			// for the earlier one's outcome on the claims held in this n8n process. One template read
			// served both (the template cache's single flight, or the later one never needed it).
			for (const ms of took) expect(ms).toBeGreaterThan(2 * LATENCY_MS - 500);
			expect(requestsTo('/whatsapp/get-template-detail')).toHaveLength(1);

			// The service got each message exactly once.
			const sends = requestsTo('/whatsapp/send-template-message');
			expect(sends.map((r) => r.body.customer_phone).sort()).toEqual(
				event.recipients.map((r) => r.phone),
			);
			for (const send of sends) expect(send.status).toBe(200);

			// What the two callers got: for each recipient, one sent item and one skipped as alreadySent.
			for (const answer of answers) expect(answer).toHaveLength(event.recipients.length);
			event.recipients.forEach((recipient, index) => {
				const pair = answers.map((answer) => answer[index]);
				const sent = pair.filter((item) => item.status === 'ongoing');
				const skipped = pair.filter((item) => item.skipped === true);
				expect(sent).toHaveLength(1);
				expect(sent[0].extra).toMatchObject({
					customer_phone: recipient.phone,
					template_id: '101',
				});
				expect(skipped).toEqual([
					{ skipped: true, reason: 'alreadySent', sendOnceKey: `${recipient.orderId}-shipped` },
				]);
			});
		},
	);

	/** What the editor's "Retry"/"Save" does: load the stored credential, send it to /rest/credentials/test. */
	async function testStoredCredential(id, faults = [], changes = {}) {
		const stored = await rest.request('GET', `/rest/credentials/${id}?includeData=true`);
		expect(stored.status).toBe(200);
		const { name, type, data } = stored.json.data;
		fake.reset();
		for (const [path, fault, times] of faults) fake.addFault(path, fault, times);
		const tested = await rest.request('POST', '/rest/credentials/test', {
			credentials: { id, name, type, data: { ...data, ...changes } },
		});
		expect(tested.status).toBe(200);
		return tested.json.data;
	}

	test('credential test with the right key: OK', async () => {
		const outcome = await testStoredCredential(CREDENTIAL.id);
		expect(outcome).toMatchObject({ status: 'OK' });
		expect(
			fake.requests.map((r) => [r.method, r.path, r.headers['x-service-api-key'], r.status]),
		).toEqual([['GET', `${PREFIX}/whatsapp/get-platform-list`, API_KEY, 200]]);
	});

	test('credential test with a wrong key: an error saying the API key was rejected', async () => {
		const outcome = await testStoredCredential(BAD_KEY_CREDENTIAL.id);
		expect(outcome.status).toBe('Error');
		if (Number(n8n.installedVersion().split('.')[0]) >= 2) {
			// The credential's own rule for a 401 (credentials/OmnichannelMessagingApi.credentials.ts).
			expect(outcome.message).toMatch(/API key was rejected/);
			expect(outcome.message).toMatch(/401/);
		} else {
			// n8n 1.x answers a 401 with its generic text before the credential's rules are read.
			expect(outcome.message).toBe('Authorization failed - please check your credentials');
		}
		// n8n's credential tester sends the request again after a 401 (its own retry), so 1 or 2 requests.
		const seen = fake.requests.map((r) => [
			r.method,
			r.path,
			r.headers['x-service-api-key'],
			r.status,
		]);
		expect(seen.length).toBeGreaterThanOrEqual(1);
		for (const request of seen) {
			expect(request).toEqual([
				'GET',
				`${PREFIX}/whatsapp/get-platform-list`,
				BAD_KEY_CREDENTIAL.apiKey,
				401,
			]);
		}
	});

	test(
		'credential test against a service that redirects: nothing reaches the other host, the ' +
			'result says it was redirected',
		async () => {
			const redirect = {
				status: 307,
				headers: {
					Location: `${other.url}/stable/open/whatsapp/get-platform-list?token=front-secret`,
				},
			};
			other.received.length = 0;
			const outcome = await testStoredCredential(CREDENTIAL.id, [['*', redirect, 10]]);
			expect(other.received).toEqual([]);
			expect(fake.requests).toHaveLength(1);
			expect(outcome.status).toBe('Error');
			if (Number(n8n.installedVersion().split('.')[0]) >= 2) {
				expect(outcome.message).toContain(
					'answered with a redirect (HTTP 307), which is never followed',
				);
				expect(outcome.message).toContain('Set the Base URL');
			} else {
				// n8n 1.x reads no rule of a credential's test: it shows the request error's own words.
				expect(outcome.message).toBe('Request failed with status code 307');
			}
		},
	);

	test('credential test with an API Key Header no request can carry: the field named, nothing sent', async () => {
		const outcome = await testStoredCredential(CREDENTIAL.id, [], {
			apiKeyHeader: 'X-Service-Api-Key\r\nX-Injected: 1',
		});
		expect(fake.requests).toEqual([]);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			/^Invalid credential: the API Key Header is not a valid HTTP header name/,
		);
		expect(outcome.message).toContain('X-Service-Api-Key');
	});
});
