/**
 * Hostile input, property-based, through n8n's engine: every parameter of every operation gets
 * arbitrary strings (empty, whitespace, emoji, RTL, zero-width, 100 KB), numbers for strings and
 * strings for numbers, null/undefined from expressions, objects, arrays, dates, very long phone
 * numbers and URLs with odd schemes, as literals or per item through `={{ $json.x }}`.
 *
 * Invariant, per item: either every request the fake service receives is valid per the spec
 * (and carries that item's data), or the item fails with an error whose message names the item
 * index and the field, and no request is sent for it. Never an uncaught exception, never a hang,
 * never a fetch of a URL from the input.
 */
import fc from 'fast-check';
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	NodeParameterValue,
} from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import { mapperValue } from '../helpers/mapperValue';
import { sendAttachmentTo, sendTextTo } from '../helpers/parameters';
import type { FakeService, RecordedRequest } from '../fake-service';
import { LONG_FUZZ, fuzzRuns } from './support/config';
import { anyHostile, isLiteral, oddNumber, oddPhone, oddString, oddUrl } from './support/hostile';
import { startMediaServer } from './support/mediaServer';
import { templateSendParameters } from './support/params';
import { checkProperty } from './support/property';
import type { MediaServer } from './support/mediaServer';
import { asText, phoneDigits, positiveInteger } from './support/oracle';
import { runBounded, watchUncaught } from './support/run';
import type { RunOptions, RunResult } from '../helpers/engine';
import { DETAIL_PATH, LIST_PATH, SEND_PATHS, specProblems } from './support/spec';

jest.setTimeout(LONG_FUZZ ? 3_600_000 : 120_000);

const API_KEY = 'robustness-key-6f1e0c9a7d';
const LABELS = [
	'Customer ID',
	'Text',
	'Attachment Type',
	'Attachment URL',
	'Channel',
	'Template',
	'Customer Phone',
	'Variables',
	'Variables (JSON)',
	'Header Media URL',
	'Header Media Type',
	'Limit',
];

let fake: FakeService;
let media: MediaServer;
const uncaught = watchUncaught();

beforeAll(async () => {
	fake = await startFakeService({ apiKey: API_KEY });
	media = await startMediaServer();
});
afterAll(async () => {
	await fake.close();
	await media.close();
});

type Source = { kind: 'expr'; values: unknown[] } | { kind: 'literal'; value: unknown };

interface FieldDef {
	valid: fc.Arbitrary<unknown>;
	hostile: fc.Arbitrary<unknown>;
}

/** A field's values: valid, or (for the one or two fields a case targets) mostly hostile. */
function source(field: FieldDef, targeted: boolean): fc.Arbitrary<Source> {
	const value = targeted
		? fc.oneof({ weight: 1, arbitrary: field.valid }, { weight: 3, arbitrary: field.hostile })
		: field.valid;
	return fc.oneof(
		{
			weight: 3,
			arbitrary: fc.record({
				kind: fc.constant('expr' as const),
				values: fc.array(value, { minLength: 3, maxLength: 3 }),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('literal' as const),
				value: value.filter(isLiteral),
			}),
		},
	);
}

/** Cases where up to two fields get hostile values and the others valid ones, so each field's handling shows. */
function cases<E, O>(
	defs: Record<string, FieldDef>,
	extra: fc.Arbitrary<E>,
	options: fc.Arbitrary<O>,
) {
	const names = Object.keys(defs);
	return fc.subarray(names, { minLength: 0, maxLength: 2 }).chain((targets) =>
		fc.record({
			n: fc.integer({ min: 1, max: 3 }),
			targets: fc.constant(targets),
			fields: fc.record(
				Object.fromEntries(
					names.map((name) => [name, source(defs[name], targets.includes(name))]),
				) as Record<string, fc.Arbitrary<Source>>,
			),
			extra,
			options,
		}),
	);
}

/** The parameter value for a field: the literal, or an expression reading the item's `key`. */
function param(key: string, src: Source): NodeParameterValue {
	return (src.kind === 'literal' ? src.value : `={{ $json.${key} }}`) as NodeParameterValue;
}

/** The Template field of a case: its value (a literal or an expression), by ID or from the list. */
function templateField(c: { fields: Record<string, Source>; extra: Record<string, unknown> }) {
	const value = param('templateId', c.fields.templateId);
	return { __rl: true, mode: c.extra.locatorMode, value } as never;
}

/** The value item `i` hands the field. */
function valueOf(src: Source, i: number): unknown {
	return src.kind === 'literal' ? src.value : src.values[i];
}

