/**
 * The README's test command, `npm ci && npm run test:all`, runs whole in `.ci/run` and in parts in
 * the GitHub workflow, one job per suite so that lint and `npm test` answer a pull request first.
 * A suite added to `test:all` must reach both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const repoDir = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(repoDir, file), 'utf8');
const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

describe("CI runs all of the README's test command", () => {
	test('.ci/run runs it word for word, as the README gives it', () => {
		expect(read('README.md')).toMatch(/^npm ci && npm run test:all$/m);
		expect(read('.ci/run')).toMatch(/^npm ci && npm run test:all$/m);
	});

	test(".ci/run reports each part's time: its npm, .ci/bin/npm, is first on PATH", () => {
		const run = read('.ci/run');
		expect(run).toMatch(/^export CI_REAL_NPM CI_TIMES PATH="\$PWD\/\.ci\/bin:\$PATH"$/m);
		expect(run).toMatch(/^trap report_times EXIT$/m);
		expect(read('.ci/bin/npm')).toMatch(/^"\$CI_REAL_NPM" "\$@"/m);
	});

	test('the GitHub workflow runs each part of test:all as a step, after npm ci', () => {
		const parts = scripts['test:all'].split('&&').map((part) => part.trim());
		const steps = [...read('.github/workflows/ci.yml').matchAll(/^ +- run: (.+)$/gm)].map(
			(m) => m[1],
		);
		expect(parts.length).toBeGreaterThanOrEqual(5);
		expect(parts.filter((part) => !steps.includes(part))).toEqual([]);
		expect(steps.filter((step) => step === 'npm ci')).toHaveLength(parts.length);
	});
});
