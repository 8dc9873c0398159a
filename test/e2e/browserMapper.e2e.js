'use strict';
/*
 * Browser test: a builder adds an Answer Link in n8n's editor (2.41.1, or 1.123.81 with
 * N8N_PIN=1.x) with Variables Input at its default, Map Each Variable. The answers example is
 * imported as shipped and published. On a template send the builder adds Options → Answer Link,
 * whose Link Variable starts empty, sets it to 3: the mapper drops {{3}}; the builder maps the
 * others, executes the node, and the customer's tap on the link's page starts the answers
 * workflow. The same with Send Text, and with the broadcast example switched to Map Each Variable
 * and run from the canvas. Screenshots: .tmp/screenshots/answer-links/ (git-ignored).
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { startEditorWithService, readExample, until } = require('./editor');
const { addedNodeWorkflow, closeAll, restData } = require('./support');
const { executionMark, executionSince, storedExecution } = require('./support');
const { lastOutput, phonePage } = require('./sendAndWait.support');

const BROADCAST = readExample('answer-link-broadcast.json');
const ANSWERS = readExample('answer-link-answers.json');
const TRIGGER = ANSWERS.nodes.find((node) => node.name === 'On appointment answer');
const IS_2X = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]) >= 2;
const SHOTS = path.join(n8n.REPO_ROOT, '.tmp', 'screenshots', 'answer-links');

// Two workflows as a builder starts them: the send's node added, nothing in its Options yet.
const TEMPLATE_SEND = addedNodeWorkflow(
	'E2eMapperLink001',
	'Builder: a template with an answer link',
	'Send template',
	{
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: { __rl: true, mode: 'list', value: '12', cachedResultName: 'WhatsApp Sales' },
		templateId: {
			__rl: true,
			mode: 'list',
			value: '108',
			cachedResultName: 'appointment_confirmation',
		},
		customerPhone: '+49 151 2345 6701',
	},
);
const TEXT_SEND = addedNodeWorkflow(
	'E2eMapperLink002',
	'Builder: a text with an answer link',
	'Send text',
	{
		resource: 'message',
		operation: 'sendText',
		customerId: '4711',
		text: 'Can you come on Tuesday?',
	},
);

let fake;
let editor;
let rest;
let triggerUrl;

beforeAll(async () => {
	({ fake, editor } = await startEditorWithService('e2e-browser-mapper', {
		workflows: [BROADCAST, ANSWERS, TEMPLATE_SEND, TEXT_SEND],
		publish: [ANSWERS],
	}));
	({ rest } = editor);
	triggerUrl = `${editor.server.url}/webhook/${TRIGGER.webhookId}`;
	fs.mkdirSync(SHOTS, { recursive: true });
}, 420_000);

afterAll(() => closeAll(editor, fake));

/** Opens a workflow's node panel. */
async function openNode(workflow, nodeName) {
	const { page, server } = editor;
	await page.goto(`${server.url}/workflow/${workflow.id}`, { waitUntil: 'domcontentloaded' });
	await page.getByTestId('canvas-node').filter({ hasText: nodeName }).first().dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('node-parameters').waitFor();
	return ndv;
}

/** The mapper's field positions as shown, once it shows `count` of them. */
async function mapperPositions(ndv, count) {
	const fields = ndv
		.getByTestId('resource-mapper-container')
		.locator('[data-test-id^="parameter-input-"]');
	const read = async () =>
		(await fields.evaluateAll((nodes) => nodes.map((node) => node.dataset.testId)))
			.map((id) => id.replace('parameter-input-', ''))
			.filter((id) => /^\d+$/.test(id));
	return await until(async () => {
		const ids = await read();
		return ids.length === count ? ids : undefined;
	}, 30_000).then(async (ids) => ids ?? (await read()));
}

/** Adds an option from the node's Options ("Add option"), as a builder picks it. */
async function addOption(ndv, name) {
	const { page } = editor;
	const adder = ndv.getByText('Add option', { exact: true }).or(ndv.getByPlaceholder('Add option'));
	await adder.last().scrollIntoViewIfNeeded();
	await adder.last().click();
	await page
		.locator('[data-test-id="collection-parameter-option"], [role="option"], [role="menuitem"]')
		.filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) })
		.filter({ visible: true })
		.first()
		.click();
}