function itemsFor(n: number, fields: Record<string, Source>): IDataObject[] {
	return Array.from({ length: n }, (_, i) => {
		const json: Record<string, unknown> = { row: i };
		for (const [key, src] of Object.entries(fields))
			if (src.kind === 'expr') json[key] = src.values[i];
		return json as IDataObject;
	});
}

/** The field an error message starts with: "Customer Phone (item 3): …" → "Customer Phone". */
function fieldOf(message: string): string | undefined {
	return /^[A-Za-z ()]+?(?= \(item| \d)/.exec(message)?.[0];
}

/** How an output item counts: sent (ok), refused for its input (with the field) or failed at the service. */
function kindOfItem(error: unknown): string {
	if (typeof error !== 'string') return 'ok';
	return /\(item \d+\)/.test(error) ? `invalid ${fieldOf(error)}` : 'service';
}

/** A JavaScript failure inside the node, surfacing as if it were a message for the user. */
const INTERNAL_ERROR = new RegExp(
	[
		...['Cannot read propert', 'is not a function', 'is not iterable', 'Cannot convert'],
		...['Maximum call stack', 'Invalid time value', 'before an answer came back'],
	].join('|'),
);

function checkErrorShape(
	item: INodeExecutionData,
	message: string,
	where: string,
	problems: string[],
) {
	if (INTERNAL_ERROR.test(message))
		problems.push(`${where}: internal error shown to the user: ${message}`);
	const name = (item.error as { name?: string } | undefined)?.name;
	if (item.error && name !== 'NodeOperationError' && name !== 'NodeApiError')
		problems.push(`${where}: error is a ${name}, not a NodeOperationError/NodeApiError`);
}

/** Whether the input itself held the text "[object Object]" (then a message may quote it). */
function mentionsObjectText(c: unknown): boolean {
	try {
		return JSON.stringify(c).includes('[object Object]');
	} catch {
		return true;
	}
}

interface Outcome {
	kind: 'ok' | 'invalid' | 'service';
	message?: string;
}

/** Sorts one output item into success, "refused before sending" (names item and field) or a service error. */
function outcomeOf(
	item: INodeExecutionData | undefined,
	i: number,
	problems: string[],
	inputSaysObject: boolean,
): Outcome {
	if (!item) {
		problems.push(`item ${i}: no output`);
		return { kind: 'service' };
	}
	const message = item.json.error;
	if (typeof message !== 'string') return { kind: 'ok' };
	checkErrorShape(item, message, `item ${i}`, problems);
	if (message.includes('[object Object]') && !inputSaysObject)
		problems.push(`item ${i}: message shows [object Object]: ${message}`);
	const named = /\(item (\d+)\)/.exec(message);
	if (!named) return { kind: 'service', message };
	if (Number(named[1]) !== i) problems.push(`item ${i}: error names item ${named[1]}: ${message}`);
	if (!LABELS.some((label) => message.startsWith(`${label} `)))
		problems.push(`item ${i}: error names no field: ${message}`);
	return { kind: 'invalid', message };
}

/**
 * n8n itself refuses to start a workflow whose required parameter is an empty literal (or whose
 * locator ID fails its regex): "node has issues". Nothing runs, so nothing may have been sent.
 */
async function runCase(options: RunOptions): Promise<RunResult | 'n8n refused the workflow'> {
	try {
		return await runBounded(options);
	} catch (error) {
		if ((error as Error).name === 'WorkflowHasIssuesError') return 'n8n refused the workflow';
		throw error;
	}
}

/** A template send of 101 on channel 12 to `$json.phone`, variables as JSON. */
function templateSendTo(variablesJson: string, options: IDataObject): INodeParameters {
	return templateSendParameters(
		{ customerPhone: '={{ $json.phone }}', variablesMode: 'json', variablesJson },
		options,
	);
}

/** The number sent for a phone and a Default Country from an expression; undefined: refused. */
function phoneWithCountry(phone: unknown, country: unknown): string | undefined {
	const code = typeof country === 'string' ? country.trim().toUpperCase() : country;
	if (typeof phone !== 'string' && typeof phone !== 'number') return undefined;
	const typed = String(phone).replace(/[\s\-.()\u00a0\u200b-\u200d\u2060\ufeff]/g, '');
	// An international number is sent as before, whatever the option says.
	if (typed.startsWith('+') || typed.startsWith('00')) {
		const international = `+${typed.replace(/^(\+|00)/, '')}`;
		return /^\+[1-9]\d{6,14}$/.test(international) ? international : undefined;
	}
	// For a national number, a Default Country that is no country code stops the item.
	if (
		code !== undefined &&
		code !== null &&
		code !== '' &&
		(typeof code !== 'string' || !isSupportedCountry(code))
	)
		return undefined;
	if (typeof code !== 'string' || code === '' || !/^\d+$/.test(typed)) return undefined;
	const parsed = parsePhoneNumberFromString(typed, code);
	return parsed?.isValid() && /^\+\d{7,15}$/.test(parsed.number) ? parsed.number : undefined;
}

function commonChecks(requests: RecordedRequest[], problems: string[]) {
	for (const request of requests) {
		for (const problem of specProblems(request, API_KEY))
			problems.push(`${request.method} ${request.path}: ${problem}`);
	}
	if (media.hits.length > 0) problems.push(`the node fetched ${JSON.stringify(media.hits)}`);
	if (uncaught.length > 0) problems.push(`uncaught: ${String(uncaught[0])}`);
}

const stats: Record<string, number> = {};
function count(key: string) {
	stats[key] = (stats[key] ?? 0) + 1;
}
afterAll(() => {
	if (process.env.FUZZ_STATS) console.log(JSON.stringify(stats, null, 1));
});

function report(problems: string[], context: unknown): void {
	if (problems.length === 0) return;
	let shown: string;
	try {
		shown = JSON.stringify(context, (_k, v) =>
			typeof v === 'string' && v.length > 200
				? `${v.slice(0, 200)}…(${v.length})`
				: typeof v === 'bigint'
					? `${v}n`
					: v,
		);
	} catch {
		shown = String(context);
	}
	throw new Error(`${problems.join('\n')}\ncase: ${shown}`);
}

// ---------------------------------------------------------------- sends

interface SendCase {
	n: number;
	targets: string[];
	fields: Record<string, Source>;
	extra: Record<string, unknown>;
	options: Record<string, unknown>;
}

interface SendOp {
	name: 'sendText' | 'sendAttachment' | 'send';
	arbitrary: fc.Arbitrary<SendCase>;
	parameters(c: SendCase): INodeParameters;
	/** Problems with a sent body, given the item it must have come from. */
	pairing(body: Record<string, unknown>, c: SendCase, i: number): string[];
}

let sendOps: SendOp[];
let readOps: ReadOp[];

function customerIdChecks(body: Record<string, unknown>, raw: unknown): string[] {
	return body.customer_id === asText(raw)?.trim()
		? []
		: [`customer_id ${JSON.stringify(body.customer_id)} does not come from ${JSON.stringify(raw)}`];
}

function buildOps(mediaUrl: string) {
	const hostile = anyHostile(mediaUrl);
	const customerId: FieldDef = {
		valid: fc.oneof(
			fc.integer({ min: 1, max: 1e9 }),
			fc.integer({ min: 1, max: 1e9 }).map(String),
			fc.constantFrom(' 42 ', '0042'),
		),
		hostile,
	};
	const sendOptions = fc.record({ concurrency: fc.constant(1), timeout: fc.constant(5000) });

	const sendText: SendOp = {
		name: 'sendText',
		arbitrary: cases(
			{
				customerId,
				text: {
					valid: fc.oneof(
						fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
						fc.integer(),
					),
					hostile: fc.oneof(hostile, oddString, oddNumber),
				},
			},
			fc.constant({}),
			sendOptions,
		),
		parameters: (c) =>
			sendTextTo(param('customerId', c.fields.customerId), param('text', c.fields.text), {
				options: c.options as never,
			}),
		pairing: (body, c, i) => [
			...customerIdChecks(body, valueOf(c.fields.customerId, i)),
			...(body.text === asText(valueOf(c.fields.text, i))
				? []
				: [`text does not come from item ${i}`]),
		],
	};

	const sendAttachment: SendOp = {
		name: 'sendAttachment',
		arbitrary: cases(
			{
				customerId,
				attachmentType: {
					valid: fc.constantFrom('image', 'video', 'document'),
					hostile: fc.oneof(hostile, fc.constantFrom('audio', 'IMAGE', ' image', 'sticker')),
				},
				attachmentUrl: {
					valid: fc.constantFrom(
						mediaUrl,
						'https://cdn.example.com/invoice.pdf',
						'http://cdn.example.com/a%20b.png',
					),
					hostile: oddUrl(mediaUrl),
				},
			},
			fc.constant({}),
			sendOptions,
		),
		parameters: (c) =>
			sendAttachmentTo(
				param('customerId', c.fields.customerId),
				param('attachmentType', c.fields.attachmentType),
				param('attachmentUrl', c.fields.attachmentUrl),
				{ options: c.options as never },
			),
		pairing: (body, c, i) => [
			...customerIdChecks(body, valueOf(c.fields.customerId, i)),
			...(body.attachment_type === valueOf(c.fields.attachmentType, i)
				? []
				: ['attachment_type does not come from the item']),
			...(body.attachment_url === String(valueOf(c.fields.attachmentUrl, i)).trim()
				? []
				: ['attachment_url does not come from the item']),
		],
	};

	const variable: FieldDef = {
		valid: fc.oneof(
			fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ''),
			fc.integer(),
			fc.boolean(),
			fc.date({ noInvalidDate: true }),
		),
		hostile,
	};
	const send: SendOp = {
		name: 'send',
		arbitrary: cases(
			{
				channelId: {
					valid: fc.constantFrom(12, '12', ' 13 ', 13),
					hostile: fc.oneof(hostile, fc.constantFrom(999, '12a', 0, -12, 12.5)),
				},
				templateId: {
					valid: fc.constantFrom('101', 101, ' 101 '),
					hostile: fc.oneof(
						hostile,
						fc.constantFrom('999', '1e2', '0x65', '101abc', '104', '102', 106),
					),
				},
				customerPhone: {
					valid: fc.constantFrom('+4915123456789', '0049 151 2345 6789', '+1 (555) 010-9999'),
					hostile: fc.oneof(hostile, oddPhone),
				},
				v1: variable,
				v2: variable,
				v3: variable,
				vars: {
					valid: fc.constantFrom(
						{ '1': 'Anna', '2': 1042, '3': new Date(0) },
						'{"1": "Anna", "2": "1042", "3": "Monday"}',
						{ '01': 'Anna', '{{2}}': true, ' 3 ': 3.5 },
					),
					hostile: fc.oneof(
						hostile,
						fc.constantFrom(
							{},
							'{"1": ',
							'[1,2,3]',
							'{"a": "b"}',
							'{"{{1}}": "x"}',
							'{"0": "x"}',
							'{"99999": "x"}',
							'{"1": {"x": 1}}',
							'null',
							'42',
						),
					),
				},
				headerMediaUrl: {
					valid: fc.constantFrom('', null),
					hostile: fc.oneof(oddUrl(mediaUrl), hostile),
				},
				headerMediaType: {
					valid: fc.constantFrom('auto', 'image', 'video', 'document', 'audio'),
					hostile,
				},
			},
			fc.record({
				variablesMode: fc.constantFrom('mapper', 'json'),
				locatorMode: fc.constantFrom('id', 'list'),
			}),
			fc.record({
				concurrency: fc.constant(1),
				timeout: fc.constant(5000),
				validateTemplate: fc.boolean(),
				allowEmptyVariables: fc.boolean(),
				includeRenderedMessage: fc.boolean(),
				dryRun: fc.boolean(),
			}),
		),
		parameters: (c) => ({
			resource: 'whatsappTemplate',
			operation: 'send',
			channelId: param('channelId', c.fields.channelId),
			templateId: templateField(c),
			customerPhone: param('customerPhone', c.fields.customerPhone),
			variablesMode: c.extra.variablesMode as string,
			variables: mapperValue({
				'1': param('v1', c.fields.v1),
				'2': param('v2', c.fields.v2),
				'3': param('v3', c.fields.v3),
			} as Record<string, string>) as never,
			variablesJson:
				c.fields.vars.kind === 'literal' && typeof c.fields.vars.value !== 'string'
					? JSON.stringify(c.fields.vars.value)
					: (param('vars', c.fields.vars) as string),
			headerMediaUrl: param('headerMediaUrl', c.fields.headerMediaUrl),
			headerMediaType: param('headerMediaType', c.fields.headerMediaType),
			options: c.options as never,
		}),
		pairing: (body, c, i) => {
			const problems: string[] = [];
			if (body.channel_id !== String(positiveInteger(valueOf(c.fields.channelId, i))))
				problems.push(`channel_id ${JSON.stringify(body.channel_id)} does not come from item ${i}`);
			if (body.template_id !== String(positiveInteger(valueOf(c.fields.templateId, i))))
				problems.push(
					`template_id ${JSON.stringify(body.template_id)} does not come from item ${i}`,
				);
			if (String(body.customer_phone).slice(1) !== phoneDigits(valueOf(c.fields.customerPhone, i)))
				problems.push(`customer_phone does not come from item ${i}`);
			const attributes = (body.attributes ?? {}) as Record<string, unknown>;
			if (c.extra.variablesMode === 'mapper') {
				for (const [position, key] of [
					['1', 'v1'],
					['2', 'v2'],
					['3', 'v3'],
				]) {
					if (!(position in attributes)) continue;
					const raw = valueOf(c.fields[key], i);
					const expected =
						raw === undefined || raw === null
							? ''
							: (asText(raw) ??
								(typeof raw === 'object' && 'toISO' in (raw as object)
									? attributes[position]
									: undefined));
					if (attributes[position] !== expected)
						problems.push(
							`attributes.${position} ${JSON.stringify(attributes[position])} does not come from item ${i}`,
						);
				}
			}
			if (body.attachment !== undefined) {
				const url = Object.values(body.attachment as Record<string, unknown>)[0];
				if (url !== String(valueOf(c.fields.headerMediaUrl, i)).trim())
					problems.push('attachment URL does not come from the item');
			}
			return problems;
		},
	};

	const channel: FieldDef = {
		valid: fc.constantFrom(12, '12', 13, ' 12 '),
		hostile: fc.oneof(hostile, fc.constantFrom(999, 12.5, '12a', 0, -1)),
	};
	const get: ReadOp = {
		name: 'get',
		arbitrary: cases(
			{
				channelId: channel,
				templateId: {
					valid: fc.constantFrom('101', 101, '107', ' 104 '),
					hostile: fc.oneof(hostile, fc.constantFrom('999', '1e2', 101.5)),
				},
			},
			fc.record({ locatorMode: fc.constantFrom('id', 'list') }),
			fc.constant({}),
		),
		parameters: (c) => ({
			resource: 'whatsappTemplate',
			operation: 'get',
			channelId: param('channelId', c.fields.channelId),
			templateId: templateField(c),
		}),
		path: DETAIL_PATH,
		query: (c, i) => ({
			platform_id: String(positiveInteger(valueOf(c.fields.channelId, i))),
			template_id: String(positiveInteger(valueOf(c.fields.templateId, i))),
		}),
	};
	const getAll: ReadOp = {
		name: 'getAll',
		arbitrary: cases(
			{
				channelId: channel,
				returnAll: {
					valid: fc.boolean(),
					hostile: fc.oneof(hostile, fc.constantFrom('true', 'false', 1, 0)),
				},
				limit: {
					valid: fc.integer({ min: 1, max: 10 }),
					hostile: fc.oneof(hostile, fc.constantFrom('3', 2.5, 0, -1, 'abc', null)),
				},
			},
			fc.constant({}),
			fc.constant({}),
		),
		parameters: (c) => ({
			resource: 'whatsappTemplate',
			operation: 'getAll',
			channelId: param('channelId', c.fields.channelId),
			returnAll: param('returnAll', c.fields.returnAll) as boolean,
			limit: param('limit', c.fields.limit) as number,
		}),
		path: LIST_PATH,
		query: (c, i) => ({ platform_id: String(positiveInteger(valueOf(c.fields.channelId, i))) }),
	};
	sendOps = [sendText, sendAttachment, send];
	readOps = [get, getAll];
}

