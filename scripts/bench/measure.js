'use strict';
/*
 * The figures of `npm run bench:n8n` and `npm run bench:freeze`: n8n's CPU and memory from /proc,
 * webhook calls, requests asked again and again (and the longest silence between their answers),
 * percentiles, medians.
 */
const fs = require('node:fs');
const http = require('node:http');

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

/** A process's resident memory (VmRSS) in MB; 0 when it is gone. */
function rssMb(pid) {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
	} catch {
		return 0;
	}
}

/** Reads each process's RSS every `everyMs` until stopped: the highest seen, by name. */
function samplePeakRss(processes, everyMs = 100) {
	const peak = Object.fromEntries(processes.map(({ name, pid }) => [name, rssMb(pid)]));
	const timer = setInterval(() => {
		for (const { name, pid } of processes) peak[name] = Math.max(peak[name], rssMb(pid));
	}, everyMs);
	return {
		stop: () => {
			clearInterval(timer);
			return peak;
		},
	};
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One GET on a connection of its own (no keep-alive: a socket the server closed while it was busy
 * is not reused): resolves with the status, or 0 and why there was none.
 */
function getOnce(url, headers, timeoutMs) {
	return new Promise((resolve) => {
		const request = http.get(url, { headers, agent: false, timeout: timeoutMs }, (response) => {
			response.resume();
			response.on('end', () => resolve({ status: response.statusCode }));
			response.on('error', (error) => resolve({ status: 0, error: error.message }));
		});
		request.on('timeout', () => request.destroy(new Error('timed out')));
		request.on('error', (error) => resolve({ status: 0, error: error.message }));
	});
}

/**
 * GETs `url` again and again until stopped: the next ask `nextInMs(ask)` after an answer (or a
 * failure), one ask in flight at a time. stop() waits for the ask in flight: an n8n that is busy
 * then still answers late, and the late answer is what shows it.
 */
function askAgainAndAgain(url, { nextInMs, headers = {}, timeoutMs = 600_000 }) {
	let stopped = false;
	let wake;
	const asks = [];
	const loop = (async () => {
		while (!stopped) {
			const started = Date.now();
			const answer = await getOnce(url, headers, timeoutMs);
			const ask = { started, answeredAt: Date.now(), ...answer };
			asks.push(ask);
			if (!stopped)
				await new Promise((resolve) => {
					wake = resolve;
					setTimeout(resolve, Math.max(0, nextInMs(ask)));
				});
		}
	})();
	return {
		stop: async () => {
			stopped = true;
			wake?.();
			await loop;
			return asks;
		},
	};
}

/**
 * The longest time within [from, to] in which none of `asks` was answered (the gaps between
 * answers, cut at the window's ends), and when it began, in ms after `from`.
 */
function longestGap(asks, from, to) {
	const clamp = (t) => Math.min(to, Math.max(from, t));
	const points = [
		from,
		...asks
			.filter((a) => a.status > 0)
			.map((a) => clamp(a.answeredAt))
			.sort((a, b) => a - b),
		to,
	];
	const gap = { ms: 0, at: 0 };
	for (let i = 1; i < points.length; i++) {
		if (points[i] - points[i - 1] > gap.ms)
			Object.assign(gap, { ms: points[i] - points[i - 1], at: points[i - 1] - from });
	}
	return gap;
}

const longestSilence = (asks, from, to) => longestGap(asks, from, to).ms;

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

module.exports = {
	treeCpuMs,
	rssMb,
	samplePeakRss,
	sleep,
	askAgainAndAgain,
	longestGap,
	longestSilence,
	postJson,
	eachAtOnce,
	callMany,
	percentile,
	median,
	spread,
};
