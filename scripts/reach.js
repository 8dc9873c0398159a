#!/usr/bin/env node
'use strict';
/*
 * `node scripts/reach.js [FILE]`: the files an entry file reaches by relative imports (TypeScript
 * `import` and `export … from`, type imports included) and their lines. With a file, it lists
 * them; with none, it prints the count of `.ts` files in nodes/ and credentials/ and the reach
 * of every operation file and of the webhook entry, which answers the links of the node and of
 * its trigger.
 * test/package/budgets.test.ts holds the limits, measured with these functions.
 *
 * The page's language files (sendAndWait/languages/*.ts) are data, not code to read: each holds
 * one language's texts and nothing else, and adding a language adds one. They are counted apart
 * (`dataFiles`), in neither the package's file count nor any reach; their budget is their own.
 */
const fs = require('node:fs');
const path = require('node:path');

const repoDir = path.resolve(__dirname, '..');
const NODE_DIR = 'nodes/OmnichannelMessaging';
const DATA_DIRS = [`${NODE_DIR}/sendAndWait/languages/`];

const isData = (file) => DATA_DIRS.some((dir) => file.startsWith(dir));

// `import … from './x'`, `export … from './x'`, `import './x'` and `import('./x')`, across lines.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

/** The `.ts` files under `dir` (relative to the repository), in path order. */
function sourceFiles(dir) {
	const full = path.join(repoDir, dir);
	if (!fs.existsSync(full)) return [];
	return fs
		.readdirSync(full, { withFileTypes: true })
		.flatMap((entry) => {
			const relative = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) return sourceFiles(relative);
			return entry.name.endsWith('.ts') ? [relative] : [];
		})
		.sort();
}

/** The file a relative import of `from` names: `x.ts` or `x/index.ts`; null when neither exists. */
function resolveImport(from, specifier) {
	const base = path.posix.join(path.posix.dirname(from), specifier);
	const candidates = [`${base}.ts`, path.posix.join(base, 'index.ts'), base];
	return (
		candidates.find((file) => file.endsWith('.ts') && fs.existsSync(path.join(repoDir, file))) ??
		null
	);
}

/** The relative imports of one file, resolved to repository paths. */
function importsOf(file) {
	const text = fs.readFileSync(path.join(repoDir, file), 'utf8');
	const found = new Set();
	for (const match of text.matchAll(IMPORT)) {
		const target = resolveImport(file, match[1]);
		if (target) found.add(target);
	}
	return [...found];
}

function lineCount(file) {
	const text = fs.readFileSync(path.join(repoDir, file), 'utf8');
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every file `entry` reaches (itself included), in path order, with their total lines. */
function reach(entry) {
	const seen = new Set([entry]);
	const queue = [entry];
	while (queue.length > 0) {
		for (const next of importsOf(queue.shift())) {
			if (!seen.has(next)) {
				seen.add(next);
				queue.push(next);
			}
		}
	}
	const files = [...seen].filter((file) => !isData(file)).sort();
	return { files, lines: files.reduce((sum, file) => sum + lineCount(file), 0) };
}

/** The `.ts` files of nodes/ and credentials/ that are code: the data files left out. */
function packageFiles() {
	return [...sourceFiles('nodes'), ...sourceFiles('credentials')].filter((file) => !isData(file));
}

/** The data files: one per page language. */
function dataFiles() {
	return sourceFiles('nodes').filter(isData);
}

/** The webhook entry: the Send and Wait feature folder's, else the helpers' one. */
function webhookEntry() {
	const candidates = [
		`${NODE_DIR}/sendAndWait/webhook.ts`,
		`${NODE_DIR}/helpers/sendAndWait/webhook.ts`,
	];
	return candidates.find((file) => fs.existsSync(path.join(repoDir, file))) ?? candidates[0];
}

/** Every operation file and the webhook entry (Send and Wait's and the trigger's): the limited ones. */
function entries() {
	const operations = sourceFiles(`${NODE_DIR}/actions`).filter((file) =>
		file.endsWith('.operation.ts'),
	);
	return [...operations, webhookEntry()];
}

function main(argv) {
	const entry = argv[0];
	if (entry) {
		const relative = path.relative(repoDir, path.resolve(entry)).split(path.sep).join('/');
		const { files, lines } = reach(relative);
		for (const file of files) console.log(`${String(lineCount(file)).padStart(5)}  ${file}`);
		console.log(`${files.length} files, ${lines} lines reached from ${relative}`);
		return;
	}
	console.log(
		`${packageFiles().length} .ts files in nodes/ and credentials/, ${dataFiles().length} data files`,
	);
	for (const file of entries()) {
		const { files, lines } = reach(file);
		const name = file.slice(NODE_DIR.length + 1);
		console.log(
			`${String(files.length).padStart(4)} files ${String(lines).padStart(6)} lines  ${name}`,
		);
	}
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { reach, packageFiles, dataFiles, entries, webhookEntry, NODE_DIR };
