'use strict';
/* The summary of `npm run bench:n8n`: per row, median (min–max) over the runs. */
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

module.exports = { report };
