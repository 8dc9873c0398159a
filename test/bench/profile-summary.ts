/*
 * Summarises a V8 .cpuprofile written by `broadcast.bench --cpu-prof`: self time by package /
 * file and by function, and the inclusive time of a few functions of interest (the node's own
 * steps and n8n's request / expression machinery).
 *
 *   node .tmp/bench/profile-summary.js .tmp/bench-prof/A10-run1.cpuprofile [--top 25] [--since-ms N]
 *        [--until-ms N] [--callers FUNCTION_NAME [--depth 4]]
 *   node .tmp/bench/profile-summary.js FILE --stretches
 *
 * --since-ms drops samples from the first N ms of the profile (module loading, warm-up), --until-ms
 * those after N ms. --stretches lists the stretches where this package's code ran (in a profile of
 * `npm run bench:n8n -- --cpu-prof DIR`, one per broadcast execution) and where each one's check
 * of the items ended: the window to summarise.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

function bucketOf(url: string): string {
	if (!url) return '(native / vm)';
	const nm = url.lastIndexOf('node_modules/');
	if (nm >= 0) {
		const rest = url.slice(nm + 'node_modules/'.length).split('/');
		return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
	}
	if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
	if (url.includes('/dist/nodes/')) return 'this package (dist/nodes)';
	if (url.includes('/dist/credentials/')) return 'this package (dist/credentials)';
	return url.replace(/^file:\/\//, '');
}

function shortUrl(url: string) {
	const nm = url.lastIndexOf('node_modules/');
	if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
	const dist = url.indexOf('/dist/');
	return dist >= 0 ? url.slice(dist + 1) : url.replace(/^file:\/\//, '');
}

/** Functions whose inclusive time says where the per-request and per-item work goes. */
const INTEREST: Array<[string, RegExp]> = [
	['prepare phase: prepareSendTemplate (per item)', /^prepareSendTemplate$/],
	['the phone read: readPhone', /^readPhone$/],
	['the variables read: readVariables', /^readVariables$/],
	['getNodeParameter (any)', /^_?getNodeParameter$/],
	['n8n: workflow data proxy per expression (getDataProxy)', /^getDataProxy$/],
	['n8n: node copies (getNode)', /^getNode$/],
	['Expression.getParameterValue', /^getParameterValue$/],
	['expression evaluation (resolveSimpleParameterValue)', /^resolveSimpleParameterValue$/],
	['sendWithRetry (per send)', /^sendWithRetry$/],
	['sendServiceRequest', /^sendServiceRequest$/],
	['httpRequestWithAuthentication', /^httpRequestWithAuthentication$/],
	['getCredentials / _getCredentials', /^_?getCredentials$/],
	['credentialsHelper.authenticate', /^authenticate$/],
	['OutboundHttp request (n8n http stack)', /^httpRequest$/],
	['convertN8nRequestToAxios', /^convertN8nRequestToAxios$/],
	['buildNodeAgents (new http.Agent per request)', /^buildNodeAgents$/],
	['validateUrlSsrf', /^validateUrlSsrf$/],
	['axios request', /^(Axios|request|_request|dispatchRequest|httpAdapter)$/],
	['RoutingNode.runNode', /^runNode$/],
	['RoutingNode.getRequestOptionsFromParameters', /^getRequestOptionsFromParameters$/],
	['RoutingNode.resolveBaseUrl', /^resolveBaseUrl$/],
	['garbage collector', /^\(garbage collector\)$/],
];

/** Where this package's code ran (gaps over 1.5 s split stretches), and the last sample of each one's check. */
function printStretches(
	profile: Profile,
	parent: Map<number, number>,
	byId: Map<number, ProfileNode>,
) {
	const stretches: Array<{ from: number; to: number; checkEnd?: number }> = [];
	let t = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i];
		const atMs = (t - profile.startTime) / 1000;
		const frames: CallFrame[] = [];
		for (let cur: number | undefined = profile.samples[i]; cur !== undefined; cur = parent.get(cur))
			frames.push(byId.get(cur)!.callFrame);
		if (!frames.some((f) => f.url.includes('omnichannel-messaging/dist/'))) continue;
		const last = stretches.at(-1);
		if (!last || atMs - last.to > 1500) stretches.push({ from: atMs, to: atMs });
		else last.to = atMs;
		if (frames.some((f) => f.functionName === 'prepareSendTemplate'))
			stretches.at(-1)!.checkEnd = atMs;
	}
	for (const s of stretches)
		console.log(
			`package code ${s.from.toFixed(0)}–${s.to.toFixed(0)} ms; last check sample ${s.checkEnd?.toFixed(0) ?? '-'} ms`,
		);
}

