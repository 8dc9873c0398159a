'use strict';
/*
 * Browser test: every workflow in examples/, and workflows saved by earlier versions of the
 * package, open whole in n8n's editor. For each node of this package the test opens its panel and
 * finds every resource locator with its mode (none shows the empty "Mode..." box), no field
 * flagged with an issue, no "outdated" variables and no editor hint; the mapper's fields load.
 * One more node checks that the editor hint for Map Each Variable with a template chosen by an
 * expression shows. Saves a screenshot of each panel to .tmp/screenshots/examples/ (git-ignored).
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');
const { mapperValue } = require('../helpers/mapperValue');
const { startEditorWithService, until } = require('./editor');
const { addedNodeWorkflow, byId, closeAll, trigger, omniNode, chain } = require('./support');

const SHOTS = path.join(n8n.REPO_ROOT, '.tmp', 'screenshots', 'examples');
const EXAMPLES_DIR = path.join(n8n.REPO_ROOT, 'examples');
const IS_2X = Number(String(n8n.installedVersion() ?? n8n.N8N_VERSION).split('.')[0]) >= 2;
const examples = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({ file, ...JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }));

// 0.1.0's saved forms (node version 1): Channel a number or a bare expression, the variables
// mapper with 0.1.0's labels. And 0.2.0's: version 1 with Channel as a locator.
const SAVED = chain('E2eSavedForms001', 'Saved by 0.1.0 and 0.2.0', [
	trigger(),
	omniNode('Saved with channel 12', {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: { __rl: true, mode: 'list', value: '102', cachedResultName: 'spring_offer' },
		customerPhone: '={{ "+4915123456789" }}',
		variablesMode: 'mapper',
		variables: mapperValue(
			{ 1: 'Anna', 2: '15' },
			{
				labels: { 1: '{{1}} in "Hello {{1}}, enjoy"', 2: '{{2}} in "enjoy {{2}}% off"' },
				convertFieldsToString: true,
			},
		),
	}),
	omniNode('Saved with a channel expression', {
		resource: 'whatsappTemplate',
		operation: 'getAll',
		channelId: '={{ 12 }}',
		returnAll: true,
	}),
	omniNode('Saved by 0.2.0', {
		resource: 'whatsappTemplate',
		operation: 'get',
		channelId: { __rl: true, mode: 'list', value: '12', cachedResultName: 'WhatsApp Sales' },
		templateId: { __rl: true, mode: 'id', value: '101' },
	}),
]);
// A template chosen by an expression with Map Each Variable: the node's editor hint says to use JSON.
const HINTED = addedNodeWorkflow(
	'E2eHintMapper001',
	'Map Each Variable with a template expression',
	'Template by expression',
	{
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: byId('12'),
		templateId: byId('={{ 101 }}'),
		customerPhone: '+4915123456789',
		variablesMode: 'mapper',
	},
);
const withoutKey = (object, key) =>
	Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
const isOurs = (node) => node.type.startsWith(`${n8n.PACKAGE_NAME}.`);

let fake;
let editor;

beforeAll(async () => {
	({ fake, editor } = await startEditorWithService('e2e-browser-examples', {
		workflows: [...examples.map((example) => withoutKey(example, 'file')), SAVED, HINTED],
	}));
	fs.mkdirSync(SHOTS, { recursive: true });
}, 300_000);

afterAll(() => closeAll(editor, fake));

/** Opens the node's panel in its workflow; waits until its lists and mapper have loaded. */
async function openNode(workflow, nodeName) {
	const { page, server } = editor;
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	const mapperLoads =
		node.parameters.variablesMode === 'mapper' && !hasExpressionIn(node.parameters.templateId);
	const fields = mapperLoads
		? page.waitForResponse((r) =>
				r.url().includes('/dynamic-node-parameters/resource-mapper-fields'),
			)
		: undefined;
	await page.goto(`${server.url}/workflow/${workflow.id}`, { waitUntil: 'domcontentloaded' });
	await page.getByTestId('canvas-node').filter({ hasText: nodeName }).first().dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('node-parameters').waitFor();
	if (fields) {
		await fields;
		await ndv.getByTestId('resource-mapper-container').getByTestId('parameter-input-1').waitFor();
	}
	// The panel settles: the lists draw their names, the mapper compares its saved fields.
	await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
	return ndv;
}

const hasExpressionIn = (locator) => String(locator?.value ?? '').startsWith('=');

/** What on the panel is not whole: locators without a mode, issues, outdated variables, hints. */
async function problemsOn(ndv) {
	const modes = await ndv
		.getByTestId('rlc-mode-selector')
		.locator('input')
		.evaluateAll((inputs) => inputs.map((input) => input.value));
	return {
		locatorsWithoutMode: modes.filter((mode) => mode === '').length,
		issues: await ndv.getByTestId('parameter-issues').count(),
		nodeIssues: await ndv.getByTestId('node-issues').count(),
		outdated: await ndv.locator('[class*="staleDataWarning"]').count(),
		hints: await ndv.getByTestId('node-hint').allInnerTexts(),
	};
}

const WHOLE = { locatorsWithoutMode: 0, issues: 0, nodeIssues: 0, outdated: 0, hints: [] };

