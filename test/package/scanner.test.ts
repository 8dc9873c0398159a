/*
 * n8n's verified-node review runs `@n8n/scan-community-package` on the published version. This test
 * does the same locally, before publishing: test/package/scan.mjs packs the package, unpacks the
 * tarball and lints it with the scanner's ESLint setup (@n8n/eslint-plugin-community-nodes
 * `recommended`, with inline config switched off). The scanner fails a package on any error.
 *
 * The lint runs in a child process because the ESLint plugin is an ES module, which Jest's
 * CommonJS module system cannot load. Needs a fresh `npm run build` (`npm test` does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

interface LintMessage {
	file: string;
	line: number;
	rule: string | null;
	severity: 'error' | 'warning';
	message: string;
}

interface LegReport {
	leg: 'tarball' | 'source';
	files: string[];
	errorCount: number;
	warningCount: number;
	messages: LintMessage[];
	stylish: string;
}

interface ScanReport {
	published: string[];
	legs: LegReport[];
	canaryRules: string[];
}

const repoDir = path.resolve(__dirname, '..', '..');

let report: ScanReport;

beforeAll(() => {
	if (!existsSync(path.join(repoDir, 'dist', 'nodes'))) {
		throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).');
	}
	// Jest sets NODE_ENV=test, and eslint-plugin-n8n-nodes-base switches to its own test mode under it
	// (every file counts as a trigger node named Test.node.ts), so the child must not inherit it.
	const env = { ...process.env };
	delete env.NODE_ENV;
	const out = execFileSync(process.execPath, [path.join(__dirname, 'scan.mjs')], {
		cwd: repoDir,
		env,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	report = JSON.parse(out) as ScanReport;
}, 120_000);

function leg(name: LegReport['leg']): LegReport {
	const found = report.legs.find((l) => l.leg === name);
	if (!found) throw new Error(`scan report has no ${name} leg`);
	return found;
}

describe('n8n community package scan (local)', () => {
	it('lints a scan config that actually rejects forbidden code, even behind eslint-disable comments', () => {
		expect(report.canaryRules).toEqual(
			expect.arrayContaining([
				'@n8n/community-nodes/no-restricted-globals',
				'no-console',
				'@n8n/community-nodes/valid-author',
				'@n8n/community-nodes/no-runtime-dependencies',
			]),
		);
	});

	it('lints every compiled .js file of the tarball and its package.json', () => {
		const { files } = leg('tarball');
		const expected = report.published.filter((f) => f.endsWith('.js') || f === 'package.json');
		expect(files).toEqual(expected.sort());
		expect(files).toContain('package.json');
		expect(files).toContain('dist/nodes/OmnichannelMessaging/OmnichannelMessaging.node.js');
		expect(files).toContain('dist/credentials/OmnichannelMessagingApi.credentials.js');
	});

	it('finds no errors in the tarball (dist/**/*.js and package.json)', () => {
		const tarball = leg('tarball');
		// On failure the stylish output names every file, line and rule.
		expect(tarball.stylish).toBe('');
		expect(tarball.errorCount).toBe(0);
	});

	it('finds no errors in the sources the provenance commit would point at', () => {
		const source = leg('source');
		expect(source.files).toEqual(
			expect.arrayContaining([
				'package.json',
				'nodes/OmnichannelMessaging/OmnichannelMessaging.node.ts',
				'nodes/OmnichannelMessaging/OmnichannelMessaging.node.json',
				'credentials/OmnichannelMessagingApi.credentials.ts',
			]),
		);
		expect(source.stylish).toBe('');
		expect(source.errorCount).toBe(0);
	});

	it('has no warnings either (the scanner passes them, the review does not)', () => {
		expect(report.legs.flatMap((l) => l.messages)).toEqual([]);
	});
});
