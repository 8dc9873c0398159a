/*
 * Why this stays beside @n8n/node-cli: `n8n-node build` compiles with the root tsconfig.json (which
 * here also type-checks test/, so dist/ would fill with compiled tests) and copies every *.png and
 * *.svg of the repository (docs/ screenshots included) but not the codex file
 * OmnichannelMessaging.node.json, which n8n reads next to the built node. `npm run build` therefore
 * stays `tsc -p tsconfig.build.json && gulp build:icons`.
 */
const path = require('path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

// tsc does not copy the SVG icons and the codex JSON next to the compiled node and credential.
function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg,json}');
	const nodeDestination = path.resolve('dist', 'nodes');
	src(nodeSource, { encoding: false }).pipe(dest(nodeDestination));

	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	return src(credSource, { encoding: false, allowEmpty: true }).pipe(dest(credDestination));
}
