'use strict';
/*
 * The rows of `npm run bench:freeze`: one broadcast each (Webhook → Split Out → …), watched from
 * outside n8n while it runs: each n8n process's /healthz asked again 100 ms after each answer, a
 * customer's answer-link page asked every second, each process's RSS sampled every 100 ms, and
 * what the service saw (the first request, the last answer, lost and sent twice). A row runs
 * against `ctx`: `webhook(path)`, `fake`, `processes` ({ name, pid, healthUrl } of every n8n
 * process) and `answerLink`.
 */
const { BROWSER_AGENT } = require('../../test/helpers/userAgents');
const {
	askAgainAndAgain,
	longestGap,
	longestSilence,
	postJson,
	samplePeakRss,
} = require('./measure');
const { sleep, treeCpuMs } = require('./measure');
const { delivery, eventsFrom } = require('./rows');

const HEALTH_PAUSE_MS = 100;
const LINK_EVERY_MS = 1000;
// The watchers' first answers come before the call, so that a silence from its first moment shows.
const LEAD_IN_MS = 500;

/** Starts every watcher; the function it returns stops them and gives what they saw. */
function startWatching(ctx) {
	const health = ctx.processes.map(({ name, healthUrl }) => [
		name,
		askAgainAndAgain(healthUrl, { nextInMs: () => HEALTH_PAUSE_MS }),
	]);
	const link = askAgainAndAgain(ctx.answerLink, {
		nextInMs: (ask) => LINK_EVERY_MS - (ask.answeredAt - ask.started),
		headers: { 'user-agent': BROWSER_AGENT },
	});
	const rss = samplePeakRss(ctx.processes);
	return async () => {
		const peakRssMb = rss.stop();
		const healthAsks = {};
		for (const [name, asking] of health) healthAsks[name] = await asking.stop();
		return { healthAsks, linkAsks: await link.stop(), peakRssMb };
	};
}

/** n8n's CPU: every process's, with what each started (task runners). */
const cpuOf = (ctx) => ctx.processes.reduce((sum, { pid }) => sum + treeCpuMs(pid), 0);

const RUNNING = 'its worker';

/**
 * What each process was to the row: in queue mode the worker that started an execution after
 * `start` is "its worker", the other "the idle worker", so that runs on either compare; in
 * regular mode every process keeps its name.
 */
function roles(processes, start) {
	const running = processes.find((p) => p.started?.some((s) => s.at >= start));
	return Object.fromEntries(
		processes.map(({ name, started }) => {
			if (!started || !running) return [name, name];
			return [name, started === running.started ? RUNNING : 'the idle worker'];
		}),
	);
}

/** How many times each value came. */
function countBy(values) {
	const counts = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

const since = (start, time) => (time === undefined ? undefined : time - start);

const pids = (ctx) => ctx.processes.map(({ pid }) => pid);

/**
 * --why: per process, its longest stalls after the call (stalls.preload.js; before it, the
 * profiler's own start), each `atMs` after the call.
 */
function whyOf(ctx, byPid, start) {
	const stallsOf = (pid) =>
		(byPid[pid]?.stalls ?? [])
			.map(({ at, ...stall }) => ({ atMs: at - start, ...stall }))
			.filter((stall) => stall.atMs >= 0);
	return Object.fromEntries(ctx.processes.map(({ name, pid }) => [name, stallsOf(pid)]));
}

/**
 * One broadcast through the workflow at `webhookPath` to `config.recipients` recipients. The node
 * under test runs from the call until its last answer from the service (`sends`), or until the
 * marker's request (the rows without sends); after it, until the webhook answers, n8n saves the
 * execution. Silences are reported for both spans apart, per process.
 */
function freezeRow(webhookPath, { sends }) {
	return async (ctx, offset) => {
		const { recipients, latencyMs, limit } = ctx.config;
		const events = eventsFrom(offset, recipients);
		await ctx.fake.ask({ type: 'reset' }, 'reset-done');
		const whyKey = `${webhookPath}-${offset}`;
		await ctx.why?.start(whyKey, pids(ctx));
		const stopWatching = startWatching(ctx);
		await sleep(LEAD_IN_MS);
		const cpu0 = cpuOf(ctx);
		const answer = await postJson(ctx.webhook(webhookPath), { recipients: events });
		const cpuMs = cpuOf(ctx) - cpu0;
		const watched = await stopWatching();
		const { stats } = await ctx.fake.ask({ type: 'stats' }, 'stats');
		const start = answer.started;
		const end = start + answer.ms;
		const nodeEnd = Math.min(end, (sends ? stats.lastAnswerAt : stats.firstRequestAt) ?? end);
		const role = roles(ctx.processes, start);
		const byRole = (figures) =>
			Object.fromEntries(Object.entries(figures).map(([name, v]) => [role[name], v]));
		const silences = (from, to) =>
			byRole(
				Object.fromEntries(
					Object.entries(watched.healthAsks).map(([name, asks]) => [
						name,
						longestSilence(asks, from, to),
					]),
				),
			);
		const linkAsks = watched.linkAsks.filter((a) => a.started >= start && a.started <= nodeEnd);
		const figures = {
			status: answer.status,
			silenceMs: silences(start, nodeEnd),
			// When the longest silence began, after the call: where to look for what held n8n.
			silenceAtMs: byRole(
				Object.fromEntries(
					Object.entries(watched.healthAsks).map(([name, asks]) => [
						name,
						longestGap(asks, start, nodeEnd).at,
					]),
				),
			),
			savingSilenceMs: silences(nodeEnd, end),
			linkLongestMs:
				linkAsks.length > 0
					? Math.max(...linkAsks.map((a) => a.answeredAt - a.started))
					: undefined,
			linkAsks: linkAsks.length,
			linkNot200: countBy(linkAsks.filter((a) => a.status !== 200).map((a) => a.error ?? a.status)),
			executionMs: answer.ms,
			cpuPerMessage: cpuMs / recipients,
			peakRssMb: byRole(watched.peakRssMb),
			ranOn: Object.keys(role).find((name) => role[name] === RUNNING),
			messages: recipients,
		};
		if (ctx.why) figures.why = byRole(whyOf(ctx, await ctx.why.stop(whyKey, pids(ctx)), start));
		if (!sends) return { ...figures, markerMs: since(start, stats.firstRequestAt) };
		const wholeMs = since(start, stats.lastAnswerAt);
		return {
			...figures,
			firstSendMs: since(start, stats.firstSendAt),
			wholeMs,
			ofFloor: wholeMs / ((recipients * latencyMs) / limit),
			tooMany: stats.tooMany,
			accepted: stats.acceptedPhones.length,
			...delivery(stats, events),
		};
	};
}

/** Every row; `sends`: the row sends a message per recipient (the others end in the marker). */
function freezeRowsFor() {
	const row = (label, webhookPath, sends = true) => ({
		kind: 'freeze',
		label,
		sends,
		webhookPath,
		run: freezeRow(webhookPath, { sends }),
	});
	return {
		'node-stop': row('This node, On Error: Stop Workflow (default)', 'freeze-node'),
		'node-errout': row('This node, On Error: Continue (using error output)', 'freeze-node-errout'),
		http: row('HTTP Request 4.2, Batching', 'freeze-http'),
		set: row('Edit Fields (Set), the same two expressions, then the marker', 'freeze-set', false),
		noop: row('No Operation, then the marker (the floor)', 'freeze-noop', false),
	};
}

module.exports = { freezeRowsFor, RUNNING };
