#!/usr/bin/env node
'use strict';
/*
 * `npm run docs:deps`: the picture of the node's layout in docs/development.md, drawn by
 * dependency-cruiser from the code (each folder of the node and each resource of actions/
 * collapsed to one box), as a mermaid block that GitHub renders. The docs test checks that the
 * picture is the one this script draws today.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const { cruise } = require('./deps');

const repoDir = path.resolve(__dirname, '..');
const DOC = path.join(repoDir, 'docs', 'development.md');
const START = '<!-- layers: drawn by npm run docs:deps -->';
const END = '<!-- layers: end -->';
/** The mermaid block for the code as it is. */
function layerPicture() {
	const collapse = '^(nodes/OmnichannelMessaging/(actions/[^/]+|[^/]+)|credentials/[^/]+)';
	const mermaid = cruise(repoDir, 'mermaid', ['--collapse', collapse]);
	return ['```mermaid', mermaid.trim().replace(/^flowchart LR/, 'flowchart TD'), '```'].join('\n');
}

/** docs/development.md with the picture between its markers replaced. */
function withPicture(doc, picture) {
	const start = doc.indexOf(START);
	const end = doc.indexOf(END);
	if (start < 0 || end < start)
		throw new Error(`docs/development.md lacks the markers ${START} … ${END}`);
	return `${doc.slice(0, start + START.length)}\n${picture}\n${doc.slice(end)}`;
}

module.exports = { layerPicture, withPicture, DOC };

if (require.main === module) {
	writeFileSync(DOC, withPicture(readFileSync(DOC, 'utf8'), layerPicture()));
	console.log('docs/development.md: layout picture redrawn');
}
