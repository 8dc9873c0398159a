#!/usr/bin/env node
'use strict';
/*
 * `npm run scan:real`: n8n's own scanner, `@n8n/scan-community-package` (pinned below), run on this
 * checkout and on `npm pack`'s tarball, without publishing anything.
 *
 * The scanner fetches a published version by name: the packument and the provenance attestation
 * from https://registry.npmjs.org (axios, the address written into the scanner), the source at the
 * attested commit from https://codeload.github.com, and the tarball through `npm pack`. Here one
 * server on 127.0.0.1 stands in for all three: `npm pack` reaches it as its registry, and axios as
 * its HTTPS_PROXY. axios tunnels through a proxy with CONNECT, so the stand-in ends each tunnel
 * with a certificate for those two hosts, from a certificate authority made for this run and
 * trusted by the scanner's process alone (NODE_EXTRA_CA_CERTS). It answers this package's
 * packument, a provenance attestation naming the package's repository at HEAD, this checkout's
 * package.json, nodes/ and credentials/ as that commit's source, and the tarball; every other
 * request and tunnel gets 403. So the scanner's provenance check passes on a stand-in
 * (the real one is made by `npm publish --provenance` in CI), and both its lint legs run unchanged
 * on this package.
 *
 * The scanner is installed with --ignore-scripts into .tmp/scan-real (git-ignored), once; it asks
 * for Node 24, which scripts/lib/node24.js provides. It builds first (`--skip-build`: not).
 * Exit code: the scanner's verdict (0 passed, 1 failed).
 */
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');

const { node24Binary, envWithNode24 } = require('./lib/node24');

const SCANNER = '@n8n/scan-community-package@0.32.0';
const ROOT = path.resolve(__dirname, '..');
const WORK = path.join(ROOT, '.tmp', 'scan-real');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const PROVENANCE = 'https://slsa.dev/provenance/v1';

/** The scanner, installed once into its own folder: nothing of it reaches package-lock.json. */
function installScanner() {
	const dir = path.join(WORK, 'scanner');
	const cli = path.join(
		dir,
		'node_modules',
		'@n8n',
		'scan-community-package',
		'scanner',
		'cli.mjs',
	);
	const marker = path.join(dir, 'installed-version');
	if (fs.existsSync(cli) && fs.readFileSync(marker, 'utf8') === SCANNER) return cli;
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
	execFileSync(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--save-exact', SCANNER],
		{ cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
	);
	fs.writeFileSync(marker, SCANNER);
	return cli;
}

/** What the stand-in serves: the tarball `npm pack` makes, and the checkout's source as a tar.gz. */
function artifacts() {
	const out = path.join(WORK, 'served');
	fs.rmSync(out, { recursive: true, force: true });
	fs.mkdirSync(out, { recursive: true });
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: ROOT }).toString(),
	);
	const tarball = fs.readFileSync(path.join(out, filename));
	const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT }).toString().trim();
	// codeload's archives hold one top folder, which the scanner strips.
	const source = execFileSync('tar', [
		'-czf',
		'-',
		'--transform',
		's,^,source/,',
		'-C',
		ROOT,
		'package.json',
		'nodes',
		'credentials',
	]);
	return { filename, tarball, commit, source };
}

/** The attestation npm's registry returns: an in-toto statement naming the repository and commit. */
function attestation(commit) {
	const statement = {
		predicateType: PROVENANCE,
		predicate: {
			buildDefinition: {
				resolvedDependencies: [
					{ uri: `${PKG.repository.url}@refs/heads/main`, digest: { gitCommit: commit } },
				],
			},
		},
	};
	const payload = Buffer.from(JSON.stringify(statement)).toString('base64');
	return { attestations: [{ predicateType: PROVENANCE, bundle: { dsseEnvelope: { payload } } }] };
}

/** A certificate authority for this run and a certificate it signs for the hosts the scanner calls. */
function certificates() {
	const dir = path.join(WORK, 'certs');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const openssl = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
	openssl([
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'1',
		'-subj',
		'/CN=scan-real stand-in CA',
		'-keyout',
		'ca.key',
		'-out',
		'ca.crt',
	]);
	openssl([
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-subj',
		'/CN=registry.npmjs.org',
		'-keyout',
		'host.key',
		'-out',
		'host.csr',
	]);
	fs.writeFileSync(
		path.join(dir, 'host.ext'),
		'subjectAltName=DNS:registry.npmjs.org,DNS:codeload.github.com\n',
	);
	openssl([
		'x509',
		'-req',
		'-in',
		'host.csr',
		'-CA',
		'ca.crt',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-days',
		'1',
		'-extfile',
		'host.ext',
		'-out',
		'host.crt',
	]);
	const read = (name) => fs.readFileSync(path.join(dir, name));
	return { caFile: path.join(dir, 'ca.crt'), key: read('host.key'), cert: read('host.crt') };
}

