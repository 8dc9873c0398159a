'use strict';
const { ensureN8n } = require('../../scripts/lib/n8n');
const { QUEUE_DIR, ensureQueueServices, stopRecorded } = require('../../scripts/lib/queue');

module.exports = async function globalSetup() {
	const log = (line) => process.stderr.write(`${line}\n`);
	// A run that was killed before its teardown may have left servers running: stop them by pid.
	await stopRecorded(QUEUE_DIR, { log });
	const { installed, seconds } = await ensureN8n({ log, quiet: process.env.CI !== 'true' });
	if (installed) log(`(n8n install took ${seconds} s)`);
	ensureQueueServices({ log });
};
