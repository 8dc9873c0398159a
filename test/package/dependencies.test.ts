/*
 * The dependency rules of .dependency-cruiser.cjs and madge's cycle check (`npm run deps`, run
 * once in `npm test`: here): they hold for the code as it is, and they catch a cycle and a
 * forbidden import, naming both files.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoDir = path.resolve(__dirname, '..', '..');
const NODE = 'nodes/OmnichannelMessaging';
// The command lines of both checks (`npm run deps`).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { violations, named, madgeCycles } = require('../../scripts/deps.js') as {
	violations(cwd: string): unknown[];
	named(violations: unknown[]): string[];
	madgeCycles(cwd: string): { status: number | null; stdout: string };
};

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
		expect(named(violations(repoDir))).toEqual([]);
		expect(madgeCycles(repoDir).status).toBe(0);
	}, 60_000);

	describe('on a broken copy', () => {
		let dir: string;
		beforeAll(() => {
			dir = copyOfTheCode();
			// A cycle: constants.ts → helpers/values.ts → constants.ts.
			appendFileSync(path.join(dir, NODE, 'constants.ts'), "\nimport './helpers/values';\n");
			// A forbidden import: a pure helper reaching past the delivery engine's entry into its pacer.
			appendFileSync(
				path.join(dir, NODE, 'helpers', 'template.ts'),
				"\nimport '../delivery/pacer';\n",
			);
			// An operation reaching into another resource's operation.
			appendFileSync(
				path.join(dir, NODE, 'actions', 'message', 'sendText.operation.ts'),
				"\nimport '../whatsappTemplate/get.operation';\n",
			);
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		test('fail on the cycle and on the forbidden imports, naming both files of each', () => {
			const found = named(violations(dir));
			const types = `${NODE}/helpers/template.ts`;
			const sendText = `${NODE}/actions/message/sendText.operation.ts`;
			const get = `${NODE}/actions/whatsappTemplate/get.operation.ts`;
			expect(found).toEqual(
				expect.arrayContaining([
					expect.stringMatching(
						new RegExp(`^no-circular: ${NODE}/constants\\.ts → ${NODE}/helpers/values\\.ts`),
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
			expect(stdout).toContain(`${NODE}/constants.ts > ${NODE}/helpers/values.ts`);
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
