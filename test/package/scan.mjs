#!/usr/bin/env node
/*
 * A local run of what n8n's `@n8n/scan-community-package` does to a published version, minus the
 * network: it packs this package the way `npm publish` would, unpacks the tarball into a temporary
 * directory and lints it with the scanner's ESLint setup (the @n8n/eslint-plugin-community-nodes
 * `recommended` config, `no-console`, and the eslint-plugin-n8n-nodes-base rulesets), with inline
 * configuration switched off, so `eslint-disable` comments count for nothing.
 *
 * Like the scanner it has two legs:
 *   - "tarball": the compiled `**\/*.js` and the published package.json of the unpacked tarball;
 *   - "source":  package.json and `{nodes,credentials}/**\/*.{js,ts,json}` of the repository
 *                (the scanner lints the commit the npm provenance attestation points at).
 * The scanner's verdict is the error count alone; warnings are reported but do not fail it.
 *
 * It is an ES module because @n8n/eslint-plugin-community-nodes is ESM-only; test/package/scanner.test.ts
 * runs it in a child process and reads the JSON it prints. Run `npm run build` first.
 *
 * Usage: node test/package/scan.mjs            (prints a JSON report, exit code 0)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';
import { defineConfig } from 'eslint/config';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The scanner's own config (scanner.mjs `buildScanConfig`), plus inline config switched off. */
export function buildScanConfig() {
	return defineConfig(
		n8nCommunityNodesPlugin.configs.recommended,
		{ rules: { 'no-console': 'error' } },
		{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
		{
			files: ['package.json'],
			rules: { ...n8nNodesPlugin.configs.community.rules },
		},
		{
			files: ['**/credentials/**/*.ts'],
			rules: {
				...n8nNodesPlugin.configs.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: ['**/nodes/**/*.ts'],
			rules: {
				...n8nNodesPlugin.configs.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			},
		},
		{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
		{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
		// n8n's scanner ignores `eslint-disable` comments; so does this run.
		{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	);
}

function newEslint(cwd) {
	return new ESLint({
		cwd,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: buildScanConfig(),
	});
}

/** Files under `dir` (relative, with "/"), skipping node_modules. */
function walk(dir, base = dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (entry.name === 'node_modules') continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...walk(full, base));
		else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
	}
	return out;
}

async function lintLeg(name, cwd, files) {
	const eslint = newEslint(cwd);
	const results = await eslint.lintFiles(files.map((file) => path.join(cwd, file)));
	const messages = results.flatMap((result) =>
		result.messages.map((m) => ({
			file: path.relative(cwd, result.filePath).split(path.sep).join('/'),
			line: m.line,
			rule: m.ruleId,
			severity: m.severity === 2 ? 'error' : 'warning',
			message: m.message,
		})),
	);
	return {
		leg: name,
		files: results.map((r) => path.relative(cwd, r.filePath).split(path.sep).join('/')).sort(),
		errorCount: results.reduce((sum, r) => sum + r.errorCount + r.fatalErrorCount, 0),
		warningCount: results.reduce((sum, r) => sum + r.warningCount, 0),
		messages,
		stylish: (await (await eslint.loadFormatter('stylish')).format(results)).trim(),
	};
}

/** `npm pack` into a temporary directory, then unpack the tarball the way the scanner does. */
function packAndUnpack(tmp) {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], {
		cwd: repoDir,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out);
	const packageDir = path.join(tmp, 'package');
	fs.mkdirSync(packageDir);
	execFileSync('tar', ['-xzf', path.join(tmp, filename), '-C', packageDir, '--strip-components=1']);
	return packageDir;
}

/**
 * Proves the config bites: code the scanner rejects, with a disable comment on it, must still be
 * reported. Without this, a misconfigured run would pass every package.
 */
async function canary(packageDir) {
	const eslint = newEslint(packageDir);
	const code = [
		'"use strict";',
		'// eslint-disable-next-line',
		'const key = process.env.SECRET; /* eslint-disable */',
		'setTimeout(() => console.log(key), 10); // eslint-disable-line',
	].join('\n');
	const [result] = await eslint.lintText(code, {
		filePath: path.join(packageDir, 'dist', 'nodes', 'Canary', 'Canary.node.js'),
	});
	// The package.json rules need the JSON to be parsed; a broken package.json must be caught too.
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const broken = { ...pkg, author: { name: pkg.author?.name }, dependencies: { axios: '^1.0.0' } };
	const [pkgResult] = await eslint.lintText(JSON.stringify(broken, null, 2), {
		filePath: path.join(packageDir, 'package.json'),
	});
	return [...new Set([...result.messages, ...pkgResult.messages].map((m) => m.ruleId))].sort();
}

export async function scan() {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-scan-'));
	try {
		const packageDir = packAndUnpack(tmp);
		const published = walk(packageDir);
		const tarballFiles = published.filter(
			(file) => file.endsWith('.js') || file === 'package.json',
		);
		const sourceFiles = walk(repoDir).filter(
			(file) => file === 'package.json' || /^(nodes|credentials)\/.*\.(js|ts|json)$/.test(file),
		);
		return {
			published: published.sort(),
			legs: [
				await lintLeg('tarball', packageDir, tarballFiles),
				await lintLeg('source', repoDir, sourceFiles),
			],
			canaryRules: await canary(packageDir),
		};
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.stdout.write(JSON.stringify(await scan(), null, 2) + '\n');
}
