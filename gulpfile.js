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
