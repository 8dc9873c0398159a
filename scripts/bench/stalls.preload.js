'use strict';
/*
 * Loaded into each n8n process by `npm run bench:freeze -- --why` (NODE_OPTIONS=--require): while
 * a row runs, says what held the process's event loop. A timer due every 10 ms finds each stretch
 * of 50 ms or more in which the loop did not turn; V8's sampling profiler (1 ms), run for the row
 * only, says what ran in it: the garbage collector, this package, n8n, Node's own code or native
 * code (n8n 2.x evaluates expressions in isolated-vm, native). The bench writes
 * $BENCH_STALLS_DIR/control.json ({ row, state: 'start' | 'stop' }); the process writes
 * <row>.<pid>.started once it watches, and <row>.<pid>.json at the stop. Nothing in n8n's own code
 * is changed.
 */
const fs = require('node:fs');
const inspector = require('node:inspector');
const path = require('node:path');

const dir = process.env.BENCH_STALLS_DIR;
const TICK_MS = 10;
const STALL_MS = 50;
const KEPT = 5;

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Where a profile's frame comes from, for the summary. */
function sourceOf(callFrame) {
	const { functionName, url } = callFrame;
	if (functionName === '(garbage collector)') return 'garbage collector';
	if (url.includes('n8n-nodes-omnichannel-messaging')) return 'this package';
	if (url.startsWith('node:')) return 'Node.js';
	// Built-ins and addons: n8n 2.x's expressions run in isolated-vm's evalClosureSync.
	if (url === '') return 'native code';
	return 'n8n and its libraries';
}

/** Each stall's sampled time by source, and its three busiest functions (self time). */
function explain(profile, stalls) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	let t = profile.startTime;
	const times = profile.timeDeltas.map((delta) => (t += delta));
	return stalls.map((stall) => {
		const bySource = {};
		const byFunction = {};
		for (let i = 0; i < times.length - 1; i++) {
			if (times[i] < stall.fromUs || times[i] > stall.fromUs + stall.ms * 1000) continue;
			const { callFrame } = byId.get(profile.samples[i]);
			const ms = (times[i + 1] - times[i]) / 1000;
			const source = sourceOf(callFrame);
			bySource[source] = (bySource[source] ?? 0) + ms;
			const where = `${callFrame.functionName || '(anonymous)'} ${path.basename(callFrame.url)}`;
			byFunction[where] = (byFunction[where] ?? 0) + ms;
		}
		const round = (entries) => entries.map(([k, v]) => [k, Math.round(v)]);
		return {
			ms: stall.ms,
			at: stall.at,
			bySource: Object.fromEntries(round(Object.entries(bySource).sort((a, b) => b[1] - a[1]))),
			busiest: Object.fromEntries(
				round(
					Object.entries(byFunction)
						.sort((a, b) => b[1] - a[1])
						.slice(0, 3),
				),
			),
		};
	});
}

if (dir) {
	const session = new inspector.Session();
	session.connect();
	session.post('Profiler.enable');
	session.post('Profiler.setSamplingInterval', { interval: 1000 });
	// The row asked for, and the row watched once the profiler runs.
	let asked;
	let row;
	let stalls = [];
	let lastUs = nowUs();
	setInterval(() => {
		const now = nowUs();
		const ms = Math.round((now - lastUs) / 1000);
		if (row && ms >= STALL_MS) stalls.push({ fromUs: lastUs, at: Date.now() - ms, ms });
		lastUs = now;
	}, TICK_MS).unref();

	// Written whole, then renamed: the bench never reads half a file.
	const write = (name, text) => {
		const file = path.join(dir, name);
		fs.writeFileSync(`${file}.part`, text);
		fs.renameSync(`${file}.part`, file);
	};
	const start = (id) => {
		session.post('Profiler.start', () => {
			// Starting the profiler holds the loop a moment: only the stalls after it count.
			stalls = [];
			lastUs = nowUs();
			row = id;
			write(`${id}.${process.pid}.started`, '');
		});
	};
	const stop = (id) => {
		row = undefined;
		const longest = stalls.sort((a, b) => b.ms - a.ms).slice(0, KEPT);
		session.post('Profiler.stop', (error, result) => {
			const figures = error
				? { error: error.message }
				: { stalls: explain(result.profile, longest) };
			write(`${id}.${process.pid}.json`, JSON.stringify(figures));
		});
	};
	setInterval(() => {
		let control;
		try {
			control = JSON.parse(fs.readFileSync(path.join(dir, 'control.json'), 'utf8'));
		} catch {
			return;
		}
		if (control.state === 'start' && control.row !== asked) start((asked = control.row));
		else if (control.state === 'stop' && row === control.row) stop(control.row);
	}, 50).unref();
}
