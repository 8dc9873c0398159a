/*
 * What n8n's verified-node review looks at besides the lint: what the tarball ships, the package.json
 * contract, the code n8n Cloud runs (no Node.js globals, no file system, no processes, no timers of
 * its own), the icons, the codex metadata and its documentation links, and the wording of the node's
 * parameters. Runs against the built package: `npm run build` first (`npm test` does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { githubSlug, markdownAnchors } from '../docs/markdown';

const repoDir = path.resolve(__dirname, '..', '..');
const distDir = path.join(repoDir, 'dist');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(repoDir, file), 'utf8'));

const pkg = readJson('package.json');
const CODEX = 'nodes/OmnichannelMessaging/OmnichannelMessaging.node.json';
const README_HEADINGS = [
	'Installation',
	'Credentials',
	'Operations',
	'Example workflows',
	'Compatibility',
	'Troubleshooting',
	'Resources',
	'Field-notes assumptions',
];

/** Files under `dir`, relative to the repository, with "/" separators. */
function walk(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return walk(full);
		return entry.isFile() ? [path.relative(repoDir, full).split(path.sep).join('/')] : [];
	});
}

/** Every class a built file exports, instantiated. */
function loadExports<T>(distFile: string): T[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require(path.join(repoDir, distFile)) as Record<string, unknown>;
	return Object.values(mod)
		.filter((value): value is new () => T => typeof value === 'function')
		.map((Class) => new Class());
}

/** A `file:` icon path, resolved against the directory of the built file that declares it. */
function iconFile(declaringFile: string, icon: unknown): string {
	expect(typeof icon).toBe('string');
	expect(icon).toMatch(/^file:/);
	return path.resolve(path.dirname(path.join(repoDir, declaringFile)), (icon as string).slice(5));
}

// ---------------------------------------------------------------------------------------------
// Wording checks, after n8n's UI guidelines and eslint-plugin-n8n-nodes-base

// Names of places keep their particles: Tristan da Cunha, Côte d’Ivoire (the Default Country list).
const MINOR_WORDS = new Set(
	'a an and as at but by da en for from if in into nor of on or per so the to up via vs with'.split(
		' ',
	),
);

