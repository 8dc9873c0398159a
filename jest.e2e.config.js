/**
 * End-to-end tests in a real n8n (test/e2e/*.e2e.js): `npm run test:e2e`.
 * Kept apart from the unit tests (jest.config.js), which never pick these files up.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.js'],
	transform: {},
	// Installs the pinned n8n into .n8n-dev/n8n when it is not there yet (about 5 minutes, once).
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	// One n8n at a time: the machine has 2 cores and each n8n process takes one.
	// Stops by pid what a test file started and left running (a stack that failed to start).
	setupFilesAfterEnv: ['<rootDir>/test/helpers/stopProcesses.js'],
	// A handle left open (a socket, a timer) must not keep a finished run waiting until CI's limit;
	// processes.js kills what it started when jest exits, and .ci/run reports any other server.
	forceExit: true,
	maxWorkers: 1,
	testTimeout: 90_000,
	verbose: true,
};
