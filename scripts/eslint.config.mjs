/*
 * ESLint for the code that runs on Node and never inside n8n: scripts/, test/ (which extends this
 * config) and the tool configs at the root. ESLint finds this file for scripts/ because `npm run
 * lint` looks up the config nearest each file (ESLINT_FLAGS=unstable_config_lookup_from_file,
 * ESLint 10's default); the root eslint.config.mjs stays n8n's, unchanged, for the package.
 *
 * TypeScript is linted with n8n's config, without the rules for code that runs inside n8n: this
 * code may use Node's modules and globals, the console, child processes and made-up API keys.
 * JavaScript gets ESLint's recommended rules with Node's globals.
 */
import js from '@eslint/js';
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import globals from 'globals';

const rulesForCodeInsideN8n = {
	'@n8n/community-nodes/no-dangerous-functions': 'off',
	'@n8n/community-nodes/no-hardcoded-secrets': 'off',
	'@n8n/community-nodes/no-restricted-globals': 'off',
	'@n8n/community-nodes/no-restricted-imports': 'off',
	'@n8n/community-nodes/require-node-api-error': 'off',
	'no-console': 'off',
};

const javaScriptRules = {
	...js.configs.recommended.rules,
	'no-var': 'error',
	'prefer-const': 'error',
};

export default [
	...n8nConfig,
	{ files: ['**/*.ts'], rules: rulesForCodeInsideN8n },
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: javaScriptRules,
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { sourceType: 'module', globals: globals.node },
		rules: javaScriptRules,
	},
	// A disable comment that no longer disables anything is an error, so none outlives its reason.
	{ linterOptions: { reportUnusedDisableDirectives: 'error' } },
];
