'use strict';
/*
 * The rows of `npm run bench:n8n`: what each sends, and the figures it reports. A row runs against
 * a started n8n (`ctx.webhook(path)`), the fake service (`ctx.fake`) and n8n's process id.
 */
const { callMany, percentile, postJson, sleep, treeCpuMs } = require('./measure');

function eventFor(index) {
	return {
		phone: `+49151${String(index).padStart(7, '0')}`,
		name: `Customer ${index}`,
		order: `ORD-${1000000 + index}`,
		date: `2025-06-${String((index % 28) + 1).padStart(2, '0')}`,
	};
}

function eventsFrom(offset, count) {
	return Array.from({ length: count }, (_, i) => eventFor(offset + i));
}

/** What the service saw of the row's messages: lost (never accepted) and sent twice. */
function delivery(stats, events) {
	const accepted = new Set(stats.acceptedPhones);
	const lost = events.filter((e) => !accepted.has(e.phone)).length;
	return { lost, sentTwice: stats.sentTwice, requestsPerMessage: stats.requests / events.length };
}

/** One CRM delivery: every event its own webhook call, `atOnce` at a time. */
async function crmDelivery(ctx, path, events) {
	const cpu0 = treeCpuMs(ctx.n8nPid);
	const started = Date.now();
	const answers = await callMany(ctx.webhook(path), events, ctx.config.atOnce);
	const wallMs = Date.now() - started;
	const cpuMs = treeCpuMs(ctx.n8nPid) - cpu0;
	const latencies = answers.map((a) => a.ms);
	const failed = answers.filter((a) => a.status !== 200);
	return {
		wallMs,
		p50: percentile(latencies, 50),
		p95: percentile(latencies, 95),
		cpuPerMessage: cpuMs / events.length,
		failedCalls: failed.length,
		firstFailure: failed[0] && `${failed[0].status} ${failed[0].text.slice(0, 300)}`,
	};
}

/** A CRM row: `events` calls; with `redeliver`, the same calls again, sent-twice counted over both. */
function crmRow(path, { redeliver = false } = {}) {
	return async (ctx, offset) => {
		const events = eventsFrom(offset, ctx.config.events);
		await ctx.fake.ask({ type: 'reset' }, 'reset-done');
		const first = await crmDelivery(ctx, path, events);
		const firstStats = (await ctx.fake.ask({ type: 'stats' }, 'stats')).stats;
		const result = {
			...first,
			...delivery(firstStats, events),
			sampleBody: firstStats.sampleBodies[0],
			messages: events.length,
		};
		if (!redeliver) return result;
		const again = await crmDelivery(ctx, path, events);
		const stats = (await ctx.fake.ask({ type: 'stats' }, 'stats')).stats;
		const redelivery = {
			...again,
			sentTwice: stats.sentTwice,
			requests: stats.requests - firstStats.requests,
		};
		return { ...result, messages: 2 * events.length, redelivery };
	};
}

/** A broadcast row: one webhook call with `recipients` items, split out into one item each. */
function broadcastRow(path, recipients) {
	return async (ctx, offset) => {
		const events = eventsFrom(offset, recipients);
		await ctx.fake.ask({ type: 'reset' }, 'reset-done');
		const cpu0 = treeCpuMs(ctx.n8nPid);
		const answer = await postJson(ctx.webhook(path), { recipients: events });
		const cpuMs = treeCpuMs(ctx.n8nPid) - cpu0;
		const stats = (await ctx.fake.ask({ type: 'stats' }, 'stats')).stats;
		const floorMs = (recipients * ctx.config.latencyMs) / ctx.config.limit;
		return {
			wallMs: answer.ms,
			ofFloor: answer.ms / floorMs,
			status: answer.status,
			cpuPerMessage: cpuMs / recipients,
			firstRequestMs:
				stats.firstRequestAt === undefined ? undefined : stats.firstRequestAt - answer.started,
			firstSendMs: stats.firstSendAt === undefined ? undefined : stats.firstSendAt - answer.started,
			// The wall from the first request to the service: what the pacer answers for (before it,
			// n8n evaluates the items).
			ofFloorFromFirstSend:
				stats.firstSendAt === undefined
					? undefined
					: (answer.started + answer.ms - stats.firstSendAt) / floorMs,
			averageInFlight: stats.averageInFlight,
			averageServing: stats.averageServing,
			belowLimitAfterBurstMs: stats.belowLimitAfterBurstMs,
			tooMany: stats.tooMany,
			accepted: stats.acceptedPhones.length,
			messages: recipients,
			...delivery(stats, events),
		};
	};
}