interface ReadCase {
	n: number;
	targets: string[];
	fields: Record<string, Source>;
	extra: Record<string, unknown>;
}

interface ReadOp {
	name: 'get' | 'getAll';
	arbitrary: fc.Arbitrary<ReadCase>;
	parameters(c: ReadCase): INodeParameters;
	path: string;
	query(c: ReadCase, i: number): Record<string, string>;
}

beforeAll(() => buildOps(media.url));

/**
 * Runs one generated case with continue-on-fail and the checks every case shares. Returns
 * undefined when n8n itself refused the workflow (already reported).
 */
async function runGeneratedCase(
	op: { name: string; parameters(c: never): INodeParameters },
	c: SendCase | ReadCase,
) {
	fake.reset();
	const items = itemsFor(c.n, c.fields);
	const result = await runCase({
		parameters: op.parameters(c as never),
		credentials: { baseUrl: fake.url, apiKey: API_KEY },
		items,
		continueOnFail: true,
	});
	const problems: string[] = [];
	commonChecks(fake.requests, problems);
	if (result === 'n8n refused the workflow') {
		count(`${op.name}: n8n refused the workflow`);
		if (fake.requests.length > 0) problems.push('n8n refused the workflow, yet requests were sent');
		report(problems, { op: op.name, c });
		return undefined;
	}
	if (result.error) problems.push(`the node failed as a whole: ${result.error.message}`);
	return { result, problems };
}