/** Title Case: every word starts with a capital, except minor words after the first. */
function titleCaseProblem(text: string): string | undefined {
	const words = text.split(/\s+/).filter(Boolean);
	for (const [index, raw] of words.entries()) {
		const word = raw.replace(/^[("'“‘[{]+/, '').replace(/^[dl]['’](?=\p{Lu})/u, '');
		if (!/^\p{L}/u.test(word)) continue; // numbers, placeholders, symbols
		if (index > 0 && MINOR_WORDS.has(word.toLowerCase())) {
			if (word !== word.toLowerCase()) return `"${raw}" is a minor word and stays lowercase`;
			continue;
		}
		if (word[0] !== word[0].toUpperCase()) return `"${raw}" should start with a capital letter`;
	}
	return words.length === 0 ? 'it is empty' : undefined;
}

/** Sentence case: starts with a capital, and is not written in Title Case. */
function sentenceCaseProblem(text: string): string | undefined {
	const trimmed = text.trim();
	const first = /\p{L}/u.exec(trimmed);
	if (!first) return 'it has no words';
	if (first[0] !== first[0].toUpperCase()) return 'it should start with a capital letter';
	// Title Case gives itself away: every later ordinary word capitalized, none of them an acronym.
	const later = trimmed
		.split(/\s+/)
		.slice(1)
		.map((w) => w.replace(/^[("'“‘[{]+|[)"'”’\]},.:;!?]+$/g, ''))
		.filter((w) => /^\p{L}{3,}$/u.test(w) && !MINOR_WORDS.has(w.toLowerCase()));
	const capitalized = later.filter((w) => w[0] === w[0].toUpperCase() && w !== w.toUpperCase());
	if (later.length >= 2 && capitalized.length === later.length) return 'it is in Title Case';
	return undefined;
}

interface Problem {
	where: string;
	problem: string;
}

function isPropertyCollection(value: unknown): value is INodePropertyCollection {
	return typeof value === 'object' && value !== null && 'values' in value;
}

function isProperty(value: unknown): value is INodeProperties {
	return typeof value === 'object' && value !== null && 'type' in value && 'displayName' in value;
}

/** Every wording problem in a list of node (or credential) parameters, nested ones included. */
function wordingProblems(properties: INodeProperties[], at: string): Problem[] {
	const problems: Problem[] = [];
	const report = (where: string, problem: string | undefined) => {
		if (problem) problems.push({ where, problem });
	};
	for (const property of properties) {
		const where = `${at} > ${property.displayName} (${property.name})`;
		// A notice's "display name" is its text, so it is a sentence, not a title.
		report(
			where,
			property.type === 'notice'
				? sentenceCaseProblem(property.displayName)
				: titleCaseProblem(property.displayName),
		);
		const selfExplanatory =
			['resource', 'operation'].includes(property.name) ||
			['collection', 'fixedCollection', 'notice'].includes(property.type);
		if (!selfExplanatory && !property.description?.trim()) {
			report(where, 'has no description');
		}
		if (property.description)
			report(`${where} description`, sentenceCaseProblem(property.description));
		if (property.hint) report(`${where} hint`, sentenceCaseProblem(property.hint));
		if (
			property.type === 'boolean' &&
			property.description &&
			!/^Whether\b/.test(property.description)
		) {
			report(`${where} description`, 'a boolean is described starting with "Whether"');
		}
		for (const mode of property.modes ?? []) {
			report(`${where} mode ${mode.name}`, titleCaseProblem(mode.displayName));
		}
		const options = property.options ?? [];
		const nested = options.filter(isProperty);
		if (nested.length > 0) problems.push(...wordingProblems(nested, where));
		for (const collection of options.filter(isPropertyCollection)) {
			report(`${where} > ${collection.name}`, titleCaseProblem(collection.displayName));
			problems.push(...wordingProblems(collection.values, `${where} > ${collection.displayName}`));
		}
		for (const option of options as INodePropertyOptions[]) {
			if (isProperty(option) || isPropertyCollection(option)) continue;
			const optionWhere = `${where} option ${String(option.value)}`;
			report(optionWhere, titleCaseProblem(option.name));
			if (option.description)
				report(`${optionWhere} description`, sentenceCaseProblem(option.description));
			if (property.name === 'operation') {
				if (!option.action) report(optionWhere, 'an operation needs an action');
				else report(`${optionWhere} action`, sentenceCaseProblem(option.action));
				if (!option.description) report(optionWhere, 'an operation needs a description');
			}
		}
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------

describe('the tarball (npm pack --dry-run)', () => {
	let packed: string[];

	beforeAll(() => {
		const out = execFileSync('npm', ['pack', '--dry-run', '--json'], {
			cwd: repoDir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const [manifest] = JSON.parse(out) as Array<{
			name: string;
			version: string;
			files: Array<{ path: string }>;
		}>;
		expect(manifest.name).toBe('n8n-nodes-omnichannel-messaging');
		packed = manifest.files.map((file) => file.path).sort();
	}, 60_000);

	it('lists only dist/, README.md, LICENSE.md and package.json', () => {
		// CHANGELOG.md stays on GitHub: npm does not pack it by default, and the package "files"
		// list is only "dist".
		const unexpected = packed.filter(
			(file) =>
				!file.startsWith('dist/') && !['README.md', 'LICENSE.md', 'package.json'].includes(file),
		);
		expect(unexpected).toEqual([]);
		expect(packed).toEqual(expect.arrayContaining(['README.md', 'LICENSE.md', 'package.json']));
	});

	it('ships the node, the credential, the codex file and both icons', () => {
		expect(packed).toEqual(
			expect.arrayContaining([
				...pkg.n8n.nodes,
				...pkg.n8n.credentials,
				`dist/${CODEX}`,
				'dist/nodes/OmnichannelMessaging/omnichannelMessaging.svg',
				'dist/nodes/OmnichannelMessaging/omnichannelMessaging.dark.svg',
			]),
		);
	});

	it('holds every file package.json names (main, types, bin, n8n.nodes, n8n.credentials)', () => {
		const named = [
			pkg.main,
			pkg.types,
			pkg.typings,
			...(typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {})),
			...(pkg.n8n?.nodes ?? []),
			...(pkg.n8n?.credentials ?? []),
		]
			.filter((file): file is string => typeof file === 'string')
			.map((file) => path.posix.normalize(file));
		expect(named.filter((file) => !packed.includes(file))).toEqual([]);
	});

	it('ships no TypeScript sources, tests, or leftovers from deleted sources', () => {
		expect(packed.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
		expect(packed.filter((file) => /(^|\/)(test|tests|__tests__)\//.test(file))).toEqual([]);
		// tsc does not clean dist/: a file whose source is gone would still be published (and scanned).
		const stale = packed
			.filter((file) => file.startsWith('dist/'))
			.filter((file) => {
				const source = file.slice('dist/'.length).replace(/(\.js\.map|\.d\.ts|\.js)$/, '.ts');
				return !existsSync(path.join(repoDir, source));
			});
		expect(stale).toEqual([]);
	});
});

describe('package.json', () => {
	it('is version 0.2.0 of n8n-nodes-omnichannel-messaging, MIT licensed, and the CHANGELOG has that version', () => {
		expect(pkg.name).toBe('n8n-nodes-omnichannel-messaging');
		expect(pkg.version).toBe('0.2.0');
		// Dated when it is released; until then its one section says so.
		const changelog = readFileSync(path.join(repoDir, 'CHANGELOG.md'), 'utf8');
		expect(changelog).toMatch(/^## \[0\.2\.0\] - (\d{4}-\d{2}-\d{2}|Unreleased)$/m);
		expect(changelog).not.toMatch(/^## \[Unreleased\]$/m);
		expect(pkg.license).toBe('MIT');
	});

	it('has no runtime dependencies and peers on n8n-workflow only', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg).not.toHaveProperty('dependencies');
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg).not.toHaveProperty('bundledDependencies');
		expect(pkg).not.toHaveProperty('bundleDependencies');
		expect(pkg).not.toHaveProperty('optionalDependencies');
	});

	it('carries the community node keyword', () => {
		expect(pkg.keywords).toContain('n8n-community-node-package');
	});

	it('declares a strict n8n block whose paths exist in dist/ after the build', () => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(pkg.n8n.strict).toBe(true);
		expect(pkg.n8n.nodes.length).toBeGreaterThan(0);
		expect(pkg.n8n.credentials.length).toBeGreaterThan(0);
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			expect(file).toMatch(/^dist\/.*\.js$/);
			expect(existsSync(path.join(repoDir, file))).toBe(true);
		}
	});

	it('publishes only dist/', () => {
		expect(pkg.files).toEqual(['dist']);
	});
});

describe('node_modules', () => {
	// The one other copy is n8n-core 1.63's own n8n-workflow 1.62, nested under the alias
	// n8n-core-1-63: only the older-engine test (test/engine/olderN8n.test.ts) loads it.
	const OLDER_ENGINE_COPY = 'node_modules/n8n-core-1-63/node_modules/n8n-workflow';
	// @n8n/node-cli's AI node SDK pins its own n8n-workflow; only the CLI's templates for AI nodes
	// load it, never the node, n8n-core or the tests.
	const NODE_CLI_COPY = 'node_modules/@n8n/ai-utilities/node_modules/n8n-workflow';
	const otherCopies = [NODE_CLI_COPY, OLDER_ENGINE_COPY];

	it('holds exactly one copy of n8n-workflow for the node and n8n-core (they must share its classes)', () => {
		const lock = readJson('package-lock.json');
		const locked = Object.keys(lock.packages).filter((key) =>
			/(^|\/)node_modules\/n8n-workflow$/.test(key),
		);
		expect(locked.sort()).toEqual([...otherCopies, 'node_modules/n8n-workflow']);
		expect(lock.packages[OLDER_ENGINE_COPY].version).toBe('1.62.0');
		expect(
			path.dirname(
				require.resolve('n8n-workflow/package.json', {
					paths: [path.dirname(require.resolve('n8n-core'))],
				}),
			),
		).toBe(path.join(repoDir, 'node_modules', 'n8n-workflow'));

		const installed: string[] = [];
		const visit = (dir: string, depth: number) => {
			if (depth > 8 || !existsSync(dir)) return;
			for (const entry of readdirSync(dir, { withFileTypes: true })) {
				if (!entry.isDirectory()) continue;
				const full = path.join(dir, entry.name);
				if (entry.name.startsWith('@')) {
					visit(full, depth);
					continue;
				}
				if (entry.name === 'n8n-workflow' && existsSync(path.join(full, 'package.json'))) {
					installed.push(path.relative(repoDir, full));
				}
				visit(path.join(full, 'node_modules'), depth + 1);
			}
		};
		visit(path.join(repoDir, 'node_modules'), 0);
		expect(installed.sort()).toEqual([
			...otherCopies.map((copy) => path.join(...copy.split('/'))),
			path.join('node_modules', 'n8n-workflow'),
		]);
	});
});

describe('the built code n8n Cloud runs', () => {
	const jsFiles = walk(distDir).filter((file) => file.endsWith('.js'));
	const sources = new Map(
		jsFiles.map((file) => [file, readFileSync(path.join(repoDir, file), 'utf8')]),
	);

	it('exists', () => {
		expect(jsFiles.length).toBeGreaterThan(0);
	});

	const forbidden: Array<[string, RegExp]> = [
		['process.*', /\bprocess\s*\.\s*[A-Za-z_$]/],
		[
			'the file system (fs)',
			/\brequire\s*\(\s*["'](node:)?fs(\/promises)?["']\s*\)|\bfrom\s+["'](node:)?fs/,
		],
		['child_process', /child_process/],
		['setTimeout', /\bsetTimeout\b/],
		['setInterval', /\bsetInterval\b/],
		['setImmediate', /\bsetImmediate\b/],
		['eval', /\beval\s*\(/],
		['new Function', /\bnew\s+Function\s*\(/],
		['globalThis', /\bglobalThis\b/],
	];

	it.each(forbidden)('does not use %s', (_label, pattern) => {
		const offenders = [...sources].filter(([, code]) => pattern.test(code)).map(([file]) => file);
		expect(offenders).toEqual([]);
	});

	// node:crypto is the one Node.js module verified nodes may use: the answer links' token needs it.
	it('requires nothing but its own files, n8n-workflow and node:crypto', () => {
		const imports = [...sources].flatMap(([file, code]) =>
			[...code.matchAll(/\brequire\s*\(\s*["']([^"']+)["']\s*\)/g)].map((m) => ({
				file,
				target: m[1],
			})),
		);
		expect(imports.length).toBeGreaterThan(0);
		const foreign = imports.filter(
			({ target }) => !target.startsWith('.') && !['n8n-workflow', 'node:crypto'].includes(target),
		);
		expect(foreign).toEqual([]);
		for (const { file, target } of imports.filter(({ target }) => target.startsWith('.'))) {
			const resolved = path.resolve(path.dirname(path.join(repoDir, file)), target);
			expect(
				[resolved, `${resolved}.js`, path.join(resolved, 'index.js')].some((p) => existsSync(p)),
			).toBe(true);
		}
	});

	it("waits only with n8n-workflow's sleep", () => {
		for (const [file, code] of sources) {
			const calls = [...code.matchAll(/([\w$.]*)\bsleep\)?\s*\(/g)].map((m) => m[0]);
			for (const call of calls) {
				expect({ file, call, fromN8nWorkflow: /n8n_workflow_\d+\.sleep/.test(call) }).toEqual({
					file,
					call,
					fromN8nWorkflow: true,
				});
			}
			expect(code).not.toMatch(/function\s+sleep\b|\bconst\s+sleep\s*=/);
		}
	});
});

describe('icons', () => {
	const nodeFile: string = pkg.n8n.nodes[0];
	const credentialFile: string = pkg.n8n.credentials[0];

	function checkSvg(file: string) {
		expect(existsSync(file)).toBe(true);
		const svg = readFileSync(file, 'utf8');
		const body = svg
			.replace(/^\uFEFF/, '')
			.replace(/<\?xml[\s\S]*?\?>/, '')
			.replace(/<!--[\s\S]*?-->/g, '')
			.replace(/<!DOCTYPE[^>]*>/i, '')
			.trim();
		const root = /^<svg\b([^>]*)>/.exec(body);
		expect(root).not.toBeNull();
		const attributes = root![1];
		expect(attributes).toMatch(/\bxmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		const viewBox = /\bviewBox="([^"]*)"/.exec(attributes);
		expect(viewBox).not.toBeNull();
		const numbers = viewBox![1]
			.trim()
			.split(/[\s,]+/)
			.map(Number);
		expect(numbers).toHaveLength(4);
		expect(numbers.every(Number.isFinite)).toBe(true);
		expect(numbers[2]).toBeGreaterThan(0);
		expect(numbers[3]).toBeGreaterThan(0);
		expect(body.endsWith('</svg>')).toBe(true);

		// Well-formed: every element closed, in order.
		const stack: string[] = [];
		for (const tag of body.matchAll(/<(\/?)([A-Za-z][\w:.-]*)\b[^>]*?(\/?)>/g)) {
			const [, closing, name, selfClosing] = tag;
			if (selfClosing) continue;
			if (closing) expect(stack.pop()).toBe(name);
			else stack.push(name);
		}
		expect(stack).toEqual([]);

		// Nothing active or remote.
		expect(svg).not.toMatch(/<script\b|\son[a-z]+\s*=|javascript:|<foreignObject\b/i);
		expect(svg).not.toMatch(/(xlink:)?href\s*=\s*["']https?:/i);
		return svg;
	}

	it('has a light and a dark node icon that exist, differ, and are valid SVG with a viewBox', () => {
		const [node] = loadExports<INodeType>(nodeFile).filter((n) => n.description);
		const icon = node.description.icon as { light: string; dark: string };
		expect(icon).toEqual({ light: expect.any(String), dark: expect.any(String) });
		const light = checkSvg(iconFile(nodeFile, icon.light));
		const dark = checkSvg(iconFile(nodeFile, icon.dark));
		expect(light).not.toBe(dark);
	});

	it('gives the credential an icon (light and dark) that exists', () => {
		const [credential] = loadExports<ICredentialType>(credentialFile).filter((c) => c.name);
		const icon = credential.icon as { light: string; dark: string };
		expect(icon).toEqual({ light: expect.any(String), dark: expect.any(String) });
		checkSvg(iconFile(credentialFile, icon.light));
		checkSvg(iconFile(credentialFile, icon.dark));
	});
});

describe('codex and documentation links', () => {
	const codex = readJson(CODEX);
	const repoUrl = String(pkg.repository.url)
		.replace(/^git\+/, '')
		.replace(/\.git$/, '');
	const readmePath = path.join(repoDir, 'README.md');

	it('sits next to the built node as <Node>.node.json and names the node', () => {
		const nodeFile: string = pkg.n8n.nodes[0];
		expect(existsSync(path.join(repoDir, nodeFile.replace(/\.js$/, '.json')))).toBe(true);
		const [node] = loadExports<INodeType>(nodeFile).filter((n) => n.description);
		expect(codex.node).toBe(`${pkg.name}.${node.description.name}`);
		expect(codex.nodeVersion).toBe('1.0');
		expect(codex.codexVersion).toBe('1.0');
	});

	it('files the node under Communication, with subcategories', () => {
		expect(codex.categories).toContain('Communication');
		for (const category of Object.keys(codex.subcategories ?? {})) {
			expect(codex.categories).toContain(category);
		}
		expect(codex.subcategories?.Communication?.length).toBeGreaterThan(0);
	});

	it('has the aliases people search for', () => {
		expect(codex.alias).toEqual(
			expect.arrayContaining(['WhatsApp', 'SMS', 'template', 'chat', 'message', 'customer']),
		);
	});

	const docUrls = (): Array<{ where: string; url: string }> => {
		const nodeFile: string = pkg.n8n.nodes[0];
		const credentialFile: string = pkg.n8n.credentials[0];
		const [credential] = loadExports<ICredentialType>(credentialFile).filter((c) => c.name);
		return [
			...(codex.resources?.primaryDocumentation ?? []).map((d: { url: string }) => ({
				where: 'codex primaryDocumentation',
				url: d.url,
			})),
			...(codex.resources?.credentialDocumentation ?? []).map((d: { url: string }) => ({
				where: 'codex credentialDocumentation',
				url: d.url,
			})),
			{ where: 'credential documentationUrl', url: String(credential.documentationUrl) },
			...loadExports<INodeType>(nodeFile)
				.filter((n) => n.description?.documentationUrl)
				.map((n) => ({
					where: 'node documentationUrl',
					url: String(n.description.documentationUrl),
				})),
		];
	};

	it('links the node and the credential documentation to README sections of this repository', () => {
		const urls = docUrls();
		expect(urls.map((u) => u.where)).toEqual(
			expect.arrayContaining([
				'codex primaryDocumentation',
				'codex credentialDocumentation',
				'credential documentationUrl',
			]),
		);
		for (const { where, url } of urls) {
			const parsed = new URL(url);
			expect({ where, protocol: parsed.protocol }).toEqual({ where, protocol: 'https:' });
			expect({ where, url: `${parsed.origin}${parsed.pathname}` }).toEqual({ where, url: repoUrl });
			expect({ where, anchor: parsed.hash.length > 1 }).toEqual({ where, anchor: true });
		}
	});

	it('points every documentation anchor at a heading that exists in README.md', () => {
		expect(existsSync(readmePath)).toBe(true);
		const anchors = markdownAnchors(readFileSync(readmePath, 'utf8'));
		const missing = docUrls()
			.map(({ where, url }) => ({ where, anchor: decodeURIComponent(new URL(url).hash.slice(1)) }))
			.filter(({ anchor }) => !anchors.has(anchor));
		expect(missing).toEqual([]);
	});

	it('has the README sections the review expects', () => {
		expect(existsSync(readmePath)).toBe(true);
		const anchors = markdownAnchors(readFileSync(readmePath, 'utf8'));
		expect(README_HEADINGS.filter((heading) => !anchors.has(githubSlug(heading)))).toEqual([]);
	});

	it('makes anchors the way GitHub does', () => {
		const sample = [
			'# Title',
			'## Field-notes assumptions',
			'## Example workflows',
			'## `Send` & retry (v1.2)',
			'```md',
			'## Not a heading',
			'```',
			'## [Linked](https://example.com) heading ##',
			'## Example workflows',
		].join('\n');
		expect([...markdownAnchors(sample)]).toEqual([
			'title',
			'field-notes-assumptions',
			'example-workflows',
			'send--retry-v12',
			'linked-heading',
			'example-workflows-1',
		]);
	});
});

describe('the node description', () => {
	const nodeFile: string = pkg.n8n.nodes[0];
	const credentialFile: string = pkg.n8n.credentials[0];
	const [node] = loadExports<INodeType>(nodeFile).filter((n) => n.description);
	const description: INodeTypeDescription = node.description;

	it('is titled, described and named as n8n expects', () => {
		expect(titleCaseProblem(description.displayName)).toBeUndefined();
		expect(sentenceCaseProblem(description.description)).toBeUndefined();
		expect(description.name).toMatch(/^[a-z][A-Za-z0-9]*$/);
		expect(description.defaults.name).toBe(description.displayName);
		expect(description.usableAsTool).toBe(true);
	});

	it('gives every operation an action and a description, and every field a description unless self-explanatory', () => {
		const operations = description.properties.filter((p) => p.name === 'operation');
		expect(operations.length).toBeGreaterThan(0);
		for (const operation of operations) {
			for (const option of operation.options as INodePropertyOptions[]) {
				expect({
					value: option.value,
					action: typeof option.action,
					description: typeof option.description,
				}).toEqual({
					value: option.value,
					action: 'string',
					description: 'string',
				});
			}
		}
		expect(wordingProblems(description.properties, description.displayName)).toEqual([]);
	});

	it('words the credential fields the same way', () => {
		const [credential] = loadExports<ICredentialType>(credentialFile).filter((c) => c.name);
		expect(titleCaseProblem(credential.displayName)).toBeUndefined();
		expect(wordingProblems(credential.properties, credential.displayName)).toEqual([]);
	});

	describe('of the Omnichannel Messaging Trigger', () => {
		const triggerFile: string = pkg.n8n.nodes[1];
		const [trigger] = loadExports<INodeType>(triggerFile).filter((n) => n.description);
		const triggerCodex = readJson(triggerFile.replace(/^dist\//, '').replace(/\.js$/, '.json'));

		it('is a trigger, titled, described and named as n8n expects, with the same credential', () => {
			const own = trigger.description;
			expect(titleCaseProblem(own.displayName)).toBeUndefined();
			expect(sentenceCaseProblem(own.description)).toBeUndefined();
			expect(own).toMatchObject({
				name: `${description.name}Trigger`,
				displayName: `${description.displayName} Trigger`,
				group: ['trigger'],
				inputs: [],
				defaults: { name: own.displayName },
				credentials: description.credentials,
				icon: description.icon,
			});
		});

		it('words every field as the node does', () => {
			expect(
				wordingProblems(trigger.description.properties, trigger.description.displayName),
			).toEqual([]);
		});

		it('has its codex beside it, naming it, linking to a README section', () => {
			expect(existsSync(path.join(repoDir, triggerFile.replace(/\.js$/, '.json')))).toBe(true);
			expect(triggerCodex.node).toBe(`${pkg.name}.${trigger.description.name}`);
			expect(triggerCodex.categories).toEqual(readJson(CODEX).categories);
			const anchors = markdownAnchors(readFileSync(path.join(repoDir, 'README.md'), 'utf8'));
			for (const { url } of [
				...triggerCodex.resources.primaryDocumentation,
				...triggerCodex.resources.credentialDocumentation,
			]) {
				expect(anchors.has(decodeURIComponent(new URL(url).hash.slice(1)))).toBe(true);
			}
		});
	});

	it('catches wording that breaks the rules', () => {
		expect(titleCaseProblem('Send a Message')).toBeUndefined();
		expect(titleCaseProblem('Header media URL')).toBeDefined();
		expect(titleCaseProblem('Same As Template')).toBeDefined();
		expect(sentenceCaseProblem('The message the customer receives, as plain text')).toBeUndefined();
		expect(sentenceCaseProblem('Send an approved WhatsApp template to the API')).toBeUndefined();
		expect(sentenceCaseProblem('the message')).toBeDefined();
		expect(sentenceCaseProblem('Send The Approved Template')).toBeDefined();
		const bad = [
			{ displayName: 'customer id', name: 'x', type: 'string', default: '' },
			{
				displayName: 'Flag',
				name: 'y',
				type: 'boolean',
				default: false,
				description: 'Turns it on',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				default: 'a',
				options: [{ name: 'Do It', value: 'a' }],
			},
		] as INodeProperties[];
		expect(wordingProblems(bad, 'Bad').map((p) => p.problem)).toEqual([
			'"customer" should start with a capital letter',
			'has no description',
			'a boolean is described starting with "Whether"',
			'an operation needs an action',
			'an operation needs a description',
		]);
	});
});
