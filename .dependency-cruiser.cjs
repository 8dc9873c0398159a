/**
 * The node's layers, top to bottom (docs/development.md, "Layers"). A module may import its own
 * folder and any layer below its own; never a layer above, never a folder beside it in its own
 * layer, and never in a cycle. `npm test` runs these rules (test/package/dependencies.test.ts).
 */
const ROOT = '^nodes/OmnichannelMessaging/';

const LAYERS = [
	{ name: 'node', paths: ['OmnichannelMessaging\\.node\\.ts$', 'testing\\.ts$'] },
	{ name: 'operations', paths: ['resources/', 'listSearch/', 'resourceMapping/'] },
	{ name: 'pipelines', paths: ['send/', 'read/'] },
	{ name: 'domain', paths: ['sendOnce/', 'template/', 'channel/'] },
	{ name: 'building blocks', paths: ['fields/', 'output/'] },
	{ name: 'transport', paths: ['transport/'] },
	{ name: 'errors', paths: ['errors/'] },
	{ name: 'base', paths: ['helpers/', 'constants\\.ts$', 'tuning\\.ts$'] },
];

const pathsOf = (layers) => layers.flatMap((layer) => layer.paths.map((path) => ROOT + path));
const either = (paths) => `(${paths.join('|')})`;

/** Layer i may not import layers above it. */
const upward = LAYERS.slice(1).map((layer, index) => ({
	name: `no-upward-import-from-${layer.name.replace(/ /g, '-')}`,
	comment: `The ${layer.name} layer imports only from layers below it.`,
	severity: 'error',
	from: { path: either(pathsOf([layer])) },
	to: { path: either(pathsOf(LAYERS.slice(0, index + 1))) },
}));

/** Folders of one layer stay apart: each may import the layers below, not its neighbours. */
const sideways = LAYERS.flatMap((layer) =>
	layer.paths
		.filter((path) => path.endsWith('/') && layer.paths.filter((other) => other.endsWith('/')).length > 1)
		.map((path) => ({
			name: `no-sideways-import-from-${path.replace('/', '')}`,
			comment: `${path} imports nothing from the other folders of the ${layer.name} layer.`,
			severity: 'error',
			from: { path: ROOT + path },
			to: { path: either(layer.paths.filter((other) => other !== path && other.endsWith('/')).map((other) => ROOT + other)) },
		})),
);

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			comment: 'No module reaches itself through its imports, types included.',
			severity: 'error',
			from: { path: ROOT },
			to: { circular: true },
		},
		{
			name: 'send-once-through-its-interface',
			comment: 'Outside sendOnce/, Send Once is reached through sendOnce/index.ts only.',
			severity: 'error',
			from: { path: ROOT, pathNot: `${ROOT}sendOnce/` },
			to: { path: `${ROOT}sendOnce/`, pathNot: `${ROOT}sendOnce/index\\.ts$` },
		},
		...upward,
		...sideways,
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		includeOnly: '^(nodes|credentials)/',
	},
};
