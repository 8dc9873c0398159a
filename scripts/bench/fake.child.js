'use strict';
/*
 * The fake service for `npm run bench:n8n`, in a process of its own so that its event loop and
 * the bench driver's never wait on each other. One argument: JSON { latencyMs, concurrencyLimit,
 * retryAfter, admitJitterMs }.
 * IPC: parent -> { type: 'reset' } -> { type: 'reset-done' }; { type: 'stats' } -> { type: 'stats', stats };
 * { type: 'stop' } closes and exits. Sends to the template path are counted per phone.
 */
const path = require('node:path');

const { repeatsOf, serveFakeServiceOverIpc } = require(
	path.join(__dirname, '..', '..', 'test', 'fake-service', 'child'),
);

const SEND_PATH = '/stable/open/whatsapp/send-template-message';

function statsOf(fake) {
	const accepted = new Map();
	const bodies = new Set();
	let sends = 0;
	let tooMany = 0;
	let acceptedBusyMs = 0;
	let firstRequestAt;
	let firstSendAt;
	let lastAnswerAt;
	for (const r of fake.requests) {
		firstRequestAt ??= r.time;
		if (r.method !== 'POST' || r.path !== SEND_PATH) continue;
		sends += 1;
		firstSendAt ??= r.time;
		if (r.status === 429) tooMany += 1;
		if (typeof r.status === 'number' && r.status >= 200 && r.status < 300) {
			const phone = String(r.body?.customer_phone ?? '');
			accepted.set(phone, (accepted.get(phone) ?? 0) + 1);
			acceptedBusyMs += fake.latencyMs;
			lastAnswerAt = Math.max(lastAnswerAt ?? 0, r.time + fake.latencyMs);
			if (bodies.size < 3) bodies.add(r.rawBody);
		}
	}
	const sentTwice = repeatsOf(accepted);
	return {
		requests: fake.requests.length,
		sends,
		tooMany,
		acceptedPhones: [...accepted.keys()],
		sentTwice,
		peakInFlight: fake.peakInFlight,
		// Accepted requests' time at the service ÷ the span from the first send to the last answer.
		averageInFlight:
			firstSendAt && lastAnswerAt ? acceptedBusyMs / (lastAnswerAt - firstSendAt) : 0,
		// Time-weighted, from the first admitted request to the last answer; and after the first 429.
		...fake.occupancyFigures(),
		firstRequestAt,
		firstSendAt,
		lastAnswerAt,
		sampleBodies: [...bodies],
	};
}

serveFakeServiceOverIpc(
	{
		reset: (fake) => {
			fake.reset();
			return { type: 'reset-done' };
		},
		stats: (fake) => ({ type: 'stats', stats: statsOf(fake) }),
	},
	(fake, url) => ({ url, apiKey: fake.apiKey }),
);