async function checkSend(op: SendOp, c: SendCase) {
	const checked = await runGeneratedCase(op, c);
	if (!checked) return;
	const { result, problems } = checked;
	if (result.output.length !== c.n)
		problems.push(`${result.output.length} output items for ${c.n} input items`);
	const outcomes = Array.from({ length: c.n }, (_, i) => {
		const item = result.output[i];
		if (item && (item.pairedItem as { item: number } | undefined)?.item !== i)
			problems.push(`output ${i} is paired to ${JSON.stringify(item.pairedItem)}`);
		const outcome = outcomeOf(item, i, problems, mentionsObjectText(c));
		if (outcome.kind === 'invalid') {
			// An error item is json alone: its description is json.message (n8n 2.x keeps no json beside an error object).
			const description = String(
				(item?.error as { description?: string } | undefined)?.description ??
					item?.json.message ??
					'',
			);
			if (!description.includes('Nothing was sent'))
				problems.push(
					`item ${i}: refused, but the description does not say nothing was sent: ${description}`,
				);
		}
		count(
			`${op.name}: ${outcome.kind}` +
				(outcome.kind === 'invalid' ? ` ${fieldOf(outcome.message ?? '')}` : ''),
		);
		return outcome;
	});
	const posts = fake.requests.filter((r) => r.method === 'POST');
	if (posts.some((r) => r.path !== SEND_PATHS[op.name]))
		problems.push(`POST to another path: ${posts.map((r) => r.path).join()}`);
	const expectedSenders = outcomes.flatMap((o, i) => (o.kind === 'invalid' ? [] : [i]));
	if (c.options.dryRun === true) {
		if (posts.length > 0) problems.push(`dry run sent ${posts.length} message(s)`);
		for (const i of expectedSenders) {
			const request = (
				result.output[i]?.json as { request?: { path: string; body: Record<string, unknown> } }
			).request;
			if (!request) {
				problems.push(`dry run item ${i} has no request`);
				continue;
			}
			const record = {
				method: 'POST',
				path: request.path,
				query: {},
				headers: { 'x-service-api-key': API_KEY, 'content-type': 'application/json' },
				rawBody: JSON.stringify(request.body),
				body: request.body,
				time: 0,
			};
			for (const problem of specProblems(record, API_KEY))
				problems.push(`dry run item ${i}: ${problem}`);
			problems.push(...op.pairing(request.body, c, i).map((p) => `dry run item ${i}: ${p}`));
		}
	} else {
		if (posts.length !== expectedSenders.length) {
			problems.push(
				`${posts.length} POST(s), but ${expectedSenders.length} item(s) passed the checks ` +
					`(${JSON.stringify(outcomes)})`,
			);
		} else {
			expectedSenders.forEach((i, k) =>
				problems.push(...op.pairing(posts[k].body, c, i).map((p) => `item ${i}: ${p}`)),
			);
		}
	}
	report(problems, { op: op.name, c, outcomes, output: result.output.map((o) => o.json) });
}

