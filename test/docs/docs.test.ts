import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	checkDocs,
	DOCS_WORD_LIMIT,
	formatProblem,
	PAGE_WORD_LIMITS,
	README_WORD_LIMIT,
} from './docsCheck';
import { markdownLinks, wordCount } from './markdown';

const repoDir = path.resolve(__dirname, '..', '..');

/** A throw-away repository holding the given files. */
function repoWith(files: Record<string, string>): string {
	const root = mkdtempSync(path.join(tmpdir(), 'docs-check-'));
	for (const [file, content] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), content);
	}
	return root;
}

const PACKAGE_JSON = JSON.stringify({ scripts: { test: 'jest', dev: 'node dev.js' } });
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function problemsOf(files: Record<string, string>): string[] {
	const root = repoWith({ 'package.json': PACKAGE_JSON, ...files });
	roots.push(root);
	return checkDocs(root).map(formatProblem);
}

describe('the docs check', () => {
	it('passes on this repository: README.md, CHANGELOG.md and docs/*.md', () => {
		expect(checkDocs(repoDir).map(formatProblem)).toEqual([]);
	});

	it.each<[string, Record<string, string>, string[]]>([
		[
			'names the file, the line and what is missing for a broken link and a broken anchor',
			{
				'README.md': [
					'# Title',
					'',
					'See [the guide](docs/guide.md#setup) and [gone](docs/gone.md).',
					'## Setup',
				].join('\n'),
				'CHANGELOG.md':
					'# Changelog\n\nBack to [the README](README.md#no-such-heading) or [setup](README.md#setup).\n',
				'docs/guide.md':
					'# Guide\n\n## Install\n\n[Top](#guide), [nowhere](#nowhere), [up](../README.md).\n',
			},
			[
				'README.md:3: link to docs/guide.md#setup: docs/guide.md has no heading with the anchor #setup',
				'README.md:3: link to docs/gone.md: there is no file docs/gone.md',
				'CHANGELOG.md:3: link to README.md#no-such-heading: README.md has no heading with the anchor #no-such-heading',
				'docs/guide.md:5: link to #nowhere: docs/guide.md has no heading with the anchor #nowhere',
			],
		],
		[
			'finds unnamed example workflows, unknown npm scripts and a README over its word budget',
			{
				'README.md':
					`# Title\n\nImport examples/named.json, then \`npm run dev\`, \`npm test\` and \`npm run ` +
					`bench -- --runs 2\`.\n\n${'word '.repeat(README_WORD_LIMIT)}\n`,
				'examples/named.json': '{}',
				'examples/forgotten.json': '{}',
			},
			[
				'README.md:3: npm run bench: package.json has no script "bench"',
				'README.md: the example workflow examples/forgotten.json is not named',
				`README.md: ${README_WORD_LIMIT + 17} words, more than ${README_WORD_LIMIT}`,
			],
		],
		[
			'finds commit hashes, issue numbers, load averages, branch names and machine paths',
			{
				'README.md': [
					'# Title',
					'',
					'Measured at b8549b1 of branch `speed2` (issue 25), load average 6.8.',
					'Run `git clone /work/main /tmp/fresh-check` first.',
					'Send to +4915123456789 on 2026-11-24: accepted, deadbeef, [up](#title), 0.2.0, ~/.cache/x.',
				].join('\n'),
				'CHANGELOG.md': '# Changelog\n\n- Fixed (#31), PR 12, at load 7; see this branch.\n',
			},
			[
				'README.md:3: a commit hash: "b8549b1"',
				'README.md:3: an issue number: "issue 25"',
				'README.md:3: a load average: "load average"',
				'README.md:3: a branch name: "branch `speed2`"',
				'README.md:4: a machine path: "git clone /work/main"',
				'README.md:4: a machine path: "/tmp/fresh-check"',
				'CHANGELOG.md:3: an issue number: "#31"',
				'CHANGELOG.md:3: an issue number: "PR 12"',
				'CHANGELOG.md:3: a load average: "load 7"',
				'CHANGELOG.md:3: a branch name: "this branch"',
			],
		],
	])('%s', (_name, files, expected) => {
		expect(problemsOf(files)).toEqual(expected);
	});

	it('keeps docs/ and its longest pages within their word budgets', () => {
		const performance = PAGE_WORD_LIMITS['docs/performance.md'] + 1;
		const development = PAGE_WORD_LIMITS['docs/development.md'] + 1;
		const rest = DOCS_WORD_LIMIT - performance - development + 1;
		const problems = problemsOf({
			'README.md': '# Title\n',
			'docs/performance.md': 'word '.repeat(performance),
			'docs/development.md': 'word '.repeat(development),
			'docs/other.md': 'word '.repeat(rest),
		});
		expect(problems).toEqual([
			`docs/development.md: ${development} words, more than ${PAGE_WORD_LIMITS['docs/development.md']}`,
			`docs/performance.md: ${performance} words, more than ${PAGE_WORD_LIMITS['docs/performance.md']}`,
			`docs/: ${DOCS_WORD_LIMIT + 1} words, more than ${DOCS_WORD_LIMIT}`,
		]);
		expect(
			problemsOf({ 'README.md': '# Title\n', 'docs/other.md': 'word '.repeat(DOCS_WORD_LIMIT) }),
		).toEqual([]);
	});

	it('reads links the way GitHub renders them: not in code, with titles and reference definitions', () => {
		const markdown = [
			'[a](a.md) ![b](docs/b.png "B") `[c](c.md)`',
			'```',
			'[d](d.md)',
			'```',
			'[e]: e.md#part',
		].join('\n');
		expect(markdownLinks(markdown)).toEqual([
			{ value: 'a.md', line: 1 },
			{ value: 'docs/b.png', line: 1 },
			{ value: 'e.md#part', line: 5 },
		]);
	});

	it('counts words as wc -w does', () => {
		expect(wordCount('  one two\tthree\n\nfour — `five`  ')).toBe(6);
	});
});
