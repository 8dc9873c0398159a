/**
 * scripts/lib/n8n.js's executeWorkflow, which runs `n8n execute --rawOutput` for the end-to-end
 * suites: a process that crashes with SIGSEGV after writing its whole result (n8n 2.x's expression
 * sandbox, now and then, as it exits) counts as exit 0; one that crashes before, or fails, does
 * not. A small node script stands in for n8n's CLI, printing what n8n prints.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const n8n = require('../../scripts/lib/n8n');

const RESULT = '{\n  "status": "success",\n  "data": {}\n}';

let folder: string;

beforeAll(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'execute-workflow-'));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in CLI that prints `stdout` and then ends as `end` says. */
function cli(name: string, stdout: string, end: string): string {
	const file = path.join(folder, `${name}.js`);
	writeFileSync(file, `process.stdout.write(${JSON.stringify(stdout)}, () => { ${end} });\n`);
	return file;
}

async function execute(entry: string) {
	return await n8n.executeWorkflow('wf-1', {
		node: process.execPath,
		entry,
		env: { PATH: process.env.PATH },
		timeoutMs: 20_000,
	});
}

test('a crash with SIGSEGV after the whole result is the run: exit 0, the result parsed', async () => {
	const run = await execute(
		cli('late', `Starting\n${RESULT}\n`, "process.kill(process.pid, 'SIGSEGV');"),
	);
	expect({ code: run.code, signal: run.signal, result: run.result }).toEqual({
		code: 0,
		signal: null,
		result: { status: 'success', data: {} },
	});
});

test('a crash with SIGSEGV before the result is one: no result, the signal kept', async () => {
	const run = await execute(
		cli('early', 'Starting\n{\n  "status"', "process.kill(process.pid, 'SIGSEGV');"),
	);
	expect({ code: run.code, signal: run.signal, result: run.result }).toEqual({
		code: null,
		signal: 'SIGSEGV',
		result: undefined,
	});
});

test('another exit keeps its code, the result parsed as it was printed', async () => {
	const run = await execute(cli('failed', `${RESULT}\n`, 'process.exit(1);'));
	expect({ code: run.code, result: run.result }).toEqual({
		code: 1,
		result: { status: 'success', data: {} },
	});
});
