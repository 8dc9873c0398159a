/**
 * n8n's queue mode (test/queue/*.e2e.js): a main instance and two workers on Redis and Postgres,
 * started and stopped by the tests themselves. `npm run test:queue`.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.e2e.js'],
	transform: {},
	// Installs the pinned n8n when missing, and Redis and Postgres from Debian's packages when missing.
	globalSetup: '<rootDir>/test/queue/global-setup.js',
	// Stops by pid whatever a test process that died early left running.
	globalTeardown: '<rootDir>/test/queue/global-teardown.js',
	// Stops by pid what a test file started and left running (a stack that failed to start).
	setupFilesAfterEnv: ['<rootDir>/test/helpers/stopProcesses.js'],
	// A handle left open (a socket, a timer) must not keep a finished run waiting until CI's limit;
	// processes.js kills what it started when jest exits, and .ci/run reports any other server.
	forceExit: true,
	maxWorkers: 1,
	testTimeout: 300_000,
	verbose: true,
};
