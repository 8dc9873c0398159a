'use strict';
/* The summaries of `npm run bench:n8n` and `npm run bench:freeze`: per row, median (min–max) over the runs. */
const { RUNNING } = require('./freezeRows');
const { spread } = require('./measure');

/** The row's figure divided by its baseline row's, run by run (same n8n, same run). */
function ratios(results, rowId, baseline, figure) {
	return results
		.filter((r) => r.rowId === rowId)
		.map((r) => {
			const base = results.find((b) => b.rowId === baseline && b.run === r.run);
			return base ? figure(r) / figure(base) : undefined;
		});
}

function crmLine(row, rowId, runs, results) {
	const of = (f) => runs.map(f);
	const parts = [
		`wall ${spread(of((r) => r.wallMs))} ms`,
		`p50 ${spread(of((r) => r.p50))} / p95 ${spread(of((r) => r.p95))} ms`,
		`requests/message ${spread(
			of((r) => r.requestsPerMessage),
			3,
		)}`,
		`CPU/message ${spread(
			of((r) => r.cpuPerMessage),
			1,
		)} ms`,
		`lost ${spread(of((r) => r.lost))}`,
		`failed calls ${spread(of((r) => r.failedCalls))}`,
	];
	if (row.baseline) {
		parts.push(
			`wall ÷ ${row.baseline} ${spread(
				ratios(results, rowId, row.baseline, (r) => r.wallMs),
				2,
			)}`,
		);
		parts.push(
			`CPU ÷ ${row.baseline} ${spread(
				ratios(results, rowId, row.baseline, (r) => r.cpuPerMessage),
				2,
			)}`,
		);
	}
	if (runs[0].redelivery) {
		parts.push(
			`redelivery: sent twice ${spread(of((r) => r.redelivery.sentTwice))}, requests ` +
				`${spread(of((r) => r.redelivery.requests))}, wall ` +
				`${spread(of((r) => r.redelivery.wallMs))} ms`,
		);
	}
	return parts.join('; ');
}

function broadcastLine(runs) {
	const of = (f) => runs.map(f);
	return [
		`wall ${spread(of((r) => r.wallMs))} ms`,
		`÷ floor ${spread(
			of((r) => r.ofFloor),
			2,
		)}`,
		`from the first send ÷ floor ${spread(
			of((r) => r.ofFloorFromFirstSend),
			2,
		)}`,
		`first request ${spread(of((r) => r.firstRequestMs))} ms, first send ${spread(of((r) => r.firstSendMs))} ms`,
		`in flight ${spread(
			of((r) => r.averageInFlight),
			1,
		)} (time-weighted ${spread(
			of((r) => r.averageServing),
			1,
		)})`,
		`below the limit after the first 429 ${spread(of((r) => r.belowLimitAfterBurstMs))} ms`,
		...deliveryParts(of),
		`answer ${[...new Set(of((r) => r.status))].join('/')}`,
	].join('; ');
}

/** What a broadcast or ask-many row's messages met: 429s, n8n's CPU, and what the service accepted. */
function deliveryParts(of) {
	return [
		`429s ${spread(of((r) => r.tooMany))}`,
		`CPU/message ${spread(
			of((r) => r.cpuPerMessage),
			1,
		)} ms`,
		`accepted ${spread(of((r) => r.accepted))}, lost ${spread(of((r) => r.lost))}, sent twice ` +
			`${spread(of((r) => r.sentTwice))}`,
	];
}

/** An ask-many row: until the last question is out, and against its baseline (HTTP Request). */
function askLine(row, rowId, runs, results) {
	const of = (f) => runs.map(f);
	const parts = [
		`all out ${spread(of((r) => r.wallMs))} ms`,
		`first send ${spread(of((r) => r.firstSendMs))} ms`,
		...deliveryParts(of),
	];
	if (row.baseline) {
		const each = ratios(results, rowId, row.baseline, (r) => r.wallMs);
		parts.push(
			`÷ ${row.baseline} ${spread(each, 2)} [${each.map((v) => v?.toFixed(2)).join(', ')}]`,
		);
	}
	return parts.join('; ');
}

