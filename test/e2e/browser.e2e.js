'use strict';
/*
 * Browser test: the node in n8n's editor (Chromium through playwright-core), against the fake
 * service. Opens a workflow holding the node, picks the channel from the Channel list (the
 * node's searchChannels method), opens the template dropdown (searchTemplates), picks
 * order_shipped, fills the three variable fields the resource mapper shows
 * (getTemplateVariables), executes the node and checks the result. A second case opens a
 * workflow saved before Channel became a list (`"channelId": 12`) and checks that the editor
 * shows 12 in 0.1.0's Channel ID field, that its lists load for channel 12 and that it still
 * sends to channel 12.
 * Saves channel-list.png, template-dropdown.png and node-panel.png to .tmp/screenshots/ (git-ignored);
 * `npm run docs:screenshots` runs it with E2E_SCREENSHOT_DIR=docs to refresh the README's images.
 * The editor and Chromium: ./editor.js.
 */
const fs = require('node:fs');
const path = require('node:path');

const { mapperValue } = require('../helpers/mapperValue');
const { startSilentServer } = require('../helpers/silentServer');
const { startEditorWithService, until } = require('./editor');
const { CREDENTIAL, SCREENSHOTS, closeAll, credentialFor } = require('./support');
const { addedNodeWorkflow, trigger, omniNode, chain, templateSendBody } = require('./support');

// A node as n8n adds it today: node version 2.
const WORKFLOW = addedNodeWorkflow(
	'E2eBrowserWf0001',
	'Browser test: WhatsApp template',
	'Send WhatsApp template',
	{
		resource: 'whatsappTemplate',
		operation: 'send',
		customerPhone: '+49 151 2345 6789',
	},
);
// A node saved by 0.1.0, when Channel was a number field: typeVersion 1 and a plain `"channelId": 12`.
const SAVED_WORKFLOW = chain('E2eBrowserWf0002', 'Browser test: saved with a channel number', [
	trigger(),
	omniNode('Saved with channel 12', {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: { __rl: true, mode: 'list', value: '101', cachedResultName: 'order_shipped' },
		customerPhone: '+49 151 2345 6789',
		variablesMode: 'mapper',
		// The labels getTemplateVariables gave order_shipped's placeholders in 0.1.0.
		variables: mapperValue(
			{ 1: 'Ben', 2: '2051', 3: 'Monday' },
			{
				labels: {
					1: '{{1}}: Hi ___, your order…',
					2: '{{2}}: …{{1}}, your order ___ has shipped and…',
					3: '{{3}}: …and arrives on ___.',
				},
				convertFieldsToString: true,
			},
		),
	}),
]);
// A credential whose service accepts connections and never answers (test/helpers/silentServer.js).
const SILENT_CREDENTIAL = {
	id: 'OmniSilentCred01',
	name: 'Omnichannel Messaging (silent service)',
};
const SILENT_WORKFLOW = chain('E2eBrowserWf0003', 'Browser test: a service that never answers', [
	trigger(),
	omniNode(
		'Send with a silent service',
		{
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: { __rl: true, mode: 'id', value: '12' },
			customerPhone: '+49 151 2345 6789',
		},
		{ credential: SILENT_CREDENTIAL },
	),
]);
// The fake service's two channels (test/fake-service/seed.js), as the Channel list shows them.
const CHANNELS = { 12: 'WhatsApp Sales (+4930123456)', 13: 'WhatsApp Support (+4930654321)' };
const BODY_PREVIEWS = {
	order_shipped: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}. Track it below.',
	spring_offer: 'Hello {{1}}, enjoy {{2}}% off this week only.',
	invoice_ready: 'Dear {{1}}, your invoice is attached.',
	opening_hours: 'We are open Monday to Friday, 9:00 to 18:00.',
	appointment_reminder:
		'Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. See you then, {{1}}, and thank you.',
	product_video: 'Watch how {{1}} works.',
	voice_note: 'A message from {{1}} for you.',
};

let fake;
let silent;
let editor;
let page;
/** A step of the test (editor.js): on failure, a screenshot next to the test's n8n folder. */
const step = (name, action) => editor.step(name, action);

