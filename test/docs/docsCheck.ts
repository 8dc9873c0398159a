/*
 * The docs check (test/docs/docs.test.ts runs it in `npm test`): every relative link and #anchor
 * of README.md, CHANGELOG.md and docs/*.md leads to a file and a heading that exist; every
 * workflow in examples/ is named in the README; every `npm run X` the docs give is a script of
 * package.json; the README, docs/ and its longest pages stay within their word budgets; and no
 * page holds what belongs to the project's history or one machine (commit hashes, issue numbers,
 * branch names, load averages, machine paths).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { markdownAnchors, markdownLinks, wordCount } from './markdown';

export const README_WORD_LIMIT = 2000;
/** All of docs/*.md together. */
export const DOCS_WORD_LIMIT = 12000;
/** Pages of docs/ with a budget of their own. */
export const PAGE_WORD_LIMITS: Readonly<Record<string, number>> = {
	'docs/performance.md': 1200,
	'docs/development.md': 1800,
};

/**
 * What a user's page does not hold, each with the name a problem gives it. A commit hash is 7 to
 * 40 hex digits with at least one letter and one digit (so neither a phone number nor a word).
 */
export const FORBIDDEN_CONTENT: ReadonlyArray<{ name: string; pattern: RegExp }> = [
	{
		name: 'a commit hash',
		pattern: /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/g,
	},
	{
		name: 'an issue number',
		pattern: /\b(?:issues?|PR|pull requests?)[\s-]*#?\d+|(?<![\w&])#\d+\b/gi,
	},
	{ name: 'a load average', pattern: /\bload\s+averages?\b|\bloadavg\b|\bload\s+\d/gi },
	{
		name: 'a branch name',
		pattern: new RegExp(
			[
				/\bbranch(?:es)?[\s-]+(?:`[^`]+`|main\b|master\b|[a-z]+\d[\w-]*)/.source,
				/\b(?:this|on|feature|topic)\s+branch\b/.source,
				/\borigin\/[\w.-]+/.source,
			].join('|'),
			'gi',
		),
	},
	{
		name: 'a machine path',
		pattern: /(?<![\w.~-])\/(?:tmp|work|home|Users|root|mnt)\/[^\s`)'"]*|\bgit clone\s+\/[^\s`]*/g,
	},
];

export interface DocsProblem {
	/** Relative to the repository, with "/" separators. */
	file: string;
	/** 1-based; 0 when the problem is about the whole file. */
	line: number;
	problem: string;
}

export function formatProblem({ file, line, problem }: DocsProblem): string {
	return line > 0 ? `${file}:${line}: ${problem}` : `${file}: ${problem}`;
}

const toPosix = (file: string) => file.split(path.sep).join('/');

/** README.md, CHANGELOG.md and docs/*.md, where they exist, relative to the repository. */
export function checkedFiles(root: string): string[] {
	const docsDir = path.join(root, 'docs');
	const pages = existsSync(docsDir)
		? readdirSync(docsDir)
				.filter((name) => name.endsWith('.md'))
				.sort()
				.map((name) => `docs/${name}`)
		: [];
	return ['README.md', 'CHANGELOG.md', ...pages].filter((file) =>
		existsSync(path.join(root, file)),
	);
}

/** A link to another site, or to something that is not a file of this repository. */
function isExternal(target: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** What is wrong with one relative link of `file`, if anything. */
function linkProblem(root: string, file: string, target: string): string | undefined {
	const hashAt = target.indexOf('#');
	const filePart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
	const anchor = hashAt === -1 ? '' : decodeURIComponent(target.slice(hashAt + 1));
	const resolved = filePart
		? path.resolve(path.dirname(path.join(root, file)), filePart)
		: path.join(root, file);
	const relative = toPosix(path.relative(root, resolved));
	if (!existsSync(resolved)) {
		return `link to ${target}: there is no file ${relative}`;
	}
	if (!anchor || !resolved.endsWith('.md') || !statSync(resolved).isFile()) return undefined;
	if (markdownAnchors(readFileSync(resolved, 'utf8')).has(anchor)) return undefined;
	return `link to ${target}: ${relative} has no heading with the anchor #${anchor}`;
}

export function checkLinks(root: string, file: string): DocsProblem[] {
	const markdown = readFileSync(path.join(root, file), 'utf8');
	return markdownLinks(markdown).flatMap(({ value: target, line }) => {
		if (!target || isExternal(target)) return [];
		const problem = linkProblem(root, file, target);
		return problem ? [{ file, line, problem }] : [];
	});
}

/** Every `npm run X` (and `npm test`) of a page is a script of package.json. */
export function checkCommands(root: string, file: string): DocsProblem[] {
	const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {};
	const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
	return lines.flatMap((text, index) =>
		[...text.matchAll(/\bnpm (?:run(?:-script)? ([\w:.-]+)|(test|start)\b)/g)]
			.map((match) => match[1] ?? match[2])
			.filter((script) => !(script in scripts))
			.map((script) => ({
				file,
				line: index + 1,
				problem: `npm run ${script}: package.json has no script "${script}"`,
			})),
	);
}

/** Every workflow in examples/ is named (by its file name) in the README, which stays within its budget. */
export function checkReadme(root: string): DocsProblem[] {
	const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
	const examplesDir = path.join(root, 'examples');
	const examples = existsSync(examplesDir)
		? readdirSync(examplesDir).filter((name) => name.endsWith('.json'))
		: [];
	const problems: DocsProblem[] = examples
		.filter((name) => !readme.includes(name))
		.map((name) => ({
			file: 'README.md',
			line: 0,
			problem: `the example workflow examples/${name} is not named`,
		}));
	const words = wordCount(readme);
	if (words > README_WORD_LIMIT) {
		problems.push({
			file: 'README.md',
			line: 0,
			problem: `${words} words, more than ${README_WORD_LIMIT}`,
		});
	}
	return problems;
}

/** Every line of a page that holds a commit hash, an issue number, a branch name, a load average or a machine path. */
export function checkContent(root: string, file: string): DocsProblem[] {
	const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
	return lines.flatMap((text, index) =>
		FORBIDDEN_CONTENT.flatMap(({ name, pattern }) =>
			[...text.matchAll(pattern)].map((match) => ({
				file,
				line: index + 1,
				problem: `${name}: "${match[0]}"`,
			})),
		),
	);
}

/** docs/ as a whole and its pages with a budget of their own stay within their word budgets. */
export function checkWordBudgets(root: string, files: string[]): DocsProblem[] {
	const pages = files.filter((file) => file.startsWith('docs/'));
	const words = new Map(
		pages.map((file) => [file, wordCount(readFileSync(path.join(root, file), 'utf8'))]),
	);
	const budgets: Array<[string, number, number]> = pages
		.filter((file) => file in PAGE_WORD_LIMITS)
		.map((file) => [file, words.get(file) ?? 0, PAGE_WORD_LIMITS[file]]);
	const total = [...words.values()].reduce((sum, count) => sum + count, 0);
	budgets.push(['docs/', total, DOCS_WORD_LIMIT]);
	return budgets
		.filter(([, count, limit]) => count > limit)
		.map(([file, count, limit]) => ({
			file,
			line: 0,
			problem: `${count} words, more than ${limit}`,
		}));
}

/** Every problem of the repository's docs, in file order. */
export function checkDocs(root: string): DocsProblem[] {
	const files = checkedFiles(root);
	return [
		...files.flatMap((file) => [
			...checkLinks(root, file),
			...checkCommands(root, file),
			...checkContent(root, file),
		]),
		...checkWordBudgets(root, files),
		...(files.includes('README.md')
			? checkReadme(root)
			: [{ file: 'README.md', line: 0, problem: 'missing' }]),
	];
}