/** What the row's nodes asked of n8n per message (--count), the median over the runs. */
function asksLine(runs) {
	const nodes = new Set(runs.flatMap((r) => Object.keys(r.asksPerMessage ?? {})));
	const parts = [...nodes].map((node) => {
		const whats = new Set(runs.flatMap((r) => Object.keys(r.asksPerMessage?.[node] ?? {})));
		const figures = [...whats].map(
			(what) =>
				`${what} ${spread(
					runs.map((r) => r.asksPerMessage?.[node]?.[what] ?? 0),
					2,
				)}`,
		);
		return `${node}: ${figures.join(', ')}`;
	});
	return parts.length > 0 ? `\n  asked of n8n per message: ${parts.join('; ')}` : '';
}

function report(config, rows, results) {
	console.log(
		`\n== summary: median (min–max) of ${config.runs} run(s); CRM ${config.events} calls, ${config.atOnce} at once; ` +
			`service ${config.latencyMs} ms, ${config.limit} in flight (429 with Retry-After: ${config.retryAfter} above)`,
	);
	for (const [rowId, row] of Object.entries(rows)) {
		const runs = results.filter((r) => r.rowId === rowId);
		if (runs.length === 0) continue;
		const line =
			row.kind === 'crm'
				? crmLine(row, rowId, runs, results)
				: row.kind === 'ask'
					? askLine(row, rowId, runs, results)
					: broadcastLine(runs);
		console.log(`${row.label} [${rowId}]\n  ${line}${asksLine(runs)}`);
	}
	const bodies = new Set(
		results
			.filter((r) => r.sampleBody && /crm-(node|http)$/.test(r.rowId))
			.map((r) => r.sampleBody.replace(/\+49151\d{7}|Customer \d+|ORD-\d+|2025-06-\d+/g, 'N')),
	);
	console.log(
		`request bodies of the node and HTTP Request rows, numbers masked: ` +
			`${bodies.size === 1 ? 'the same shape' : [...bodies].join(' | ')}`,
	);
}

/** A figure per n8n process ("n8n", or "main", "worker-1", …): each process's spread, named when several. */
function perProcess(runs, figure, digits = 0) {
	const rank = (name) => (name === 'main' ? 0 : name === RUNNING ? 1 : 2);
	const names = [...new Set(runs.flatMap((r) => Object.keys(figure(r) ?? {})))].sort(
		(a, b) => rank(a) - rank(b),
	);
	const each = names.map((name) =>
		spread(
			runs.map((r) => figure(r)?.[name]),
			digits,
		),
	);
	return names.length === 1 ? each[0] : names.map((name, i) => `${name} ${each[i]}`).join(', ');
}

/** The highest of a per-process figure ({ name: value }): the process that ran the row. */
const highest = (perProcessFigure) => Math.max(...Object.values(perProcessFigure ?? {}));

/** --why: each run's longest stall of each process, and what ran in it (stalls.preload.js). */
function whyLines(runs) {
	const lines = [];
	for (const run of runs) {
		for (const [name, stalls] of Object.entries(run.why ?? {})) {
			const [longest] = stalls;
			if (!longest) {
				lines.push(`run ${run.run + 1}, ${name}: no stall of 50 ms or more`);
				continue;
			}
			const parts = (figures) =>
				Object.entries(figures)
					.map(([what, ms]) => `${what} ${ms}`)
					.join(', ');
			lines.push(
				`run ${run.run + 1}, ${name}: longest stall ${longest.ms} ms, ` +
					`${(longest.atMs / 1000).toFixed(1)} s after the call: ${parts(longest.bySource)} ms; ` +
					`busiest ${parts(longest.busiest)} ms`,
			);
		}
	}
	return lines;
}

/** --baseline: each node row's figures ÷ the baseline build's, run by run (freeze.js). */
function baselineLines(rows, results) {
	const lines = [];
	for (const [rowId, row] of Object.entries(rows)) {
		if (!row.comparedWith) continue;
		const of = (figure) => spread(ratios(results, row.comparedWith, rowId, figure), 2);
		lines.push(
			`${row.comparedWith} ÷ the baseline build's, run by run: whole broadcast ` +
				`${of((r) => r.wholeMs)}; first message out ${of((r) => r.firstSendMs)}; CPU/message ` +
				`${of((r) => r.cpuPerMessage)}; peak RSS ${of((r) => highest(r.peakRssMb))}; longest ` +
				`silence ${of((r) => highest(r.silenceMs))}`,
		);
	}
	return lines;
}

