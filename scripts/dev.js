#!/usr/bin/env node
'use strict';
/*
 * `npm run dev`: this package inside a real n8n, against the local sandbox, in one command.
 *
 *   1. builds the package (npm run build)
 *   2. starts the sandbox (fake service) on 127.0.0.1:4010 with the API key demo-api-key; it prints
 *      each message it accepts (a [sandbox] line) and lists the last ones at /outbox
 *   3. installs the pinned n8n (scripts/n8n/package.json) into .n8n-dev/n8n, once (~5 min)
 *   4. copies package.json + dist/ to .n8n-dev/user/.n8n/nodes/node_modules/<package>/, where
 *      n8n keeps installed community packages
 *   5. imports the credential "Omnichannel Messaging sandbox" and the workflows in examples/
 *   6. starts n8n on http://127.0.0.1:5679 (its task broker on 5681, with a JavaScript task
 *      runner in external mode, the mode n8n recommends), creates the owner account on the first
 *      start, and prints the editor URL and the login
 * Ctrl-C stops n8n, its task runner and the sandbox. The README's "Run it locally" lists the same
 * flags and variables:
 *
 *   --reset          start from an empty n8n user folder (drops your own workflows there)
 *   --skip-build     use dist/ as it is
 *   N8N_DEV_PORT (5679), N8N_DEV_BROKER_PORT (5681), SANDBOX_PORT (4010), SANDBOX_API_KEY,
 *   N8N_DEV_USER_FOLDER (.n8n-dev/user), N8N_INSTALL_DIR (.n8n-dev/n8n), N8N_DEV_VERBOSE=1 (n8n's log)
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('./lib/n8n');
const { node24Binary, envWithNode24 } = require('./lib/node24');
const { startSandbox, sandboxOptionsFromEnv } = require('./sandbox');

const CREDENTIAL = { id: 'OmniSandboxCred1', name: 'Omnichannel Messaging sandbox' };

const args = new Set(process.argv.slice(2));
const verbose = process.env.N8N_DEV_VERBOSE === '1' || args.has('--verbose');
const port = Number(process.env.N8N_DEV_PORT || 5679);
const brokerPort = Number(process.env.N8N_DEV_BROKER_PORT || 5681);
const devDir = path.join(n8n.REPO_ROOT, '.n8n-dev');
const userFolder = path.resolve(
	n8n.REPO_ROOT,
	process.env.N8N_DEV_USER_FOLDER || path.join('.n8n-dev', 'user'),
);

const say = (line) => console.log(`[dev] ${line}`);

async function step(label, action) {
	const started = Date.now();
	say(`${label}...`);
	const result = await action();
	say(`${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
}

let sandbox;
let server;
let stopping = false;

async function stopAll(code) {
	if (stopping) return;
	stopping = true;
	say('stopping...');
	if (server) await server.stop();
	if (sandbox) await sandbox.service.close();
	say('stopped');
	process.exit(code);
}

/** npm run build. Its tsc and gulp lines say nothing when it works: kept for a failure (or N8N_DEV_VERBOSE=1). */
async function build(node) {
	const lines = [];
	const log = verbose ? (line) => say(`  ${line}`) : (line) => lines.push(line);
	try {
		await n8n.run('npm', ['run', 'build', '--silent'], {
			cwd: n8n.REPO_ROOT,
			env: envWithNode24(node),
			log,
		});
	} catch (error) {
		for (const line of lines) say(`  ${line}`);
		throw error;
	}
}

async function main() {
	process.on('SIGINT', () => stopAll(0));
	process.on('SIGTERM', () => stopAll(0));
	const node = node24Binary({ log: say });

	if (!args.has('--skip-build')) await step('building the package', () => build(node));

	if (!(await n8n.isPortFree(port)))
		throw new Error(
			`port ${port} is in use: is n8n already running? Set N8N_DEV_PORT to use another port.`,
		);
	const sandboxOptions = sandboxOptionsFromEnv();
	sandbox = await startSandbox({
		...sandboxOptions,
		log: (line) => console.log(`[sandbox] ${line}`),
	});
	say(`sandbox listening on ${sandbox.url} (API key ${sandbox.apiKey})`);

	const install = await n8n.ensureN8n({ log: say, quiet: !verbose });
	if (stopping) return;

	if (args.has('--reset')) fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	fs.mkdirSync(devDir, { recursive: true });
	const target = n8n.installPackageInto(userFolder);
	say(`package copied to ${path.relative(n8n.REPO_ROOT, target)}`);

	const env = n8n.n8nEnv({
		userFolder,
		port,
		brokerPort,
		runners: 'external',
		// Said out loud, so that the docs can name it: the answer links open on this computer only.
		webhookUrl: `http://127.0.0.1:${port}/`,
		logLevel: verbose ? undefined : 'warn',
	});
	const cli = { env, node: install.node, entry: install.entry };
	const credentialFile = path.join(devDir, 'sandbox-credential.json');
	fs.writeFileSync(
		credentialFile,
		JSON.stringify(
			[
				{
					...CREDENTIAL,
					type: n8n.CREDENTIAL_TYPE,
					data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, apiKeyHeader: 'X-Service-Api-Key' },
				},
			],
			null,
			2,
		),
	);
	await step(`importing the credential "${CREDENTIAL.name}" (${sandbox.url})`, () =>
		n8n.n8nCliOk(['import:credentials', `--input=${credentialFile}`], cli),
	);
	await step('importing the example workflows from examples/', () =>
		n8n.n8nCliOk(
			['import:workflow', '--separate', `--input=${path.join(n8n.REPO_ROOT, 'examples')}`],
			cli,
		),
	);

	server = await step(`starting n8n ${n8n.N8N_VERSION}`, () =>
		n8n.startN8nServer({
			env,
			node: install.node,
			entry: install.entry,
			log: (line) => console.log(`[n8n] ${line}`),
		}),
	);
	server.exit.then((result) => {
		if (!stopping) {
			say(`n8n stopped by itself (${JSON.stringify(result)})`);
			stopAll(1);
		}
	});
	const rest = new n8n.N8nRest(server.url);
	const owner = await rest.ownerSetupOrLogin();

	printWelcome(owner);
}

/** What the user needs next: the editor URL, the login, the sandbox and the examples. */
function printWelcome(owner) {
	const examples = fs
		.readdirSync(path.join(n8n.REPO_ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.map((file) => JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, 'examples', file), 'utf8')));
	console.log('');
	console.log(`  n8n editor:   ${server.url}/home/workflows`);
	console.log(
		`  login:        ${n8n.DEFAULT_OWNER.email} / ` +
			`${n8n.DEFAULT_OWNER.password}${owner.created ? '  (owner account just created)' : ''}`,
	);
	console.log(
		`  sandbox:      ${sandbox.url}  (API key ${sandbox.apiKey}, channels 12 and 13, templates 101..108)`,
	);
	console.log(
		`  outbox:       ${sandbox.url}/outbox  (each message the sandbox accepted, also printed below)`,
	);
	console.log(`  credential:   "${CREDENTIAL.name}"`);
	for (const example of examples)
		console.log(`  example:      ${server.url}/workflow/${example.id}  ${example.name}`);
	console.log('');
	console.log(
		'  After changing the node: Ctrl-C and `npm run dev` again (rebuilds and copies the package).',
	);
	console.log('  Press Ctrl-C to stop n8n and the sandbox.');
	console.log('');
}

main().catch((error) => {
	console.error(`[dev] ${error.message}`);
	stopAll(1);
});
