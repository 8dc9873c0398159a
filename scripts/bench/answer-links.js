'use strict';
/*
 * npm run bench:answer-links: the answer-link tests at scale. test/e2e/answerLinks.e2e.js runs the
 * checks of test/helpers/answerLinksAtScale.js on 24 customers in `npm run test:e2e`; here on
 * 5,000 customers, 1,000 answering (50 of them in Chromium), 3 runs of each broadcast and answer
 * leg, in n8n 2.41.1 (N8N_PIN=1.x: 1.123.81). It prints its figures as JSON at the end: per run
 * the time until the last message was out with and without links, their ratio, the database's
 * growth, and the answers' and the Form Trigger's times. `--junk` runs the junk-link legs of
 * test/helpers/junkLinks.js instead (n8n's CPU per leg, as a ratio to valid page views), `--pages`
 * the answer pages' time to first byte and bytes (test/helpers/answerPageCosts.js). `--help`.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const HELP = `npm run bench:answer-links -- [options]
  --customers N    customers the broadcast goes to (default 5000)
  --answered N     of them, how many answer (default 1000)
  --in-browser N   of those, how many tap their choice in Chromium (default 50)
  --runs N         runs of each broadcast, and parts of the answers, alternating (default 3)
  --junk           instead: junk requests to a trigger, in legs beside valid page views
    --requests N   requests of each kind a leg (default 500)
    --answers N    real answers among them, each leg (default 10)
    --runs N       runs of the legs (default 3)
  --pages          instead: each answer page's time to first byte and bytes
    --fetches N    fetches of each page a run, one at a time (default 20)
    --runs N       runs (default 5)
N8N_PIN=1.x runs it on n8n 1.123.81.`;

const MODES = {
	scale: {
		test: 'answer links at scale',
		defaults: { customers: 5000, answered: 1000, 'in-browser': 50, runs: 3 },
		env: { customers: 'ANSWER_LINKS_CUSTOMERS', answered: 'ANSWER_LINKS_ANSWERED' },
	},
	junk: {
		test: 'junk links',
		defaults: { requests: 500, answers: 10, runs: 3 },
		env: {
			requests: 'JUNK_LINKS_REQUESTS',
			answers: 'JUNK_LINKS_ANSWERS',
			runs: 'JUNK_LINKS_RUNS',
		},
	},
	pages: {
		test: 'answer pages',
		defaults: { fetches: 20, runs: 5 },
		env: { fetches: 'ANSWER_PAGES_FETCHES', runs: 'ANSWER_PAGES_RUNS' },
	},
};
Object.assign(MODES.scale.env, {
	'in-browser': 'ANSWER_LINKS_IN_BROWSER',
	runs: 'ANSWER_LINKS_RUNS',
});

function parse(argv) {
	const mode = argv.includes('--junk') ? 'junk' : argv.includes('--pages') ? 'pages' : 'scale';
	const { defaults } = MODES[mode];
	const options = { ...defaults };
	const rest = argv.filter((flag) => flag !== `--${mode}`);
	for (let i = 0; i < rest.length; i++) {
		const flag = rest[i];
		if (flag === '--help') return { help: true };
		const name = flag.slice(2);
		if (!flag.startsWith('--') || !(name in defaults))
			throw new Error(`unknown option ${flag}\n${HELP}`);
		const value = Number(rest[++i]);
		if (!Number.isInteger(value) || value <= 0) throw new Error(`${flag} takes a number`);
		options[name] = value;
	}
	return { mode, options };
}

function main() {
	const { help, mode, options } = parse(process.argv.slice(2));
	if (help) return console.log(HELP);
	const env = { ...process.env };
	for (const [name, variable] of Object.entries(MODES[mode].env))
		env[variable] = String(options[name]);
	const jest = require.resolve('jest/bin/jest', { paths: [REPO] });
	const args = ['-c', 'jest.e2e.config.js', 'test/e2e/answerLinks.e2e.js'];
	// The other modes run only their own tests, in the file's n8n.
	if (mode !== 'scale') args.push('-t', MODES[mode].test);
	const run = spawnSync(process.execPath, [jest, ...args], { cwd: REPO, env, stdio: 'inherit' });
	process.exitCode = run.status ?? 1;
}

main();
