#!/usr/bin/env node
'use strict';
/*
 * `npm run deps`: the dependency rules of .dependency-cruiser.cjs and madge's cycle check, on the
 * code of nodes/ and credentials/. The one place their command lines are written: the dependency
 * test (part of `npm test`) and the layout picture (scripts/docs-deps.js) run them from here.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const repoDir = path.resolve(__dirname, '..');
const SOURCES = ['nodes', 'credentials'];

/** Runs a command line of node_modules with this Node in `cwd`; a failing exit is the caller's to judge. */
function runTool(cwd, cli, args) {
	const run = spawnSync(process.execPath, [path.join(repoDir, 'node_modules', ...cli), ...args], {
		cwd,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** dependency-cruiser's output of the given type for the code in `cwd`, with `extra` arguments. */
function cruise(cwd, outputType, extra = []) {
	const cli = ['dependency-cruiser', 'bin', 'dependency-cruise.mjs'];
	const args = [...SOURCES, '--config', '.dependency-cruiser.cjs', '--output-type', outputType];
	const run = runTool(cwd, cli, [...args, ...extra]);
	if (!run.stdout) throw new Error(`dependency-cruiser printed nothing: ${run.stderr}`);
	return run.stdout;
}

/** The rules the code in `cwd` breaks, as dependency-cruiser reports them. */
function violations(cwd) {
	return JSON.parse(cruise(cwd, 'json')).summary.violations;
}

/** What a failure prints: the rule and the files, one line each. */
const named = (found) =>
	found.map((v) => {
		const cycle = v.cycle ? ` (${v.cycle.map((step) => step.name).join(' → ')})` : '';
		return `${v.rule.name}: ${v.from} → ${v.to}${cycle}`;
	});

/** madge's cycle check of the code in `cwd`. */
function madgeCycles(cwd) {
	const args = ['--circular', '--no-spinner', '--no-color', '--extensions', 'ts', ...SOURCES];
	return runTool(cwd, ['madge', 'bin', 'cli.js'], args);
}

module.exports = { cruise, violations, named, madgeCycles };

if (require.main === module) {
	const broken = named(violations(repoDir));
	const madge = madgeCycles(repoDir);
	for (const line of broken) console.error(line);
	if (madge.status !== 0) console.error(madge.stdout);
	if (broken.length > 0 || madge.status !== 0) process.exit(1);
	console.log('dependency rules: kept, no cycle');
}