/** The cells of a freeze row, in the table's order. */
function freezeCells(row, runs) {
	const of = (f, digits = 0) => spread(runs.map(f), digits);
	const sent = row.sends;
	return [
		perProcess(runs, (r) => r.silenceMs),
		perProcess(runs, (r) => r.savingSilenceMs),
		of((r) => r.linkLongestMs),
		sent ? of((r) => r.firstSendMs) : `marker ${of((r) => r.markerMs)}`,
		sent ? of((r) => r.wholeMs) : '–',
		of((r) => r.cpuPerMessage, 2),
		perProcess(runs, (r) => r.peakRssMb),
		sent ? `${of((r) => r.lost)} / ${of((r) => r.sentTwice)}` : '–',
	];
}

/** The answer page's asks that got no 200, summed over the runs by status or error. */
function notAnswered(runs) {
	const total = {};
	for (const run of runs)
		for (const [what, n] of Object.entries(run.linkNot200 ?? {}))
			total[what] = (total[what] ?? 0) + n;
	const parts = Object.entries(total).map(([what, n]) => `${n} × ${what}`);
	return parts.length > 0 ? parts.join(', ') : '0';
}

const FREEZE_COLUMNS = [
	'row',
	'longest silence while it runs (ms)',
	'while n8n saves (ms)',
	'answer page, slowest (ms)',
	'first message out (ms)',
	'whole broadcast (ms)',
	'CPU/message (ms)',
	'peak RSS (MB)',
	'lost / sent twice',
];

/**
 * The check's time beside Edit Fields', run by run: webhook call → the node's first send (Stop
 * Workflow) against call → the marker after Edit Fields, each less the No Operation row's marker.
 */
function checkRatios(results) {
	return results
		.filter((r) => r.rowId === 'node-stop')
		.map((node) => {
			const same = (rowId) => results.find((r) => r.rowId === rowId && r.run === node.run);
			const set = same('set');
			const noop = same('noop');
			if (!set || !noop) return undefined;
			return {
				raw: node.firstSendMs / set.markerMs,
				lessFloor: (node.firstSendMs - noop.markerMs) / (set.markerMs - noop.markerMs),
			};
		})
		.filter(Boolean);
}

function freezeReport(config, rows, results) {
	console.log(
		`\n== summary: median (min–max) of ${config.runs} run(s); ${config.recipients} recipients; ` +
			`service ${config.latencyMs} ms, ${config.limit} in flight (429 above); HTTP Request ` +
			`batches of ${config.limit} every ${config.httpIntervalMs} ms`,
	);
	const table = [];
	for (const [rowId, row] of Object.entries(rows)) {
		const runs = results.filter((r) => r.rowId === rowId);
		if (runs.length === 0) continue;
		const cells = freezeCells(row, runs);
		table.push([`${row.label} [${rowId}]`, ...cells]);
		const of = (f, digits = 0) => spread(runs.map(f), digits);
		const more = [
			`call → webhook answer ${of((r) => r.executionMs)} ms`,
			`answer-page asks ${of((r) => r.linkAsks)}, not 200 ${notAnswered(runs)}`,
		];
		if (row.sends)
			more.push(
				`whole ÷ floor ${of((r) => r.ofFloor, 2)}`,
				`429s ${of((r) => r.tooMany)}`,
				`accepted ${of((r) => r.accepted)}`,
			);
		more.push(`answer ${[...new Set(runs.map((r) => r.status))].join('/')}`);
		console.log(`${row.label} [${rowId}]\n  ${more.join('; ')}`);
		for (const line of whyLines(runs)) console.log(`  ${line}`);
	}
	for (const line of baselineLines(rows, results)) console.log(line);
	const ratios = checkRatios(results);
	if (ratios.length > 0)
		console.log(
			`check ÷ Edit Fields (call → first send ÷ call → marker): ` +
				`${spread(
					ratios.map((r) => r.raw),
					2,
				)}; each less No Operation's: ${spread(
					ratios.map((r) => r.lessFloor),
					2,
				)}`,
		);
	const line = (cells) => `| ${cells.join(' | ')} |`;
	console.log(
		['', line(FREEZE_COLUMNS), line(FREEZE_COLUMNS.map(() => '---')), ...table.map(line)].join(
			'\n',
		),
	);
}

module.exports = { report, freezeReport };
