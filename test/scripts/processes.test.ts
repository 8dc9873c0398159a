/**
 * scripts/lib/processes.js, which starts and stops the servers of the end-to-end and queue-mode
 * suites and of `npm run dev`: whatever happens to the process that started them (a failed start,
 * SIGINT, SIGTERM, an exit without stopping, SIGKILL and a later run), nothing it started is left.
 * Real processes, each a node process with a grandchild of its own.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { until } from '../helpers/until';

const FIXTURE = path.join(__dirname, 'startsProcesses.js');

/** Whether pid is a live process (a zombie waiting for its parent to reap it has ended). */
function alive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

interface Run {
	child: ChildProcess;
	pids: Promise<number[]>;
	done: Promise<{ code: number | null; stderr: string; stdout: string }>;
}

function runFixture(...args: string[]): Run {
	const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const pids = new Promise<number[]>((resolve) => {
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			const line = stdout.split('\n').find((l) => l.startsWith('{"pids"'));
			if (line) resolve((JSON.parse(line) as { pids: number[] }).pids);
		});
	});
	const done = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
		child.on('exit', (code) => resolve({ code, stderr, stdout })),
	);
	return { child, pids, done };
}

const left: number[] = [];
afterAll(() => {
	// Whatever a failing case left behind is not left for the next suite.
	for (const pid of left) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

async function expectAllEnded(pids: number[]): Promise<void> {
	left.push(...pids);
	expect(pids).toHaveLength(4);
	await until(() => pids.every((pid) => !alive(pid)), 'every started process ending');
}

describe('processes started through scripts/lib/processes.js', () => {
	test.each([
		['SIGTERM', 143],
		['SIGINT', 130],
	] as const)(
		'%s to the process that started them ends them and their children, exit %i',
		async (signal, exitCode) => {
			const run = runFixture('wait');
			const pids = await run.pids;
			expect(pids.every(alive)).toBe(true);
			run.child.kill(signal);
			expect((await run.done).code).toBe(exitCode);
			await expectAllEnded(pids);
		},
	);

	test('an exit without stopping them ends them too', async () => {
		const run = runFixture('exit');
		const pids = await run.pids;
		expect((await run.done).code).toBe(3);
		await expectAllEnded(pids);
	});

	test('a part that fails to start: the others are stopped before the error is reported', async () => {
		const run = runFixture('failed-start');
		const pids = await run.pids;
		const { code, stderr } = await run.done;
		expect(code).toBe(1);
		expect(stderr.split('\n')[0]).toMatch(
			/^broken ended \(\{"code":7,"signal":null\}\) before readiness/,
		);
		await expectAllEnded(pids);
	});

	test('after a SIGKILL, the next run stops what was recorded and removes its folder', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'processes-test-'));
		try {
			const run = runFixture('recorded', dir);
			const pids = await run.pids;
			left.push(...pids);
			run.child.kill('SIGKILL');
			await run.done;
			// Nothing ran on a SIGKILL: the recorded service and its grandchild still run.
			expect(alive(pids[0]) && alive(pids[1])).toBe(true);
			expect(existsSync(path.join(dir, 'own'))).toBe(true);

			const { code, stdout } = await runFixture('stop-recorded', dir).done;
			expect(code).toBe(0);
			expect(JSON.parse(stdout)).toEqual({ stopped: [pids[0]] });
			await until(() => !alive(pids[0]) && !alive(pids[1]), 'the recorded service ending');
			expect(existsSync(path.join(dir, 'own'))).toBe(false);
			expect(existsSync(path.join(dir, 'pids.json'))).toBe(false);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
