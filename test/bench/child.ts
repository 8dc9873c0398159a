/*
 * What the bench's presets share: forked children that answer over IPC, the fake service in a
 * process of its own, and where the repository is.
 */
import { fork } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';

import type { ServiceStats } from './fake-service.child';

/** What every preset's config says about the service and the rows. */
export interface RunShape {
	latencyMs: number;
	limit: number;
	retryAfter: string;
	runs: number;
	rows: string[];
	warmup: number;
	/** The service admits each request after a random 0..jitter ms. */
	jitter: number;
	json?: string;
}

export type Reply = { type: string; [key: string]: unknown };

/** A forked child with request/answer over IPC. */
export class Child {
	private readonly waiting: Array<{ type: string; resolve: (m: Reply) => void }> = [];
	private readonly exited: Promise<number | null>;

	constructor(
		readonly proc: ChildProcess,
		readonly name: string,
	) {
		proc.on('message', (m: Reply) => {
			const index = this.waiting.findIndex((w) => w.type === m.type);
			if (index >= 0) this.waiting.splice(index, 1)[0].resolve(m);
		});
		this.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
		void this.exited.then((code) => {
			for (const w of this.waiting.splice(0)) {
				w.resolve({
					type: 'exit',
					error: `${this.name} exited with code ${code} before answering "${w.type}"`,
				});
			}
		});
	}

	async next(type: string, timeoutMs = 600_000): Promise<Reply> {
		let timer: NodeJS.Timeout | undefined;
		const reply = await Promise.race([
			new Promise<Reply>((resolve) => this.waiting.push({ type, resolve })),
			new Promise<Reply>((resolve) => {
				timer = setTimeout(
					() =>
						resolve({
							type: 'timeout',
							error: `${this.name}: no "${type}" within ${timeoutMs} ms`,
						}),
					timeoutMs,
				);
			}),
		]);
		clearTimeout(timer);
		if (reply.type !== type) throw new Error(String(reply.error));
		return reply;
	}

	async ask(message: Reply, answer: string): Promise<Reply> {
		const pending = this.next(answer);
		this.proc.send(message);
		return await pending;
	}

	async end(): Promise<void> {
		if (this.proc.exitCode === null && this.proc.connected) this.proc.send({ type: 'stop' });
		const timer = setTimeout(() => this.proc.kill(), 5_000);
		await this.exited;
		clearTimeout(timer);
	}
}

export interface ServiceAddress {
	url: string;
	warmupUrl: string;
	apiKey: string;
}

/**
 * The fake service (fake-service.child.ts) at this latency, with this in-flight limit, each
 * request admitted after 0..jitter ms.
 */
export async function startFake(config: {
	latencyMs: number;
	limit: number;
	retryAfter: string;
	jitter?: number;
}) {
	const fake = new Child(
		fork(
			path.join(__dirname, 'fake-service.child.js'),
			[
				JSON.stringify({
					latencyMs: config.latencyMs,
					concurrencyLimit: config.limit,
					retryAfter: config.retryAfter,
					admitJitterMs: config.jitter ?? 0,
				}),
			],
			{ stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
		),
		'fake service',
	);
	const service = (await fake.next('listening', 30_000)) as unknown as ServiceAddress;
	return { fake, service };
}

export const repoRoot = (() => {
	// Compiled to .tmp/bench/; the sources are two levels up.
	let dir = __dirname;
	for (let i = 0; i < 5; i++) {
		if (path.basename(dir) === '.tmp') return path.dirname(dir);
		dir = path.dirname(dir);
	}
	return process.cwd();
})();

/** An engine process: `script` forked with `flag`, its n8n user folder the benchmark's own. */
export function forkEngine(script: string, flag: string, execArgv: string[], name: string): Child {
	const env = { ...process.env, N8N_USER_FOLDER: path.join(repoRoot, '.tmp', 'bench-n8n-home') };
	const stdio: StdioOptions = ['ignore', 'inherit', 'inherit', 'ipc'];
	return new Child(fork(script, [flag], { execArgv, env, stdio }), name);
}

/**
 * One timed run: `job` sent to the engine, the service's figures reset once the engine is ready,
 * then the engine's result and what the service saw.
 */
export async function timedRun<Result>(
	engine: Child,
	fake: Child,
	job: unknown,
): Promise<{ result: Result; stats: ServiceStats }> {
	engine.proc.send({ job });
	await engine.next('ready');
	await fake.ask({ type: 'reset' }, 'reset-done');
	const { result } = (await engine.ask({ type: 'go' }, 'result')) as unknown as { result: Result };
	await engine.end();
	const { stats } = (await fake.ask({ type: 'stats' }, 'stats')) as unknown as {
		stats: ServiceStats;
	};
	return { result, stats };
}

/** The machine's load average, as the report prints it beside the figures. */
export const loadAverage = () =>
	loadavg()
		.map((load) => load.toFixed(2))
		.join(' ');
