'use strict';
/*
 * An answer link sealed with the built package's own token code (dist/), as a send under
 * `apiKey` seals it: for a customer's phone and reference, valid for a day. No test framework
 * needed (the benchmarks use it too).
 */
const path = require('node:path');

const n8n = require('../../scripts/lib/n8n');

function sealedLink(triggerUrl, customer, apiKey) {
	const token = require(
		path.join(n8n.REPO_ROOT, 'dist', 'nodes', 'OmnichannelMessaging', 'answerLinks', 'token.js'),
	);
	const key = token.linkKey(apiKey, triggerUrl.split('/').pop());
	const now = new Date();
	const facts = {
		recipient: { phone: customer.phone },
		reference: customer.appointmentId,
		sentAt: now,
		expiresAt: new Date(now.getTime() + 86_400_000),
	};
	return `${triggerUrl}?a=${token.sealLink(facts, key)}`;
}

module.exports = { sealedLink };