async function checkRead(op: ReadOp, c: ReadCase) {
	const checked = await runGeneratedCase(op, c);
	if (!checked) return;
	const { result, problems } = checked;
	for (const item of result.output) count(`${op.name}: ${kindOfItem(item.json.error)}`);
	const refused = new Set<number>();
	for (const item of result.output) {
		const paired = (item.pairedItem as { item?: number } | undefined)?.item;
		if (paired !== undefined && (paired < 0 || paired >= c.n))
			problems.push(`output paired to missing item ${paired}`);
		if (typeof item.json.error !== 'string') continue;
		checkErrorShape(item, item.json.error, 'output', problems);
		const named = /\(item (\d+)\)/.exec(item.json.error);
		if (!named) continue;
		const index = Number(named[1]);
		if (paired !== undefined && paired !== index)
			problems.push(`error for item ${index} is paired to item ${paired}`);
		if (!LABELS.some((label) => (item.json.error as string).startsWith(`${label} `)))
			problems.push(`error names no field: ${item.json.error}`);
		refused.add(index);
	}
	// n8n's routing gives error items of a multi-result read no pairing; an item is then known by the
	// index in its message.
	if (op.name === 'get') {
		if (result.output.length !== c.n)
			problems.push(`${result.output.length} outputs for ${c.n} items`);
		result.output.forEach((item, i) => {
			if ((item.pairedItem as { item: number } | undefined)?.item !== i)
				problems.push(`output ${i} is paired to ${JSON.stringify(item.pairedItem)}`);
		});
	}
	const expected = Array.from({ length: c.n }, (_, i) => i)
		.filter((i) => !refused.has(i))
		.map((i) => JSON.stringify(op.query(c, i)))
		.sort();
	const gets = fake.requests
		.filter((r) => r.path === op.path)
		.map((r) => JSON.stringify(r.query))
		.sort();
	if (fake.requests.some((r) => r.path !== op.path)) problems.push('request to another path');
	if (JSON.stringify(gets) !== JSON.stringify(expected))
		problems.push(`GETs ${gets.join(' ')} but expected ${expected.join(' ')}`);
	report(problems, { op: op.name, c, output: result.output.map((o) => o.json) });
}