/**
 * Types `value` into the field `name` and leaves it, as a builder does. Text starting with "{{"
 * turns the field into an expression editor, which a click beside it leaves.
 */
async function fillField(ndv, name, value) {
	const input = ndv.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();
	await input.scrollIntoViewIfNeeded();
	await input.click();
	const expression = String(value).startsWith('{{');
	if (expression && !IS_2X) {
		// n8n 1.x turns a field into an expression editor on "=", then takes the expression there.
		await input.fill('=');
		const editorBox = ndv.getByTestId(`parameter-input-${name}`).locator('.cm-content').first();
		// The editor replaces the input where it stood: at the panel's foot it may start out of view.
		await editorBox.scrollIntoViewIfNeeded();
		await editorBox.click();
		await editor.page.keyboard.insertText(String(value));
	} else await input.fill(String(value));
	if (expression) await ndv.getByTestId('node-parameters').click({ position: { x: 5, y: 5 } });
	else await input.press('Tab');
}

const fieldValue = (ndv, name) =>
	ndv.getByTestId(`parameter-input-${name}`).locator('input, textarea').first().inputValue();

/** Executes the node from its panel and waits until the service received one more send. */
async function executeNode(ndv) {
	const before = fake.sends().length;
	await ndv.getByTestId('node-execute-button').click();
	await until(async () => fake.sends().length > before, 60_000);
	return fake.sends().slice(before);
}

/** The customer opens `link` on a phone and taps `choice`; the answers workflow's execution. */
async function answer(link, choice) {
	const mark = await executionMark(rest, ANSWERS.id);
	const page = await phonePage(editor.browser);
	await page.goto(link);
	await page.getByRole('button', { name: choice }).tap();
	await page.getByText(`Recorded: ${choice}`).waitFor();
	await page.context().close();
	const { id, status } = await executionSince(rest, ANSWERS.id, mark, { timeoutMs: 30_000 });
	expect(status).toBe('success');
	return await storedExecution(rest, id);
}

const linkPattern = () => new RegExp(`^${triggerUrl.replace(/[.]/g, '\\.')}\\?a=[\\w-]+$`);

test('a template send: Answer Link into {{3}}, the mapper drops it, the page answers', async () => {
	const { step, page } = editor;
	const ndv = await step('open the template send', () => openNode(TEMPLATE_SEND, 'Send template'));
	await expect(mapperPositions(ndv, 3)).resolves.toEqual(['1', '2', '3']);
	await step('add Options → Answer Link', () => addOption(ndv, 'Answer Link'));
	await expect(fieldValue(ndv, 'linkVariable')).resolves.toBe('');
	// Still every variable to map: an empty Link Variable takes none.
	await expect(mapperPositions(ndv, 3)).resolves.toEqual(['1', '2', '3']);
	await step('fill the Answer Link', async () => {
		await fillField(ndv, 'triggerUrl', triggerUrl);
		await fillField(ndv, 'linkVariable', 3);
	});
	await expect(mapperPositions(ndv, 2)).resolves.toEqual(['1', '2']);
	await step('map the other variables', async () => {
		await fillField(ndv, '1', 'Anna');
		await fillField(ndv, '2', 'Tuesday 10:00');
	});
	await page.screenshot({ path: path.join(SHOTS, 'builder-template-answer-link.png') });
	const [sent] = await step('execute the node', () => executeNode(ndv));
	expect(sent.body.attributes).toMatchObject({ 1: 'Anna', 2: 'Tuesday 10:00' });
	expect(sent.body.attributes['3']).toMatch(linkPattern());
	const execution = await answer(sent.body.attributes['3'], 'Confirm');
	expect(lastOutput(execution, 'Confirmed (stand-in)')?.[0].json).toMatchObject({
		status: 'confirmed',
	});
	expect(lastOutput(execution, 'First answer only')?.[0].json).toMatchObject({
		data: { choice: 'Confirm' },
		recipient: { phone: '+4915123456701' },
	});
}, 300_000);

