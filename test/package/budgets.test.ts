/*
 * Size budgets of the code n8n runs (nodes/ and credentials/): a file over 400 lines or a function
 * over 60 is a sign that it holds more than one thing; more than 70 files, or an operation that
 * reaches more files than it needs by its relative imports (scripts/reach.js), is a sign that one
 * concept is spread over many. Measured with the TypeScript compiler; generated files are left out
 * of the line budgets. The page's language files are data (one language's texts each): they keep
 * the line budgets but are counted apart from the code's files and reach, under their own limit.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const repoDir = path.resolve(__dirname, '..', '..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;
const MAX_FILES = 70;
/** Page languages: one data file each (sendAndWait/languages/). */
const MAX_DATA_FILES = 40;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const reachScript = require('../../scripts/reach.js') as {
	reach(entry: string): { files: string[]; lines: number };
	packageFiles(): string[];
	dataFiles(): string[];
	webhookEntry(): string;
	NODE_DIR: string;
};

/** The most files each entry may reach by its relative imports (Send and Wait's own files included). */
const REACH_LIMITS: Record<string, number> = {
	'actions/whatsappTemplate/get.operation.ts': 12,
	'actions/message/sendText.operation.ts': 35,
	'actions/whatsappTemplate/sendAndWait.operation.ts': 45,
};
/**
 * The code that answers a link: Send and Wait's and the trigger's, one webhook module; with the
 * page's texts module (its language files are data, not reached code) and the table of page
 * languages it shares with the answer links.
 */
const WEBHOOK_LIMIT = 10;
const MAX_LINE_CHARACTERS = 120;

function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(repoDir, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

// Generated data (the phone table, scripts/phones-generate.js) is not hand-written code.
const files = [...sourceFiles('nodes'), ...sourceFiles('credentials')]
	.filter((file) => !file.endsWith('.generated.ts'))
	.map((file) => ({
		file,
		source: ts.createSourceFile(
			file,
			readFileSync(path.join(repoDir, file), 'utf8'),
			ts.ScriptTarget.ES2022,
			true,
		),
	}));

function functionName(node: ts.Node): string {
	const named = node as ts.Node & { name?: ts.Node };
	if (named.name) return named.name.getText();
	const parent = node.parent;
	if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
		return parent.name.getText();
	return '(anonymous)';
}

/** Every function, method and arrow function of `source` longer than the budget, as "file:line name (n lines)". */
function longFunctions({ file, source }: (typeof files)[number]): string[] {
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const lines = end - start + 1;
			if (lines > MAX_FUNCTION_LINES)
				found.push(`${file}:${start + 1} ${functionName(node)} (${lines} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('size budgets of nodes/ and credentials/', () => {
	test('measures the files there are', () => {
		expect(files.length).toBeGreaterThan(20);
	});

	test(`no file over ${MAX_FILE_LINES} lines`, () => {
		const long = files
			.map(({ file, source }) => ({ file, lines: source.getLineStarts().length }))
			.filter(({ lines }) => lines > MAX_FILE_LINES)
			.map(({ file, lines }) => `${file} (${lines} lines)`);
		expect(long).toEqual([]);
	});

	test(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
		expect(files.flatMap(longFunctions)).toEqual([]);
	});
});

describe('files of nodes/ and credentials/, and what each operation reaches', () => {
	const all = reachScript.packageFiles();

	test(`at most ${MAX_FILES} .ts files`, () => {
		expect(all.length).toBeGreaterThan(20);
		expect(all.length).toBeLessThanOrEqual(MAX_FILES);
	});

	test(`at most ${MAX_DATA_FILES} data files, each a page language`, () => {
		const data = reachScript.dataFiles();
		expect(data.length).toBeGreaterThanOrEqual(14);
		expect(data.length).toBeLessThanOrEqual(MAX_DATA_FILES);
		expect(data.every((file) => file.includes('/sendAndWait/languages/'))).toBe(true);
	});

	test('no file name twice, but index.ts and <operation>.operation.ts', () => {
		const byName = new Map<string, string[]>();
		for (const file of all) {
			const name = path.posix.basename(file);
			if (name === 'index.ts' || name.endsWith('.operation.ts')) continue;
			byName.set(name, [...(byName.get(name) ?? []), file]);
		}
		expect([...byName.values()].filter((same) => same.length > 1)).toEqual([]);
	});

	test.each(Object.entries(REACH_LIMITS))('%s reaches at most %i files', (entry, limit) => {
		const { files: reached } = reachScript.reach(`${reachScript.NODE_DIR}/${entry}`);
		expect(reached.length).toBeGreaterThan(1);
		expect({ entry, files: reached.length }).toEqual({
			entry,
			files: Math.min(reached.length, limit),
		});
	});

	test.each([['the webhook', reachScript.webhookEntry(), WEBHOOK_LIMIT]])(
		'%s (%s) reaches at most %i files',
		(_name, entry, limit) => {
			const { files: reached } = reachScript.reach(entry);
			expect(reached.length).toBeGreaterThan(1);
			expect({ entry, files: reached.length }).toEqual({
				entry,
				files: Math.min(reached.length, limit),
			});
		},
	);
});

/**
 * Every line of code the repository holds (TypeScript, JavaScript, workflow YAML), tabs counted at
 * Prettier's width of 2. Generated files are left out, and so are JSON (n8n's exported example
 * workflows hold their notes in one string) and Markdown prose.
 */
describe(`no line of code over ${MAX_LINE_CHARACTERS} characters`, () => {
	const tracked = execFileSync('git', ['ls-files', '*.ts', '*.js', '*.cjs', '*.yml'], {
		cwd: repoDir,
		encoding: 'utf8',
	})
		.split('\n')
		.filter((file) => file !== '' && !file.includes('.generated.'));

	test('measures the files there are', () => {
		expect(tracked.length).toBeGreaterThan(100);
	});

	test('none is longer', () => {
		const long = tracked.flatMap((file) =>
			readFileSync(path.join(repoDir, file), 'utf8')
				.split('\n')
				.map((line, index) => ({ index, length: [...line.replace(/\t/g, '  ')].length }))
				.filter(({ length }) => length > MAX_LINE_CHARACTERS)
				.map(({ index, length }) => `${file}:${index + 1} (${length} characters)`),
		);
		expect(long).toEqual([]);
	});
});
