'use strict';
const { QUEUE_DIR, stopRecorded } = require('../../scripts/lib/queue');

/** The backstop when a test process died before its afterAll: whatever is still recorded is stopped by pid. */
module.exports = async function globalTeardown() {
	const log = (line) => process.stderr.write(`${line}\n`);
	const stopped = await stopRecorded(QUEUE_DIR, { log });
	if (stopped.length)
		log(
			`(stopped ${stopped.length} leftover process(es): ${stopped.map((e) => e.name).join(', ')})`,
		);
};