test('Send Text: Answer Link under its label, the page answers', async () => {
	const { step } = editor;
	const ndv = await step('open the text send', () => openNode(TEXT_SEND, 'Send text'));
	await step('add Options → Answer Link', () => addOption(ndv, 'Answer Link'));
	await step('fill the Answer Link', async () => {
		await fillField(ndv, 'triggerUrl', triggerUrl);
		await fillField(ndv, 'reference', 'APT-2043');
	});
	const [sent] = await step('execute the node', () => executeNode(ndv));
	const [text, label, link] = String(sent.body.text).split('\n').filter(Boolean);
	expect([text, label]).toEqual(['Can you come on Tuesday?', 'Answer here:']);
	expect(link).toMatch(linkPattern());
	const execution = await answer(link, 'Cancel');
	expect(lastOutput(execution, 'Cancelled (stand-in)')?.[0].json).toMatchObject({
		appointmentId: 'APT-2043',
		status: 'cancelled',
	});
}, 300_000);

test('the broadcast example with Map Each Variable sends every link; a customer answers', async () => {
	const { step, page } = editor;
	const ndv = await step('open the broadcast send', () =>
		openNode(BROADCAST, 'Send with answer link'),
	);
	// Options hold {{ $json.appointmentId }}: n8n 1.x's editor sends the mapper no Options (so no
	// Link Variable) while it cannot resolve them, as before the previous nodes have run.
	await step('run the previous nodes for input data', async () => {
		await ndv.getByTestId('execute-previous-node').first().click();
		await ndv.getByText('APT-2041').first().waitFor();
	});
	await step('switch Variables Input to Map Each Variable', async () => {
		await ndv.getByTestId('parameter-input-variablesMode').click();
		await page
			.locator('[role="option"], .el-select-dropdown__item')
			.filter({ hasText: 'Map Each Variable' })
			.filter({ visible: true })
			.first()
			.click();
	});
	// The saved Link Variable is 3: the mapper asks for {{1}} and {{2}} only.
	await expect(mapperPositions(ndv, 2)).resolves.toEqual(['1', '2']);
	await step('map the variables from the items', async () => {
		await fillField(ndv, '1', '{{ $json.name }}');
		await fillField(ndv, '2', '{{ $json.appointment }}');
		// The editor keeps an expression once it shows its value, beside the input panel's own.
		const shown = () => ndv.getByText('Tuesday 2 December, 10:00').count();
		expect(await until(async () => (await shown()) > 1, 30_000)).toBe(true);
	});
	await page.screenshot({ path: path.join(SHOTS, 'broadcast-map-each-variable.png') });
	await step('close the panel and save', async () => {
		await page.keyboard.press('Escape');
		await page.keyboard.press('Control+s');
		const saved = await until(async () => {
			const workflow = restData(
				await rest.request('GET', `/rest/workflows/${BROADCAST.id}`),
				'GET',
			);
			const node = workflow.nodes.find((candidate) => candidate.name === 'Send with answer link');
			const mapped = node.parameters.variables?.value ?? {};
			// Map Each Variable is the default, which n8n leaves out of a saved node.
			const mode = node.parameters.variablesMode ?? 'mapper';
			return mode === 'mapper' && mapped['2'] === '={{ $json.appointment }}';
		}, 30_000);
		expect(saved).toBe(true);
	});
	const before = fake.sends().length;
	await step('execute the workflow from the canvas', async () => {
		await page.getByTestId('execute-workflow-button').first().click();
		await until(async () => fake.sends().length >= before + 3, 90_000);
	});
	const sent = fake.sends().slice(before);
	expect(sent.map((request) => request.body.attributes['1'])).toEqual(['Layla', 'Bo', 'Priya']);
	for (const request of sent) expect(request.body.attributes['3']).toMatch(linkPattern());
	const execution = await answer(sent[1].body.attributes['3'], 'Reschedule');
	expect(lastOutput(execution, 'Reschedule requested (stand-in)')?.[0].json).toMatchObject({
		appointmentId: 'APT-2042',
		status: 'rescheduleRequested',
	});
}, 300_000);
