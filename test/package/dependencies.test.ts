/*
 * The dependency rules of .dependency-cruiser.cjs (`npm run deps`, part of `npm test`): they hold
 * for the code as it is, and they catch a cycle and a forbidden import, naming both files.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoDir = path.resolve(__dirname, '..', '..');
const NODE = 'nodes/OmnichannelMessaging';
// The command line the layout picture is drawn with (scripts/docs-deps.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DEPCRUISE_CLI } = require('../../scripts/docs-deps.js') as { DEPCRUISE_CLI: string };

interface Violation {
	rule: { name: string };
	from: string;
	to: string;
	cycle?: Array<{ name: string }>;
}

/** Runs dependency-cruiser's command line in `cwd` and gives back its violations. */
function cruise(cwd: string): Violation[] {
	const run = spawnSync(
		process.execPath,
		[
			DEPCRUISE_CLI,
			'nodes',
			'credentials',
			'--config',
			'.dependency-cruiser.cjs',
			'--output-type',
			'json',
		],
		{
			cwd,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		},
	);
	if (!run.stdout) throw new Error(`dependency-cruiser printed nothing: ${run.stderr}`);
	return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** Runs madge's cycle check (`npm run deps` runs it after dependency-cruiser) in `cwd`. */
function madgeCycles(cwd: string): { status: number | null; stdout: string } {
	const cli = path.join(repoDir, 'node_modules', 'madge', 'bin', 'cli.js');
	const run = spawnSync(
		process.execPath,
		[cli, '--circular', '--no-spinner', '--no-color', '--extensions', 'ts', 'nodes', 'credentials'],
		{
			cwd,
			encoding: 'utf8',
		},
	);
	return { status: run.status, stdout: run.stdout };
}

/** What a failure would print: the rule and the files, one line each. */
const named = (violations: Violation[]) =>
	violations.map(
		(v) =>
			`${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((step) => step.name).join(' → ')})` : ''}`,
	);

/** A copy of the sources and the rules, to break on purpose. */
function copyOfTheCode(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'omni-deps-'));
	for (const entry of ['nodes', 'credentials', 'tsconfig.json', '.dependency-cruiser.cjs']) {
		cpSync(path.join(repoDir, entry), path.join(dir, entry), { recursive: true });
	}
	symlinkSync(path.join(repoDir, 'node_modules'), path.join(dir, 'node_modules'));
	return dir;
}

describe('dependency rules', () => {
	test('the code keeps them: no cycle, no forbidden import', () => {
		expect(named(cruise(repoDir))).toEqual([]);
		expect(madgeCycles(repoDir).status).toBe(0);
	}, 60_000);

	describe('on a broken copy', () => {
		let dir: string;
		beforeAll(() => {
			dir = copyOfTheCode();
			// A cycle: constants.ts → helpers/credential.ts → constants.ts.
			appendFileSync(path.join(dir, NODE, 'constants.ts'), "\nimport './helpers/credential';\n");
			// A forbidden import: a pure helper reaching past the delivery engine's entry into its pacer.
			appendFileSync(
				path.join(dir, NODE, 'helpers', 'template', 'types.ts'),
				"\nimport '../../delivery/pacer';\n",
			);
			// An operation reaching into another resource's operation.
			appendFileSync(
				path.join(dir, NODE, 'actions', 'message', 'sendText.operation.ts'),
				"\nimport '../whatsappTemplate/get.operation';\n",
			);
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		test('fail on the cycle and on the forbidden imports, naming both files of each', () => {
			const found = named(cruise(dir));
			const types = `${NODE}/helpers/template/types.ts`;
			const sendText = `${NODE}/actions/message/sendText.operation.ts`;
			const get = `${NODE}/actions/whatsappTemplate/get.operation.ts`;
			expect(found).toEqual(
				expect.arrayContaining([
					expect.stringMatching(
						new RegExp(`^no-circular: ${NODE}/constants\\.ts → ${NODE}/helpers/credential\\.ts`),
					),
					`helpers-import-nothing-above: ${types} → ${NODE}/delivery/pacer.ts`,
					`delivery-through-its-entry: ${types} → ${NODE}/delivery/pacer.ts`,
					`no-operation-across-resources: ${sendText} → ${get}`,
					`operation-only-from-its-resource: ${sendText} → ${get}`,
				]),
			);
		}, 60_000);

		test('madge finds the cycle too', () => {
			const { status, stdout } = madgeCycles(dir);
			expect(status).not.toBe(0);
			expect(stdout).toContain(`${NODE}/constants.ts > ${NODE}/helpers/credential.ts`);
		}, 60_000);
	});
});

describe('the layout picture in docs/development.md', () => {
	test('is the one `npm run docs:deps` draws from the code today', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { layerPicture, withPicture, DOC } = require('../../scripts/docs-deps.js');
		const doc = readFileSync(DOC, 'utf8');
		expect(withPicture(doc, layerPicture())).toBe(doc);
	}, 60_000);
});
