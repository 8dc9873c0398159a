'use strict';
/*
 * Loaded into n8n by `npm run bench:n8n -- --count` (NODE_OPTIONS=--require): counts, per node
 * name, what nodes ask of n8n: parameter reads (getNodeParameter), expression evaluations (any
 * "=…" value n8n resolves for the node, the credential's generic authenticate included),
 * credential reads, and processed-data store calls. Written to $BENCH_COUNT_DIR/<pid>.json.
 * Wraps n8n's own methods in this process only: nothing is changed in how they work.
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const dir = process.env.BENCH_COUNT_DIR;
const counts = {};

function count(nodeName, what) {
	const key = String(nodeName ?? '(none)');
	counts[key] ??= {};
	counts[key][what] = (counts[key][what] ?? 0) + 1;
}

function wrap(proto, name, nodeOf, what) {
	const original = proto?.[name];
	if (typeof original !== 'function' || original.__counted) return;
	proto[name] = function (...args) {
		const node = nodeOf.call(this, args);
		if (node !== undefined) count(node, typeof what === 'function' ? what(args) : what);
		return original.apply(this, args);
	};
	proto[name].__counted = true;
}

const isExpression = (value) => typeof value === 'string' && value.startsWith('=');

const PATCHES = [
	[
		'n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js',
		(m) => {
			const proto = m.NodeExecutionContext?.prototype;
			wrap(
				proto,
				'_getNodeParameter',
				function () {
					return this.node?.name;
				},
				'getNodeParameter',
			);
			wrap(
				proto,
				'_getCredentials',
				function () {
					return this.node?.name;
				},
				'getCredentials',
			);
		},
	],
	[
		'n8n-workflow/dist/cjs/workflow-expression.js',
		(m) => {
			const proto = m.WorkflowExpression?.prototype;
			wrap(
				proto,
				'resolveSimpleParameterValue',
				(args) => (isExpression(args[0]) ? args[5] : undefined),
				'expression',
			);
		},
	],
	[
		'n8n-core/dist/data-deduplication-service.js',
		(m) => {
			const proto = m.DataDeduplicationService?.prototype;
			for (const name of [
				'checkProcessedItemsAndRecord',
				'checkProcessedAndRecord',
				'removeProcessed',
				'clearAllProcessedItems',
				'getProcessedDataCount',
			]) {
				wrap(
					proto,
					name,
					(args) => args.find((a) => a && typeof a === 'object' && a.node)?.node?.name,
					'storeCall',
				);
			}
		},
	],
];

if (dir) {
	const load = Module._load;
	Module._load = function (request, parent, isMain) {
		const exports = load.apply(this, [request, parent, isMain]);
		let filename;
		try {
			filename = Module._resolveFilename(request, parent, isMain).split(path.sep).join('/');
		} catch {
			return exports;
		}
		for (const [suffix, patch] of PATCHES) if (filename.endsWith(suffix)) patch(exports);
		return exports;
	};
	const flush = () => {
		if (Object.keys(counts).length > 0)
			fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(counts));
	};
	setInterval(flush, 250).unref();
	process.on('exit', flush);
}
