/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suites have their own config (jest.e2e.config.js) and command (npm run test:e2e).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	testTimeout: 30000,
	maxWorkers: 2,
};