beforeAll(async () => {
	silent = await startSilentServer();
	({ fake, editor } = await startEditorWithService('e2e-browser', {
		service: {},
		credentials: [credentialFor(silent.url, SILENT_CREDENTIAL)],
		workflows: [WORKFLOW, SAVED_WORKFLOW, SILENT_WORKFLOW],
	}));
	({ page } = editor);
}, 300_000);

afterAll(() => closeAll(editor, fake, silent));

/** Opens the workflow and the node's panel; the credential imported for the node is preselected. */
async function openNode(workflow, nodeName, credentialName = CREDENTIAL.name) {
	await page.goto(`${editor.server.url}/workflow/${workflow.id}`);
	await page.getByTestId('canvas-node').filter({ hasText: nodeName }).dblclick();
	const ndv = page.getByTestId('ndv');
	await channelField(ndv).waitFor();
	const credential = ndv.getByTestId('node-credentials-select').locator('input').first();
	await expect(credential.inputValue()).resolves.toBe(credentialName);
	return ndv;
}

/** The entries of the open resource locator list, as shown (closed lists stay in the page, hidden). */
const listItems = () => page.getByTestId('rlc-item').filter({ visible: true });

async function shownItems() {
	return (await listItems().allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/**
 * Opens the list of the resource locator `name` and waits for `count` entries; returns the
 * request n8n sent for it (currentNodeParameters shows what the editor holds) and the results.
 */
async function openList(ndv, name, count) {
	const response = page.waitForResponse(
		(r) =>
			r.url().includes('/rest/dynamic-node-parameters/resource-locator-results') &&
			r.request().postDataJSON()?.path === `parameters.${name}`,
	);
	await ndv.getByTestId(`resource-locator-${name}`).getByTestId('rlc-input').click();
	const answer = await response;
	await listItems()
		.nth(count - 1)
		.waitFor();
	return { request: answer.request().postDataJSON(), results: (await answer.json()).data.results };
}

/**
 * Closes an open list. n8n 2.x closes it on Escape; n8n 1.x's editor closes it on Escape in its
 * search box, or on a click elsewhere in the panel (its search box covers the fields below).
 */
async function closeList(ndv) {
	const attempts = [
		() => page.keyboard.press('Escape'),
		() => page.getByTestId('rlc-search').filter({ visible: true }).first().press('Escape'),
		() => ndv.getByTestId('node-parameters').click({ position: { x: 5, y: 5 } }),
	];
	for (const attempt of attempts) {
		await attempt().catch(() => {});
		const closed = await listItems()
			.first()
			.waitFor({ state: 'hidden', timeout: 2_000 })
			.then(
				() => true,
				() => false,
			);
		if (closed) return;
	}
	await listItems().first().waitFor({ state: 'hidden' });
}

/** Channel: the locator, or for a node saved by 0.1.0 its number field. */
const channelField = (ndv) =>
	ndv
		.locator(
			'[data-test-id="resource-locator-channelId"], [data-test-id="parameter-input-channelId"]',
		)
		.first();

/** What 0.1.0's Channel ID field shows. */
const savedChannelNumber = (ndv) =>
	ndv.getByTestId('parameter-input-channelId').locator('input').first().inputValue();

/** What the Channel field shows: the mode selector's text and the value input's text. */
async function channelShown(ndv) {
	const locator = ndv.getByTestId('resource-locator-channelId');
	return {
		mode: await locator.getByTestId('rlc-mode-selector').locator('input').inputValue(),
		value: await locator.getByTestId('rlc-input').inputValue(),
	};
}

/** The mapper's field for each placeholder position, and no field beyond them. */
async function expectVariableFields(mapper, positions) {
	await mapper.getByTestId(`parameter-input-${positions.at(-1)}`).waitFor();
	// One field container per placeholder: value["1"], value["2"], value["3"].
	const fields = mapper.locator(
		'[data-test-id^="value["][data-test-id$="-parameter-input-options-container"]',
	);
	await expect(fields.count()).resolves.toBe(positions.length);
	for (const position of positions) {
		await expect(mapper.getByTestId(`parameter-input-${position}`).count()).resolves.toBe(1);
	}
	await expect(mapper.getByTestId(`parameter-input-${positions.length + 1}`).count()).resolves.toBe(
		0,
	);
	const labels = await mapper.locator('label, [data-test-id="input-label"]').allInnerTexts();
	for (const position of positions) expect(labels.join('\n')).toContain(`{{${position}}}`);
}

/** Picks a template from the open dropdown and waits until the Template field shows it. */
async function pickTemplate(ndv, name) {
	await listItems().filter({ hasText: name }).click();
	const locatorInputs = ndv.getByTestId('resource-locator-templateId').locator('input');
	const picked = await until(async () => {
		const values = await locatorInputs.evaluateAll((inputs) => inputs.map((input) => input.value));
		return values.find((value) => value.startsWith(name));
	});
	expect(picked).toMatch(new RegExp(`^${name}`));
}

const variableInput = (mapper, position) =>
	mapper.getByTestId(`parameter-input-${position}`).locator('input, textarea').first();

/** Executes the node from its panel and waits for the service's answer in the output, as JSON. */
async function executeNode(ndv) {
	fake.reset();
	await ndv.getByTestId('node-execute-button').click();
	const output = ndv.getByTestId('output-panel');
	await output.getByText('ongoing').first().waitFor({ timeout: 45_000 });
	await output.getByText('send_template_message').first().waitFor();
	await output.getByTestId('radio-button-json').click();
	await output.getByText('"ongoing"').first().waitFor();
}

const sentRequests = () =>
	fake.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body]);