async function expectWhole(workflow, node, shotName) {
	const ndv = await editor.step(`open ${node.name}`, () => openNode(workflow, node.name));
	await editor.page.screenshot({ path: path.join(SHOTS, `${shotName}.png`) });
	expect({ node: node.name, ...(await problemsOn(ndv)) }).toEqual({ node: node.name, ...WHOLE });
	return ndv;
}

const exampleNodes = examples.flatMap((example) =>
	example.nodes.filter(isOurs).map((node) => [example.file, node.name, example, node]),
);

test.each(exampleNodes)(
	'%s: "%s" opens whole',
	async (file, _name, example, node) => {
		const ndv = await expectWhole(example, node, `${file.replace('.json', '')}-${node.name}`);
		const modes = await ndv
			.getByTestId('rlc-mode-selector')
			.locator('input')
			.evaluateAll((inputs) => inputs.map((input) => input.value));
		// Every locator the example stores is drawn, each in its stored mode.
		const stored = Object.values(node.parameters).filter((value) => value && value.__rl);
		expect(modes).toHaveLength(stored.length);
		// n8n 2.x words the list mode "From list", 1.x "From List".
		expect(modes.map((mode) => mode.toLowerCase())).toEqual(
			stored.map(({ mode }) => (mode === 'list' ? 'from list' : 'by id')),
		);
	},
	90_000,
);

test('the examples cover every node of the package they hold', () => {
	expect(examples.length).toBeGreaterThanOrEqual(5);
	expect(exampleNodes.length).toBeGreaterThanOrEqual(examples.length);
});

test('a 0.1.0 node with "channelId": 12 shows 12 and its values (today\'s labels on n8n 2.x)', async () => {
	const ndv = await editor.step('open the 0.1.0 node', () =>
		openNode(SAVED, 'Saved with channel 12'),
	);
	const mapper = ndv.getByTestId('resource-mapper-container');
	// 0.1.0's labels are replaced by the mapper's on opening, instead of an "outdated" warning.
	const labels = () => mapper.locator('label, [data-test-id="input-label"]').allInnerTexts();
	const relabelled = await until(
		async () => (await labels()).join('\n').includes('{{1}}: Hello ___, enjoy'),
		IS_2X ? 30_000 : 1_000,
	);
	await editor.page.screenshot({ path: path.join(SHOTS, 'saved-0.1.0-channel-number.png') });
	// n8n 1.x has no refreshStaleSchemaOnOpen: there the mapper keeps 0.1.0's labels and says so.
	if (IS_2X) {
		expect({ relabelled, labels: await labels() }).toMatchObject({ relabelled: true });
		expect(await problemsOn(ndv)).toEqual(WHOLE);
	}
	const channel = ndv.getByTestId('parameter-input-channelId').locator('input').first();
	await expect(channel.inputValue()).resolves.toBe('12');
	const first = mapper.getByTestId('parameter-input-1').locator('input, textarea').first();
	await expect(until(async () => (await first.inputValue()) === 'Anna')).resolves.toBe(true);
	await expect(mapper.getByTestId('parameter-input-3').count()).resolves.toBe(0);
}, 90_000);

test('a node saved by 0.1.0 with a channel expression shows the expression', async () => {
	const ndv = await expectWhole(SAVED, SAVED.nodes[2], 'saved-0.1.0-channel-expression');
	await expect(ndv.getByTestId('resource-locator-channelId').count()).resolves.toBe(0);
	await expect(ndv.getByTestId('parameter-input-channelId').innerText()).resolves.toContain('12');
}, 90_000);

test('a node saved by 0.2.0 (version 1, Channel a locator) shows it in its mode', async () => {
	const ndv = await expectWhole(SAVED, SAVED.nodes[3], 'saved-0.2.0-locator');
	const modes = ndv.getByTestId('rlc-mode-selector').locator('input');
	const shown = await modes.evaluateAll((inputs) => inputs.map((i) => i.value.toLowerCase()));
	expect(shown).toEqual(['from list', 'by id']);
}, 90_000);

test('Map Each Variable with a template from an expression: the editor hint says to use JSON', async () => {
	const ndv = await editor.step('open the hinted node', () =>
		openNode(HINTED, 'Template by expression'),
	);
	const hints = await until(async () => {
		const texts = await ndv.getByTestId('node-hint').allInnerTexts();
		return texts.length > 0 ? texts : undefined;
	});
	await editor.page.screenshot({ path: path.join(SHOTS, 'hint-map-each-variable.png') });
	expect(hints).toHaveLength(1);
	expect(hints[0]).toContain('Variables Input');
	expect(hints[0]).toContain('JSON');
}, 90_000);

test('ask-many-parent.json: "Ask, without waiting" opens whole, its sub-workflow found by id', async () => {
	const parent = examples.find((example) => example.file === 'ask-many-parent.json');
	const node = parent.nodes.find((candidate) => candidate.name === 'Ask, without waiting');
	const ndv = await expectWhole(parent, node, 'ask-many-parent-execute-workflow');
	const shown = await ndv
		.getByTestId('resource-locator-workflowId')
		.locator('input')
		.evaluateAll((inputs) => inputs.map((input) => input.value).join(' | '));
	expect(shown).toContain('ask one customer to confirm');
}, 90_000);