function startStandIn({ filename, tarball, commit, source }, { key, cert }) {
	const served = [];
	const repo = /github\.com\/([^/]+\/[^/.]+)/.exec(PKG.repository.url)[1];
	let registryBase = '';
	const answer = (request, response) => {
		// The scanner asks for `${registry}/${name}` with a registry ending in "/": paths may hold "//".
		// npm, told to use this server as its proxy too, sends the whole URL.
		const target = /^https?:\/\//.test(request.url) ? new URL(request.url) : undefined;
		const host = target?.hostname ?? String(request.headers.host).replace(/:\d+$/, '');
		const pathname = target?.pathname ?? request.url.split('?')[0];
		const where = `${host}${decodeURIComponent(pathname).replace(/\/+/g, '/')}`;
		const base = registryBase;
		const packument = {
			name: PKG.name,
			'dist-tags': { latest: PKG.version },
			versions: {
				[PKG.version]: {
					...PKG,
					dist: {
						tarball: `${base}/${PKG.name}/-/${filename}`,
						shasum: crypto.createHash('sha1').update(tarball).digest('hex'),
						integrity: `sha512-${crypto.createHash('sha512').update(tarball).digest('base64')}`,
						attestations: {
							url: `https://registry.npmjs.org/-/npm/v1/attestations/${PKG.name}@${PKG.version}`,
							provenance: { predicateType: PROVENANCE },
						},
					},
				},
			},
		};
		const routes = {
			[`registry.npmjs.org/${PKG.name}`]: () => ['application/json', JSON.stringify(packument)],
			[`127.0.0.1/${PKG.name}`]: () => ['application/json', JSON.stringify(packument)],
			[`registry.npmjs.org/-/npm/v1/attestations/${PKG.name}@${PKG.version}`]: () => [
				'application/json',
				JSON.stringify(attestation(commit)),
			],
			[`codeload.github.com/${repo}/tar.gz/${commit}`]: () => ['application/gzip', source],
			[`127.0.0.1/${PKG.name}/-/${filename}`]: () => ['application/octet-stream', tarball],
		};
		const route = routes[where.replace(/\/$/, '')];
		served.push(`${request.method} ${where} ${route ? 200 : 403}`);
		if (!route || request.method !== 'GET') {
			response.writeHead(403).end();
			return;
		}
		const [type, body] = route();
		response.writeHead(200, { 'content-type': type }).end(body);
	};
	const server = http.createServer(answer);
	// Tunnels end here: the scanner's TLS to registry.npmjs.org or codeload.github.com, answered alike.
	const tunnelEnd = https.createServer({ key, cert }, answer);
	server.on('connect', (request, socket) => {
		const known = /^(registry\.npmjs\.org|codeload\.github\.com):443$/.test(request.url);
		served.push(`CONNECT ${request.url} ${known ? 200 : 403}`);
		if (!known) {
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n', () =>
			tunnelEnd.emit('connection', socket),
		);
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			registryBase = `http://127.0.0.1:${server.address().port}`;
			resolve({ server, served, port: server.address().port });
		}),
	);
}

async function main() {
	if (!process.argv.includes('--skip-build'))
		execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	const cli = installScanner();
	const { caFile, ...tls } = certificates();
	const standIn = await startStandIn(artifacts(), tls);
	const node = node24Binary({ log: (line) => process.stderr.write(`${line}\n`) });
	const proxy = `http://127.0.0.1:${standIn.port}`;
	const env = envWithNode24(node, {
		...process.env,
		HTTPS_PROXY: proxy,
		https_proxy: proxy,
		NO_PROXY: '',
		no_proxy: '',
		NODE_EXTRA_CA_CERTS: caFile,
		npm_config_registry: `${proxy}/`,
		npm_config_cache: path.join(WORK, 'npm-cache'),
	});
	const scan = spawn(node, [cli, PKG.name], {
		cwd: WORK,
		env,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let output = '';
	scan.stdout.on('data', (chunk) => {
		output += chunk;
		process.stdout.write(chunk);
	});
	const code = await new Promise((resolve) => scan.on('close', resolve));
	standIn.server.close();
	process.stdout.write(`\nrequests the stand-in answered:\n  ${standIn.served.join('\n  ')}\n`);
	const passed = code === 0 && output.includes('has passed all security checks');
	process.exit(passed ? 0 : 1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