const readRequests = (suffix) =>
	fake.requests.filter((r) => r.path.endsWith(suffix)).map((r) => r.query);

test('channel list, template dropdown, variable fields and execution in the node panel', async () => {
	fs.mkdirSync(SCREENSHOTS, { recursive: true });
	const ndv = await step('open the node', () => openNode(WORKFLOW, 'Send WhatsApp template'));

	await step('see both channels in the Channel list', async () => {
		fake.reset();
		const { results } = await openList(ndv, 'channelId', 2);
		await expect(shownItems()).resolves.toEqual([CHANNELS[12], CHANNELS[13]]);
		expect(results.map(({ name, value }) => [value, name])).toEqual(Object.entries(CHANNELS));
		expect(readRequests('/whatsapp/get-platform-list')).toEqual([{}]);
		await page.screenshot({ path: path.join(SCREENSHOTS, 'channel-list.png') });
	});

	await step('pick WhatsApp Sales', async () => {
		await listItems().filter({ hasText: CHANNELS[12] }).click();
		await expect(until(async () => (await channelShown(ndv)).value === CHANNELS[12])).resolves.toBe(
			true,
		);
		await expect(channelShown(ndv)).resolves.toEqual({ mode: 'From list', value: CHANNELS[12] });
	});

	await step('see the templates with their body preview', async () => {
		fake.reset();
		const { request, results } = await openList(ndv, 'templateId', 7);
		expect(request.currentNodeParameters.channelId).toMatchObject({
			__rl: true,
			mode: 'list',
			value: '12',
		});
		await expectTemplateList(results);
		expect(readRequests('/whatsapp/get-template-list')).toEqual([{ platform_id: '12' }]);
		await page.screenshot({ path: path.join(SCREENSHOTS, 'template-dropdown.png') });
	});

	const mapper = ndv.getByTestId('resource-mapper-container');
	await step('pick order_shipped and see one field per placeholder', async () => {
		await pickTemplate(ndv, 'order_shipped');
		await expectVariableFields(mapper, ['1', '2', '3']);
	});

	await step('fill the variables', async () => {
		for (const [position, value] of Object.entries({ 1: 'Anna', 2: '1042', 3: 'Friday' })) {
			await variableInput(mapper, position).fill(value);
			await variableInput(mapper, position).press('Tab');
		}
	});

	await step('execute the node and see the result', async () => {
		await executeNode(ndv);
		await mapper.scrollIntoViewIfNeeded();
		await page.screenshot({ path: path.join(SCREENSHOTS, 'node-panel.png') });
	});

	expect(sentRequests()).toEqual([
		[
			'/stable/open/whatsapp/send-template-message',
			templateSendBody('101', '+4915123456789', { 1: 'Anna', 2: '1042', 3: 'Friday' }),
		],
	]);
}, 240_000);