/** The bench's events as examples/ask-many-parent.json takes customers. */
const askedCustomers = (events) =>
	events.map((e) => ({
		phone: e.phone,
		name: e.name,
		appointment: e.date,
		appointmentId: e.order,
	}));

/**
 * Calls the ask-many parent at `webhookPath` (it answers at once) and waits until the service has
 * accepted a message for every customer: resolves with the service's figures and when it started.
 */
async function askAll(ctx, webhookPath, customers) {
	await ctx.fake.ask({ type: 'reset' }, 'reset-done');
	const answer = await postJson(ctx.webhook(webhookPath), { customers });
	const deadline = Date.now() + 600_000;
	for (;;) {
		const { stats } = await ctx.fake.ask({ type: 'stats' }, 'stats');
		if (stats.acceptedPhones.length >= customers.length || Date.now() > deadline)
			return { stats, answer };
		await sleep(200);
	}
}

/** An ask-many row: `count` customers, each asked in an execution of its own. */
function askRow(webhookPath, count) {
	return async (ctx, offset) => {
		const events = eventsFrom(offset, count);
		const cpu0 = treeCpuMs(ctx.n8nPid);
		const { stats, answer } = await askAll(ctx, webhookPath, askedCustomers(events));
		return {
			// From the parent's webhook call to the service's answer to the last message.
			wallMs: stats.lastAnswerAt - answer.started,
			status: answer.status,
			cpuPerMessage: (treeCpuMs(ctx.n8nPid) - cpu0) / count,
			firstSendMs: stats.firstSendAt - answer.started,
			tooMany: stats.tooMany,
			accepted: stats.acceptedPhones.length,
			messages: count,
			...delivery(stats, events),
		};
	};
}

/**
 * Every row: `messages` per run, and the row the ratio is taken against (`baseline`).
 * Broadcast rows exist per recipient count (--recipients).
 */
function rowsFor(config) {
	const rows = {
		'crm-http': { kind: 'crm', label: 'CRM: HTTP Request 4.2', run: crmRow('crm-http') },
		'crm-node': {
			kind: 'crm',
			label: 'CRM: this node',
			run: crmRow('crm-node'),
			baseline: 'crm-http',
		},
		'crm-node-key': {
			kind: 'crm',
			label: 'CRM: this node, send-once key (+ redelivery)',
			run: crmRow('crm-node-key', { redeliver: true }),
			baseline: 'crm-http',
		},
		'crm-dedup': {
			kind: 'crm',
			label: 'CRM: Remove Duplicates → HTTP Request (+ redelivery)',
			run: crmRow('crm-dedup', { redeliver: true }),
			baseline: 'crm-http',
		},
	};
	for (const n of config.recipients) {
		rows[`bcast-node-${n}`] = {
			kind: 'broadcast',
			label: `Broadcast ${n}: this node`,
			run: broadcastRow('bcast-node', n),
		};
	}
	if (config.recipients.length > 0) {
		const n = config.recipients[0];
		rows[`bcast-http-${n}`] = {
			kind: 'broadcast',
			label: `Broadcast ${n}: HTTP Request`,
			run: broadcastRow('bcast-http', n),
		};
	}
	for (const n of config.asks) {
		rows[`ask-http-${n}`] = {
			kind: 'ask',
			label: `Ask ${n} customers, sub-workflow with HTTP Request (no waiting)`,
			run: askRow('ask-http', n),
		};
		rows[`ask-node-${n}`] = {
			kind: 'ask',
			label: `Ask ${n} customers, sub-workflow with this node's Send and Wait`,
			run: askRow('ask-node', n),
			baseline: `ask-http-${n}`,
		};
		rows[`ask-nokey-${n}`] = {
			kind: 'ask',
			label: `Ask ${n} customers, this node without the send-once key`,
			run: askRow('ask-nokey', n),
			baseline: `ask-http-${n}`,
		};
	}
	return rows;
}

module.exports = { rowsFor, eventsFrom, delivery, askAll, askedCustomers };
