'use strict';
/*
 * npm run bench:ask-many and npm run bench:ask-many:queue: the ask-many tests at scale. The same
 * checks as `npm run test:e2e` and `npm run test:queue` run on 8 customers (test/helpers/askMany.js,
 * on examples/ask-many-*.json as shipped): here 500 customers, 300 answering, a 7-minute wait limit
 * in n8n 2.41.1 (N8N_PIN=1.x: 1.123.81), or in queue mode 200, 120 answering, a 5-minute limit.
 * npm run bench:answer-links:queue (--answer-links): the answer-link tests of the queue run
 * (test/helpers/answerLinksMany.js, on 20 customers there) for 500 customers, 200 answering,
 * the POSTs timed in 3 parts alternating with as many to n8n's Form Trigger, received by two
 * `n8n webhook` processes behind a round-robin proxy on 127.0.0.1 (the test run has one).
 * The run prints its figures (ms from the first call: all sent, all waiting, answered, the second
 * run done; for answer links all sent, previews, answers a second) and jest's time. `--help` for
 * the options.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const HELP = `npm run bench:ask-many[:queue] -- [options]
  --queue            queue mode: Redis, Postgres, a main and two workers (bench:ask-many:queue)
  --answer-links     answer links instead of a waiting execution each; queue mode only for now
                     (bench:answer-links:queue), on two webhook processes
  --customers N      customers asked at once (default 500; bench:ask-many:queue 200)
  --answered N       of them, how many answer through the page (default 3 in 5; answer links 200)
  --wait-seconds N   the wait limit (default 420; queue mode 300); every check but the last must
                     end within it, so a slower machine needs more
N8N_PIN=1.x runs it on n8n 1.123.81.`;

function parse(argv) {
	const options = { queue: false, answerLinks: false };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		if (flag === '--help') return { help: true };
		if (flag === '--queue') options.queue = true;
		else if (flag === '--answer-links') options.answerLinks = true;
		else if (['--customers', '--answered', '--wait-seconds'].includes(flag)) {
			const value = Number(argv[++i]);
			if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} takes a number`);
			options[flag.slice(2)] = value;
		} else throw new Error(`unknown option ${flag}\n${HELP}`);
	}
	return options;
}

function main() {
	const options = parse(process.argv.slice(2));
	if (options.help) return console.log(HELP);
	if (options.answerLinks) return answerLinks(options);
	const customers = options.customers ?? (options.queue ? 200 : 500);
	const env = {
		...process.env,
		ASK_MANY_CUSTOMERS: String(customers),
		ASK_MANY_ANSWERED: String(options.answered ?? Math.ceil((customers * 3) / 5)),
		ASK_MANY_WAIT_SECONDS: String(options['wait-seconds'] ?? (options.queue ? 300 : 420)),
	};
	const args = options.queue
		? ['-c', 'jest.queue.config.js', 'test/queue/ask-many.e2e.js']
		: ['-c', 'jest.e2e.config.js', 'test/e2e/askMany.e2e.js'];
	runJest(args, env);
}

/** The answer-link tests of the queue-mode run alone, at `--customers` and `--answered`. */
function answerLinks(options) {
	if (!options.queue) throw new Error('--answer-links runs in queue mode: add --queue');
	const env = {
		...process.env,
		ANSWER_LINKS_CUSTOMERS: String(options.customers ?? 500),
		ANSWER_LINKS_ANSWERED: String(options.answered ?? 200),
		ANSWER_LINKS_RUNS: '3',
		QUEUE_WEBHOOK_PROCESSES: '2',
	};
	runJest(['-c', 'jest.queue.config.js', 'test/queue/ask-many.e2e.js', '-t', '^answer links'], env);
}

function runJest(args, env) {
	const jest = require.resolve('jest/bin/jest', { paths: [REPO] });
	const run = spawnSync(process.execPath, [jest, ...args], { cwd: REPO, env, stdio: 'inherit' });
	process.exitCode = run.status ?? 1;
}

main();