/** The dropdown: every template of the channel by name, each with the start of its body. */
async function expectTemplateList(results) {
	const shown = await shownItems();
	expect(shown).toHaveLength(7);
	// Each entry: the template's name, then the start of its body (searchTemplates puts the
	// preview into the name, since n8n's list draws only names).
	expect(shown.map((text) => text.split(' ')[0])).toEqual(Object.keys(BODY_PREVIEWS));
	Object.values(BODY_PREVIEWS).forEach((body, index) => {
		expect(shown[index]).toContain(body.slice(0, 30));
	});
	expect(results.map(({ value }) => value)).toEqual([
		'101',
		'102',
		'103',
		'104',
		'105',
		'106',
		'107',
	]);
	results.forEach(({ name, description }, index) => {
		const [template, body] = Object.entries(BODY_PREVIEWS)[index];
		expect(name.startsWith(template)).toBe(true);
		expect(description).toContain(body.slice(0, 30));
	});
}

test('a workflow saved with "channelId": 12 shows channel 12, loads its lists and sends to it', async () => {
	fake.reset();
	const ndv = await step('open the saved node', () =>
		openNode(SAVED_WORKFLOW, 'Saved with channel 12'),
	);
	const mapper = ndv.getByTestId('resource-mapper-container');

	await step('see channel 12 in the Channel field', async () => {
		await expectVariableFields(mapper, ['1', '2', '3']);
		await page.screenshot({ path: path.join(editor.root, 'saved-channel-number.png') });
		// n8n's editor draws a saved value that is not a locator with an empty mode box ("Mode...");
		// node version 1 shows such a value in 0.1.0's own number field instead.
		await expect(ndv.getByTestId('resource-locator-channelId').count()).resolves.toBe(0);
		await expect(savedChannelNumber(ndv)).resolves.toBe('12');
		await expect(ndv.getByTestId('rlc-mode-selector').count()).resolves.toBe(1);
	});

	await step('see the variables mapper load for channel 12 with the saved values', async () => {
		expect(readRequests('/whatsapp/get-template-detail')).toContainEqual({
			platform_id: '12',
			template_id: '101',
		});
		for (const [position, value] of Object.entries({ 1: 'Ben', 2: '2051', 3: 'Monday' })) {
			await expect(variableInput(mapper, position).inputValue()).resolves.toBe(value);
		}
	});

	await step("see channel 12's templates in the dropdown", async () => {
		fake.reset();
		const { request, results } = await openList(ndv, 'templateId', 7);
		// The editor hands the saved number to the node as it is: nothing converted it.
		expect(request.currentNodeParameters.channelId).toBe(12);
		await expectTemplateList(results);
		expect(readRequests('/whatsapp/get-template-list')).toEqual([{ platform_id: '12' }]);
		await closeList(ndv);
	});

	await step('execute the saved node', () => executeNode(ndv));
	expect(sentRequests()).toEqual([
		[
			'/stable/open/whatsapp/send-template-message',
			templateSendBody('101', '+4915123456789', { 1: 'Ben', 2: '2051', 3: 'Monday' }),
		],
	]);
	await expect(savedChannelNumber(ndv)).resolves.toBe('12');
}, 180_000);

test('a service that never answers: the template dropdown stops waiting and says so, naming the Base URL', async () => {
	const ndv = await step('open the node', () =>
		openNode(SILENT_WORKFLOW, 'Send with a silent service', SILENT_CREDENTIAL.name),
	);
	const message = `The service at ${silent.url} did not answer within 10 seconds: check the Base URL in the credential`;
	await step('open the template dropdown and see the message', async () => {
		const givenUp = silent.givenUp();
		const response = page.waitForResponse(
			(r) => r.url().includes('/rest/dynamic-node-parameters/resource-locator-results'),
			{ timeout: 20_000 },
		);
		await ndv.getByTestId('resource-locator-templateId').getByTestId('rlc-input').click();
		await response;
		await page.getByText(message).first().waitFor({ timeout: 5_000 });
		// The node stopped waiting and closed its connection: the message is its own timeout's.
		await until(() => silent.givenUp() > givenUp, 5_000);
		expect(silent.givenUp()).toBeGreaterThan(givenUp);
		await page.screenshot({ path: path.join(editor.root, 'silent-service.png') });
	});
	expect(silent.connections()).toBeGreaterThanOrEqual(1);
}, 120_000);
