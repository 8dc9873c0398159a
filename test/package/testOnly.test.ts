/**
 * Nothing test-only in the published package (issue 30): the tarball `npm pack` builds holds no
 * testing seam, no setter of timings and no way to make the process forget its state, in any
 * file's name or content. Tests make their own instances, or load the package afresh
 * (test/helpers/process.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoDir = path.resolve(__dirname, '..', '..');

const TEST_ONLY = [
	'testing.js',
	'ForTests',
	'forgetProcessState',
	'forgetPacers',
	'forgetTemplateReads',
	'forgetClaims',
	'forgetHistoryRows',
	'forgetSendOnceState',
	'sendOnceStoreFigures',
	'pacedServices',
	'resetTuning',
];

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
	);
}

describe('the packed tarball (npm pack)', () => {
	let unpacked: string;
	let files: string[];

	beforeAll(() => {
		unpacked = mkdtempSync(path.join(tmpdir(), 'omni-pack-'));
		const out = execFileSync('npm', ['pack', '--json', '--pack-destination', unpacked], {
			cwd: repoDir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
		execFileSync('tar', ['-xzf', path.join(unpacked, filename), '-C', unpacked]);
		files = filesUnder(path.join(unpacked, 'package'));
	}, 120_000);

	afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

	it('holds the built node', () => {
		expect(files.map((file) => path.relative(unpacked, file))).toContain(
			path.join('package', 'dist', 'nodes', 'OmnichannelMessaging', 'OmnichannelMessaging.node.js'),
		);
	});

	it.each(TEST_ONLY)('holds no %s, in a file name or in any file', (name) => {
		const holding = files
			.filter((file) => path.basename(file) === name || readFileSync(file, 'latin1').includes(name))
			.map((file) => path.relative(path.join(unpacked, 'package'), file));
		expect(holding).toEqual([]);
	});
});