function main() {
	const args = process.argv.slice(2);
	const file = args.find((a) => !a.startsWith('--'));
	if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [--top N] [--since-ms N]');
	const opt = (name: string, fallback: number) => {
		const i = args.indexOf(`--${name}`);
		return i >= 0 ? Number(args[i + 1]) : fallback;
	};
	const top = opt('top', 25);
	const sinceMs = opt('since-ms', 0);
	const untilMs = opt('until-ms', Number.POSITIVE_INFINITY);
	const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	if (args.includes('--stretches')) return printStretches(profile, parent, byId);

	const self = new Map<number, number>();
	let t = profile.startTime;
	let total = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i];
		const atMs = (t - profile.startTime) / 1000;
		if (atMs < sinceMs || atMs >= untilMs) continue;
		const dt = profile.timeDeltas[i + 1] ?? 0;
		self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
		total += dt;
	}
	const ms = (us: number) => (us / 1000).toFixed(0).padStart(7) + ' ms';
	const pct = (us: number) => ((100 * us) / total).toFixed(1).padStart(5) + '%';

	const buckets = new Map<string, number>();
	const fns = new Map<string, number>();
	const inclusive = new Map<string, number>();
	for (const [id, us] of self) {
		const node = byId.get(id)!;
		const { functionName, url, lineNumber } = node.callFrame;
		const isIdle = functionName === '(idle)' || functionName === '(program)';
		buckets.set(
			isIdle ? functionName : bucketOf(url),
			(buckets.get(isIdle ? functionName : bucketOf(url)) ?? 0) + us,
		);
		const key = `${functionName || '(anonymous)'}  ${shortUrl(url)}:${lineNumber + 1}`;
		fns.set(key, (fns.get(key) ?? 0) + us);
		// Inclusive time of the functions of interest, counted once per sample stack.
		const seen = new Set<string>();
		for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
			const name = byId.get(cur)!.callFrame.functionName;
			for (const [label, re] of INTEREST) {
				if (!seen.has(label) && re.test(name)) {
					seen.add(label);
					inclusive.set(label, (inclusive.get(label) ?? 0) + us);
				}
			}
		}
	}
	// --callers NAME: which call paths lead to NAME (its self+inclusive time by caller chain).
	const callersOf = args.includes('--callers') ? args[args.indexOf('--callers') + 1] : undefined;
	const callerChains = new Map<string, number>();
	if (callersOf) {
		const depth = opt('depth', 4);
		for (const [id, us] of self) {
			let cur: number | undefined = id;
			let target: number | undefined;
			for (; cur !== undefined; cur = parent.get(cur)) {
				if (byId.get(cur)!.callFrame.functionName === callersOf) target = cur;
			}
			if (target === undefined) continue;
			const chain: string[] = [];
			for (let c = parent.get(target); c !== undefined && chain.length < depth; c = parent.get(c)) {
				const f = byId.get(c)!.callFrame;
				chain.push(
					`${f.functionName || '(anonymous)'}@${shortUrl(f.url).split('/').pop()}:${f.lineNumber + 1}`,
				);
			}
			const key = chain.join(' < ');
			callerChains.set(key, (callerChains.get(key) ?? 0) + us);
		}
	}
	const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
	console.log(`${file}\nprofiled ${ms(total)} (from ${sinceMs} ms to ${untilMs} ms)\n`);
	console.log('self time by package / file:');
	for (const [k, v] of sorted(buckets).slice(0, top)) console.log(`  ${ms(v)} ${pct(v)}  ${k}`);
	console.log('\nself time by function:');
	for (const [k, v] of sorted(fns).slice(0, top)) console.log(`  ${ms(v)} ${pct(v)}  ${k}`);
	if (callersOf) {
		console.log(`\ncallers of ${callersOf} (outermost ${callersOf} frame, inclusive):`);
		for (const [k, v] of sorted(callerChains).slice(0, top))
			console.log(`  ${ms(v)} ${pct(v)}  ${k}`);
	}
	console.log('\ninclusive time of functions of interest:');
	for (const [label] of INTEREST) {
		const v = inclusive.get(label) ?? 0;
		if (v > 0) console.log(`  ${ms(v)} ${pct(v)}  ${label}`);
	}
}

main();
