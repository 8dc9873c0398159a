'use strict';
/*
 * The fake service in a process of its own, so that its 100 ms latency and its limit of requests
 * in flight are kept by its own event loop, not by the test process's. Started with fork() by
 * process.js; talks over IPC:
 *   child -> parent  { type: 'listening', url }
 *   parent -> child  { type: 'snapshot', id } -> { type: 'snapshot', id, requests, inFlight,
 *                                             peakInFlight, idleClosedAt }
 *   parent -> child  { type: 'reset', id }    -> { type: 'reset', id }
 *   parent -> child  { type: 'stop' }          (closes the server and exits)
 * Options come as one JSON argument: { apiKey, latencyMs, concurrencyLimit, idleTimeoutMs }.
 */
const { serveFakeServiceOverIpc } = require('./child');

const PREFIX = '/stable/open';

/** What the tests read of a request, small enough to send over IPC by the thousand. */
function compact(record, apiKey) {
	return {
		method: record.method,
		path: record.path.startsWith(PREFIX) ? record.path.slice(PREFIX.length) : record.path,
		// Set when the answer is written, also when the client has gone away in the meantime.
		status: record.status ?? null,
		time: record.time,
		inFlight: record.inFlight ?? null,
		phone: record.body?.customer_phone ?? null,
		// Text messages (send and wait's review message): to whom, and the text with its links.
		customerId: record.body?.customer_id ?? null,
		text: record.body?.text ?? null,
		attributes: record.body?.attributes ?? null,
		apiKeyMatches: record.headers['x-service-api-key'] === apiKey,
	};
}

serveFakeServiceOverIpc({
	snapshot: (fake, message) => ({
		type: 'snapshot',
		id: message.id,
		requests: fake.requests.map((r) => compact(r, fake.apiKey)),
		inFlight: fake.inFlight,
		peakInFlight: fake.peakInFlight,
		idleClosedAt: fake.idleClosedAt,
	}),
	reset: (fake, message) => {
		fake.reset();
		return { type: 'reset', id: message.id };
	},
});
