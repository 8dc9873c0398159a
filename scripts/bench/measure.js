'use strict';
/* The figures of `npm run bench:n8n`: n8n's CPU from /proc, webhook calls, percentiles, medians. */
const fs = require('node:fs');

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process, in ms; 0 when it is gone. */
function processCpuMs(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// After the name: state(0) ppid(1) … utime(11) stime(12).
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
	} catch {
		return 0;
	}
}

function parentOf(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return -1;
	}
}

/** The CPU of `root` and every process below it (n8n and its task runners), in ms. */
function treeCpuMs(root) {
	const pids = fs
		.readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.map(Number);
	const children = new Map();
	for (const pid of pids) {
		const parent = parentOf(pid);
		if (!children.has(parent)) children.set(parent, []);
		children.get(parent).push(pid);
	}
	let total = 0;
	const stack = [root];
	while (stack.length > 0) {
		const pid = stack.pop();
		total += processCpuMs(pid);
		stack.push(...(children.get(pid) ?? []));
	}
	return total;
}

/** POSTs a JSON body to a webhook; resolves with status, text and the time it took. */
async function postJson(url, body, timeoutMs = 600_000) {
	const started = Date.now();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await response.text();
	return { status: response.status, text, ms: Date.now() - started, started };
}

/** Runs `task` over `inputs`, `atOnce` at a time; the results in order. */
async function eachAtOnce(inputs, atOnce, task) {
	const results = new Array(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(atOnce, inputs.length) }, worker));
	return results;
}

/** Calls `url` once per body, `atOnce` calls in flight at a time; the answers in call order. */
const callMany = (url, bodies, atOnce) => eachAtOnce(bodies, atOnce, (body) => postJson(url, body));

function percentile(values, p) {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const median = (values) => percentile(values, 50);

/** "median (min–max)" of the figures that exist. */
function spread(values, digits = 0) {
	const known = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
	if (known.length === 0) return '–';
	const f = (v) => v.toFixed(digits);
	if (known.length === 1) return f(known[0]);
	return `${f(median(known))} (${f(Math.min(...known))}–${f(Math.max(...known))})`;
}

module.exports = { treeCpuMs, postJson, eachAtOnce, callMany, percentile, median, spread };