describe('hostile parameters through the engine (fixed seed, bounded runs)', () => {
	test.each(['sendText', 'sendAttachment', 'send'] as const)(
		'%s: each item is sent valid per the spec, or refused by name with nothing sent',
		async (name) => {
			const op = sendOps.find((o) => o.name === name)!;
			await checkProperty(
				fc.asyncProperty(op.arbitrary, async (c) => await checkSend(op, c)),
				fuzzRuns(name === 'send' ? 120 : 60),
			);
		},
	);

	test.each(['get', 'getAll'] as const)(
		'%s: each item reads with integer query parameters, or is refused by name with no request',
		async (name) => {
			const op = readOps.find((o) => o.name === name)!;
			await checkProperty(
				fc.asyncProperty(op.arbitrary, async (c) => await checkRead(op, c)),
				fuzzRuns(50),
			);
		},
	);

	let optionRuns = 0;
	test('send options from expressions (concurrency, timeout, dry run) never crash or hang a send', async () => {
		const hostile = anyHostile(media.url);
		await checkProperty(
			fc.asyncProperty(hostile, hostile, hostile, async (concurrency, timeout, dryRun) => {
				fake.reset();
				// A run whose timeout was a few ms can still land at the service after the next run began: tell runs apart.
				const customerId = String(++optionRuns);
				const result = await runBounded({
					parameters: {
						resource: 'message',
						operation: 'sendText',
						customerId,
						text: 'hello',
						options: {
							concurrency: '={{ $json.c }}',
							timeout: '={{ $json.t }}',
							dryRun: '={{ $json.d }}',
						},
					},
					credentials: { baseUrl: fake.url, apiKey: API_KEY },
					items: [
						{ c: concurrency, t: timeout, d: dryRun },
						{ c: concurrency, t: timeout, d: dryRun },
					] as IDataObject[],
					continueOnFail: true,
				});
				const problems: string[] = [];
				commonChecks(fake.requests, problems);

				if (result.output.length !== 2) problems.push(`${result.output.length} outputs`);
				const posts = fake.sends().filter((r) => r.body?.customer_id === customerId).length;
				// A timeout of a few ms is the user's choice (the item then says it may have gone out); otherwise
				// both go, or none in a dry run.
				const failed = result.output.filter((o) => typeof o.json.error === 'string');
				if (failed.some((o) => !/did not answer in time/.test(o.json.error as string)))
					problems.push(`unexpected failure: ${failed.map((o) => o.json.error).join()}`);
				if (failed.length === 0 && posts !== (dryRun === true ? 0 : 2))
					problems.push(`${posts} POSTs for 2 items (dry run: ${String(dryRun)})`);
				if (posts > 2) problems.push(`${posts} POSTs for 2 items`);
				report(problems, {
					concurrency,
					timeout,
					dryRun,
					output: result.output.map((o) => o.json),
				});
			}),
			fuzzRuns(30),
		);
	});

	test(
		'template send options from expressions (check, rendered message, empty variables, dry ' +
			'run) never crash a send',
		async () => {
			const hostile = anyHostile(media.url);
			await checkProperty(
				fc.asyncProperty(fc.array(hostile, { minLength: 5, maxLength: 5 }), async (options) => {
					const [
						validateTemplate,
						includeRenderedMessage,
						allowEmptyVariables,
						dryRun,
						concurrency,
					] = options;
					fake.reset();
					const result = await runBounded({
						parameters: templateSendTo('{"1": "Anna", "2": "1042", "3": ""}', {
							validateTemplate: '={{ $json.o[0] }}',
							includeRenderedMessage: '={{ $json.o[1] }}',
							allowEmptyVariables: '={{ $json.o[2] }}',
							dryRun: '={{ $json.o[3] }}',
							concurrency: '={{ $json.o[4] }}',
						}),
						credentials: { baseUrl: fake.url, apiKey: API_KEY },
						items: [
							{
								phone: '+4915123456789',
								o: options,
							},
							{
								phone: 'not a phone',
								o: options,
							},
						] as IDataObject[],
						continueOnFail: true,
					});
					const problems: string[] = [];
					commonChecks(fake.requests, problems);
					if (result.error) problems.push(`the node failed as a whole: ${result.error.message}`);
					if (result.output.length !== 2) problems.push(`${result.output.length} outputs`);
					const second = result.output[1];
					if (!second || !/^Customer Phone \(item 1\)/.test(String(second.json.error)))
						problems.push(`item 1 not refused by name: ${JSON.stringify(second?.json)}`);
					// Only a real `true` turns an option on: "{{3}}" is empty, so item 0 is sent only when empty
					// values are allowed.
					const first = result.output[0]?.json ?? {};
					const sent = fake.sends().length;
					if (sent > 1) problems.push(`${sent} POSTs`);
					if (allowEmptyVariables !== true && typeof first.error !== 'string')
						problems.push(`item 0 with an empty {{3}} was not stopped: ${JSON.stringify(first)}`);
					if (allowEmptyVariables === true && dryRun !== true && sent !== 1)
						problems.push(`item 0 should have been sent once, was sent ${sent} time(s)`);
					if (dryRun === true && sent !== 0) problems.push('dry run sent');
					report(problems, {
						options: [
							validateTemplate,
							includeRenderedMessage,
							allowEmptyVariables,
							dryRun,
							concurrency,
						],
						output: result.output.map((o) => o.json),
					});
				}),
				fuzzRuns(30),
			);
		},
	);

	test(
		"Default Country from expressions: a sent number is libphonenumber's reading, or as before " +
			'for + and 00; all else is refused by name',
		async () => {
			const country = fc.oneof(
				fc.constantFrom('DE', 'US', 'FR', 'AR', 'RU', 'IT', 'de', ' us ', 'XX', 'DEU', ''),
				anyHostile(media.url),
			);
			const national = fc.constantFrom(
				'0151 2345 6789',
				'(415) 555-0132',
				'06 12 34 56 78',
				'011 15-2345-6789',
				'8 (912) 345-67-89',
				'0151 234',
				'02 1234 5678',
			);
			const contact = fc.record({ phone: fc.oneof(oddPhone, national), country });
			await checkProperty(
				fc.asyncProperty(fc.array(contact, { minLength: 1, maxLength: 3 }), async (contacts) => {
					fake.reset();
					const result = await runBounded({
						parameters: templateSendTo('{"1": "Anna", "2": "1042", "3": "Friday"}', {
							defaultCountry: '={{ $json.country }}',
						}),
						credentials: { baseUrl: fake.url, apiKey: API_KEY },
						items: contacts as IDataObject[],
						continueOnFail: true,
					});
					const problems: string[] = [];
					commonChecks(fake.requests, problems);
					contacts.forEach((item, index) => {
						const json = result.output[index]?.json ?? {};
						const expected = phoneWithCountry(item.phone, item.country);
						const sent = (json.extra as IDataObject | undefined)?.customer_phone;
						if (
							expected === undefined &&
							!new RegExp(`^(Default Country|Customer Phone) \\(item ${index}\\)`).test(
								String(json.error),
							)
						)
							problems.push(`item ${index} not refused by name: ${JSON.stringify(json)}`);
						if (expected !== undefined && sent !== expected)
							problems.push(`item ${index}: expected ${expected}, got ${JSON.stringify(json)}`);
					});
					const accepted = result.output.filter((o) => typeof o.json.error !== 'string').length;
					if (fake.sends().length !== accepted)
						problems.push(`${fake.sends().length} POSTs for ${accepted} accepted items`);
					report(problems, { contacts, output: result.output.map((o) => o.json) });
				}),
				fuzzRuns(40),
			);
		},
	);

	test('literal numbers in string fields and strings in number fields', async () => {
		fake.reset();
		const result = await runBounded({
			parameters: {
				resource: 'whatsappTemplate',
				operation: 'send',
				channelId: '12' as never,
				templateId: { __rl: true, mode: 'id', value: 101 } as never,
				customerPhone: 4915123456789 as never,
				variablesMode: 'json',
				variablesJson: '{"1": 1, "2": true, "3": 3.5}',
			},
			credentials: { baseUrl: fake.url, apiKey: API_KEY },
			continueOnFail: true,
		});
		// A phone number as a bare number has no "+": refused by name, nothing sent.
		expect(result.output[0].json.error).toMatch(/^Customer Phone \(item 0\)/);
		expect(fake.sends()).toHaveLength(0);
		fake.reset();
		const sent = await runBounded({
			parameters: {
				resource: 'message',
				operation: 'sendText',
				customerId: 1042 as never,
				text: 3.25 as never,
			},
			credentials: { baseUrl: fake.url, apiKey: API_KEY },
		});
		expect(sent.error).toBeUndefined();
		expect(fake.sends()[0].body).toEqual({ customer_id: '1042', text: '3.25' });
	});
});
