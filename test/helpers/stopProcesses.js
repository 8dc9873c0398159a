'use strict';
/*
 * After each end-to-end test file: whatever it started through scripts/lib/processes.js and did
 * not stop (a stack whose start failed half-way, an afterAll that never got its handle) is stopped
 * by pid, so that no n8n, worker, Redis or Postgres outlives the file and jest never waits on one.
 */
const { stopAll } = require('../../scripts/lib/processes');

afterAll(async () => {
	await stopAll();
}, 60_000);
