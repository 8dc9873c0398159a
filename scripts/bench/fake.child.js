'use strict';
/*
 * The fake service for `npm run bench:n8n`, in a process of its own so that its event loop and
 * the bench driver's never wait on each other. One argument: JSON { latencyMs, concurrencyLimit, apiKey }.
 * IPC: parent -> { type: 'reset' } -> { type: 'reset-done' }; { type: 'stats' } -> { type: 'stats', stats };
 * { type: 'stop' } closes and exits. Sends to the template path are counted per phone.
 */
const path = require('node:path');

const { FakeService } = require(path.join(__dirname, '..', '..', 'test', 'fake-service'));

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
	let sentTwice = 0;
	for (const n of accepted.values()) sentTwice += n - 1;
	return {
		requests: fake.requests.length,
		sends,
		tooMany,
		acceptedPhones: [...accepted.keys()],
		sentTwice,
		peakInFlight: fake.peakInFlight,
		// Accepted requests' time at the service ÷ the span from the first send to the last answer.
		averageInFlight: firstSendAt && lastAnswerAt ? acceptedBusyMs / (lastAnswerAt - firstSendAt) : 0,
		firstRequestAt,
		firstSendAt,
		sampleBodies: [...bodies],
	};
}

async function main() {
	const options = JSON.parse(process.argv[2] ?? '{}');
	const fake = new FakeService(options);
	const url = await fake.start(0, '127.0.0.1');
	process.on('message', (message) => {
		if (message.type === 'reset') {
			fake.reset();
			process.send({ type: 'reset-done' });
		} else if (message.type === 'stats') {
			process.send({ type: 'stats', stats: statsOf(fake) });
		} else if (message.type === 'stop') {
			void fake.close().then(() => process.exit(0));
		}
	});
	process.on('disconnect', () => process.exit(0));
	process.send({ type: 'listening', url, apiKey: fake.apiKey });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
