/**
 * The rules a reader relies on (docs/development.md, "Layout"): nothing imports itself in a cycle;
 * an operation reads on its own, beside its resource's shared fields only; the transport and the
 * helpers know nothing of what uses them; the delivery engine is reached through its one entry;
 * Send and Wait and the answer links know no operation, and what answers a link loads nothing of
 * the editor.
 * `npm test` runs these rules (test/package/dependencies.test.ts).
 */
const ROOT = '^nodes/OmnichannelMessaging/';

/** What the transport and the helpers may never reach: everything that uses them. */
const USERS = [
	'actions/',
	'methods/',
	'delivery/',
	'sendAndWait/',
	'answerLinks/',
	'OmnichannelMessaging(Trigger)?\\.node\\.ts$',
];

const either = (paths) => `${ROOT}(${paths.join('|')})`;

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
			name: 'no-operation-across-resources',
			comment: 'A resource (actions/<resource>/) imports nothing from another resource.',
			severity: 'error',
			from: { path: `${ROOT}actions/([^/]+)/` },
			to: { path: `${ROOT}actions/[^/]+/`, pathNot: `${ROOT}actions/$1/` },
		},
		{
			name: 'operation-only-from-its-resource',
			comment:
				'An operation file is imported by its resource file only, never by another operation.',
			severity: 'error',
			from: { path: ROOT, pathNot: '\\.resource\\.ts$' },
			to: { path: `${ROOT}actions/.+\\.operation\\.ts$` },
		},
		{
			name: 'transport-imports-nothing-above',
			comment:
				'The transport serves the actions, the methods and the delivery engine, and imports none of them.',
			severity: 'error',
			from: { path: `${ROOT}transport/` },
			to: { path: either(USERS) },
		},
		{
			name: 'helpers-import-nothing-above',
			comment:
				'The helpers are the bottom: they import neither the transport nor anything that uses them.',
			severity: 'error',
			from: { path: `${ROOT}helpers/` },
			to: { path: either(['transport/', ...USERS]) },
		},
		{
			name: 'delivery-imports-no-operation',
			comment:
				'The delivery engine knows no resource, operation, editor method or Send and Wait: ' +
				'adding an operation leaves it alone.',
			severity: 'error',
			from: { path: `${ROOT}delivery/` },
			to: {
				path: either([
					'actions/',
					'methods/',
					'sendAndWait/',
					'answerLinks/',
					'OmnichannelMessaging(Trigger)?\\.node\\.ts$',
				]),
			},
		},
		{
			name: 'send-and-wait-imports-no-operation',
			comment:
				'Send and Wait (sendAndWait/) serves its two operations, the trigger and the nodes, and ' +
				'imports none of them; of the answer links, only the token its webhook opens.',
			severity: 'error',
			from: { path: `${ROOT}sendAndWait/` },
			to: {
				path: either([
					'actions/',
					'methods/',
					'answerLinks/(?!token\\.ts$)',
					'OmnichannelMessaging(Trigger)?\\.node\\.ts$',
				]),
			},
		},
		{
			name: 'answer-links-import-no-operation',
			comment:
				'Answer links (answerLinks/) serve the sends, the trigger and its node, and import none of them.',
			severity: 'error',
			from: { path: `${ROOT}answerLinks/` },
			to: { path: either(['actions/', 'methods/', 'OmnichannelMessaging(Trigger)?\\.node\\.ts$']) },
		},
		{
			name: 'answer-link-trigger-without-send',
			comment:
				"The answer link's token (answerLinks/token.ts), which the webhook opens, loads nothing of " +
				"the editor's Send and Wait fields and nothing of the send: it needs no file of the package.",
			severity: 'error',
			from: { path: `${ROOT}answerLinks/token\\.ts$` },
			to: {
				path: either([
					'sendAndWait/(fields|elementFields|waiting)\\.ts$',
					'answerLinks/linkOption\\.ts$',
					'delivery/',
					'transport/',
					'helpers/',
				]),
			},
		},
		{
			name: 'send-and-wait-link-without-editor',
			comment:
				'What answers a Send and Wait link (sendAndWait/ but for fields.ts, elementFields.ts, ' +
				'triggerFields.ts and waiting.ts) loads nothing of the editor and nothing of the send.',
			severity: 'error',
			from: {
				path: `${ROOT}sendAndWait/`,
				pathNot: `${ROOT}sendAndWait/(fields|elementFields|triggerFields|waiting)\\.ts$`,
			},
			to: {
				path: either([
					'sendAndWait/(fields|elementFields|waiting)\\.ts$',
					'delivery/',
					'transport/',
				]),
			},
		},
		{
			name: 'delivery-through-its-entry',
			comment: 'Outside delivery/, the delivery engine is reached through delivery/index.ts only.',
			severity: 'error',
			from: { path: ROOT, pathNot: `${ROOT}delivery/` },
			to: { path: `${ROOT}delivery/`, pathNot: `${ROOT}delivery/index\\.ts$` },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		includeOnly: '^(nodes|credentials)/',
	},
};
