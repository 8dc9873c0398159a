'use strict';
const { ensureN8n } = require('../../scripts/lib/n8n');

module.exports = async function globalSetup() {
	const log = (line) => process.stderr.write(`${line}\n`);
	const { installed, seconds } = await ensureN8n({ log, quiet: process.env.CI !== 'true' });
	if (installed) log(`(n8n install took ${seconds} s)`);
};
