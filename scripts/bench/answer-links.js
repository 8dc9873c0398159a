'use strict';
/*
 * npm run bench:answer-links: the answer-link tests at scale. test/e2e/answerLinks.e2e.js runs the
 * checks of test/helpers/answerLinksAtScale.js on 24 customers in `npm run test:e2e`; here on
 * 5,000 customers, 1,000 answering (50 of them in Chromium), 3 runs of each broadcast and answer
 * leg, in n8n 2.41.1 (N8N_PIN=1.x: 1.123.81). It prints its figures as JSON at the end: per run
 * the time until the last message was out with and without links, their ratio, the database's
 * growth, and the answers' and the Form Trigger's times. `--help` for the options.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const HELP = `npm run bench:answer-links -- [options]
  --customers N    customers the broadcast goes to (default 5000)
  --answered N     of them, how many answer (default 1000)
  --in-browser N   of those, how many tap their choice in Chromium (default 50)
  --runs N         runs of each broadcast, and parts of the answers, alternating (default 3)
N8N_PIN=1.x runs it on n8n 1.123.81.`;

const DEFAULTS = { customers: 5000, answered: 1000, 'in-browser': 50, runs: 3 };

function parse(argv) {
	const options = { ...DEFAULTS };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		if (flag === '--help') return { help: true };
		const name = flag.slice(2);
		if (!flag.startsWith('--') || !(name in DEFAULTS))
			throw new Error(`unknown option ${flag}\n${HELP}`);
		const value = Number(argv[++i]);
		if (!Number.isInteger(value) || value <= 0) throw new Error(`${flag} takes a number`);
		options[name] = value;
	}
	return options;
}

function main() {
	const options = parse(process.argv.slice(2));
	if (options.help) return console.log(HELP);
	const env = {
		...process.env,
		ANSWER_LINKS_CUSTOMERS: String(options.customers),
		ANSWER_LINKS_ANSWERED: String(options.answered),
		ANSWER_LINKS_IN_BROWSER: String(options['in-browser']),
		ANSWER_LINKS_RUNS: String(options.runs),
	};
	const jest = require.resolve('jest/bin/jest', { paths: [REPO] });
	const args = ['-c', 'jest.e2e.config.js', 'test/e2e/answerLinks.e2e.js'];
	const run = spawnSync(process.execPath, [jest, ...args], { cwd: REPO, env, stdio: 'inherit' });
	process.exitCode = run.status ?? 1;
}

main();
