/*
 * What ESLint loads: it looks for eslint.config.js before eslint.config.mjs. eslint.config.mjs is
 * n8n's default config, word for word, because `n8n-node lint` in strict mode checks that; this
 * file takes that config as it is for the package (nodes/, credentials/) and adds rules for the
 * code that runs on Node and never inside n8n: scripts/, test/ and the tool configs at the root.
 *
 * That code is TypeScript linted with n8n's config minus the rules for code that runs inside n8n
 * (it may use Node's modules and globals, the console, child processes and made-up API keys), and
 * JavaScript linted with ESLint's recommended rules, with Node's globals and, in test/, jest's.
 */
module.exports = (async () => {
	const { default: js } = await import('@eslint/js');
	const { default: globals } = await import('globals');
	const { default: n8nConfig } = await import('./eslint.config.mjs');

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

	return [
		// What tests and benchmarks leave behind (git ignores them too).
		{ ignores: ['.tmp/', '.n8n-dev/', 'coverage/'] },
		...n8nConfig,
		{ files: ['scripts/**/*.ts', 'test/**/*.ts'], rules: rulesForCodeInsideN8n },
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
		{ files: ['test/**/*.{js,cjs,mjs}'], languageOptions: { globals: globals.jest } },
		// A disable comment that no longer disables anything is an error, so none outlives its reason.
		{ linterOptions: { reportUnusedDisableDirectives: 'error' } },
	];
})();
