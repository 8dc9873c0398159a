/*
 * ESLint for test/: the config of scripts/ (Node code that never runs inside n8n), with jest's
 * globals. `npm run lint` finds this file for everything under test/ (see scripts/eslint.config.mjs).
 */
import globals from 'globals';

import nodeCode from '../scripts/eslint.config.mjs';

export default [
	...nodeCode,
	{ files: ['**/*.js', '**/*.cjs', '**/*.mjs'], languageOptions: { globals: globals.jest } },
];
