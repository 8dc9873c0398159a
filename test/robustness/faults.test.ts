/**
 * A misbehaving service, for a send and a read of each kind: 500 JSON, 502 HTML page, 200 with
 * invalid JSON, 200 with an empty body, 200 JSON without the expected fields, a 10 MB body, a
 * response that never comes, connection resets and a response that trickles a byte at a time;
 * plus a 401 and a refused connection.
 *
 * For each: the node ends, the error says what happened in plain words with at most a short
 * excerpt of what the service sent, a send says whether the message may have been delivered and
 * is never retried (exactly one POST), and the API key appears nowhere in the run: not in the
 * run data, not in the errors' hidden fields (stack, cause, the cause's request headers).
 */
import { createServer } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { serializeEverything } from '../helpers/fixtures';
import { startFakeService } from '../fake-service';
import type { Fault, FakeService } from '../fake-service';
import { mapperFields, searchList } from '../helpers/engine';
import { getTemplate, getTemplates, sendTextTo, templateOn } from '../helpers/parameters';
import { restartProcess } from '../helpers/process';
import type { RunResult } from '../helpers/engine';
import { findSecret } from './support/secrets';
import { runBounded, watchUncaught } from './support/run';

jest.setTimeout(90_000);

const API_KEY = 'sk-robustness-faults-93c1d7e2a4';
/** Every operation's timeout here: Options → Timeout of the sends, Request Options → Timeout of the reads. */
const TIMEOUT_MS = 1500;
/** The node's own bound on the editor's calls (EDITOR_TIMEOUT_MS in constants.ts). */
const EDITOR_TIMEOUT_MS = 10_000;

interface Operation {
	kind: 'send' | 'read';
	parameters: INodeParameters;
	/** The path (below /stable/open) the fault is put on. */
	path: string;
	/** What a 200 without the expected fields is called. */
	incomplete: RegExp;
}

const timeout = { timeout: TIMEOUT_MS };
const NOT_A_SEND_RESULT = /^The service answered without the id and status of the message$/;

const OPERATIONS: Record<string, Operation> = {
	'Send Text': {
		kind: 'send',
		parameters: sendTextTo('1042', 'Your order has shipped', { options: timeout }),
		path: '/customers/send-text-message',
		incomplete: NOT_A_SEND_RESULT,
	},
	'Template Send': {
		kind: 'send',
		parameters: {
			...templateOn(12, 104),
			customerPhone: '+4915123456789',
			variablesMode: 'json',
			variablesJson: '{}',
			options: timeout,
		},
		path: '/whatsapp/send-template-message',
		incomplete: NOT_A_SEND_RESULT,
	},
	Get: {
		kind: 'read',
		parameters: getTemplate(12, 101, { requestOptions: timeout }),
		path: '/whatsapp/get-template-detail',
		incomplete: /^The service answered with something that is not a WhatsApp template$/,
	},
	'Get Many': {
		kind: 'read',
		parameters: getTemplates(12, { returnAll: true, requestOptions: timeout }),
		path: '/whatsapp/get-template-list',
		incomplete: /^The service answered with something that is not a list of WhatsApp templates$/,
	},
};

interface FaultCase {
	fault: Fault;
	message: (op: Operation) => RegExp;
	/** A send whose request reached the service: may it have been delivered? */
	delivery: 'unknown' | 'notSent';
	/** No answer came back. */
	network?: true;
	/**
	 * A Timeout for this case instead of TIMEOUT_MS: an answer that arrives whole but takes its time
	 * to read must not race the 1.5 s bound on a busy machine.
	 */
	timeoutMs?: number;
}

const FAST_FAULTS: Record<string, FaultCase> = {
	'500 JSON': {
		fault: { status: 500 },
		message: () => /^The service failed with HTTP 500$/,
		delivery: 'unknown',
	},
	'502 HTML page': {
		fault: { kind: 'html', status: 502 },
		message: () => /^The service failed with HTTP 502$/,
		delivery: 'unknown',
	},
	'200 invalid JSON': {
		fault: { kind: 'invalid-json' },
		message: () => /^The service answered without the expected JSON data$/,
		delivery: 'unknown',
	},
	'200 empty body': {
		fault: { kind: 'empty' },
		message: () => /^The service answered without the expected JSON data$/,
		delivery: 'unknown',
	},
	'200 JSON lacking id/status': {
		fault: { status: 200, body: { ok: true } },
		message: (op) => op.incomplete,
		delivery: 'unknown',
	},
	'200 JSON array': {
		fault: { status: 200, body: [] },
		message: (op) =>
			op.kind === 'read' && op.parameters.operation === 'getAll' ? /^$/ : op.incomplete,
		delivery: 'unknown',
	},
	'10 MB body': {
		fault: { kind: 'huge' },
		message: (op) => op.incomplete,
		delivery: 'unknown',
		timeoutMs: 60_000,
	},
	'connection reset before the answer': {
		fault: { kind: 'reset-before' },
		message: () => /^The connection to the service was cut before it answered$/,
		delivery: 'unknown',
		network: true,
	},
	'connection reset after reading': {
		fault: { kind: 'reset-after-read' },
		message: () => /^The connection to the service was cut before it answered$/,
		delivery: 'unknown',
		network: true,
	},
	'401': {
		fault: { status: 401, body: { detail: 'Invalid api key provided.' } },
		message: () => /^The API key was rejected$/,
		delivery: 'notSent',
	},
	'429 with Retry-After (not taken, so retried)': {
		fault: { status: 429, headers: { 'Retry-After': '0' }, body: { detail: 'slow down' } },
		message: () => /./,
		delivery: 'notSent',
	},
};

const SLOW_FAULTS: Record<string, FaultCase> = {
	'never-ending response': {
		fault: { kind: 'hang' },
		message: () => /^The service did not answer in time$/,
		delivery: 'unknown',
		network: true,
	},
	'slow trickle': {
		fault: { kind: 'trickle', intervalMs: 100 },
		message: () => /^The service did not answer in time$/,
		delivery: 'unknown',
		network: true,
	},
};

const uncaught = watchUncaught();
/** Case × operation → outcome, printed at the end when FAULT_MATRIX is set. */
const matrix: string[] = [];
afterAll(() => {
	if (process.env.FAULT_MATRIX) console.log(matrix.join('\n'));
});

function expectNoSecret(...values: unknown[]) {
	for (const value of values) {
		expect(findSecret(value, API_KEY)).toEqual([]);
		expect(serializeEverything(value)).not.toContain(API_KEY);
	}
}

/** What the user reads: the error of a failed run, or of the error item with continueOnFail. */
function failureOf(result: RunResult) {
	// An error item is json alone (n8n 2.x keeps no other json beside an error object): error, message
	// (the description), details.
	const item = result.output.find((o) => o.error || typeof o.json.error === 'string');
	const error = (result.error ?? item?.error) as
		| { message: string; description?: string | null }
		| undefined;
	return {
		message: error?.message ?? (item?.json.error as string | undefined),
		description: error?.description ?? (item?.json.message as string | undefined) ?? '',
	};
}

function expectPlainWords(message: string | undefined, description: string) {
	expect(message).toBeTruthy();
	expect(message!.length).toBeLessThan(200);
	for (const text of [message!, description]) {
		expect(text).not.toMatch(/<\/?[a-z!][^>]*>/i);
		expect(text).not.toContain('[object Object]');
		expect(text).not.toContain('undefined');
	}
	expect(description.length).toBeLessThan(700);
}

/** The operation with another Timeout, in Options of a send or Request Options of a read. */
function withTimeout(op: Operation, timeoutMs: number): Operation {
	const group = op.kind === 'send' ? 'options' : 'requestOptions';
	const options = { ...(op.parameters[group] as object), timeout: timeoutMs };
	return { ...op, parameters: { ...op.parameters, [group]: options } };
}

async function runWithFault(
	fake: FakeService,
	op: Operation,
	fault: Fault,
	continueOnFail: boolean,
	limitMs: number,
	cancelAfterMs?: number,
) {
	fake.reset();
	fake.addFault(op.path, fault, 1);
	const started = Date.now();
	const result = await runBounded(
		{
			parameters: op.parameters,
			credentials: { baseUrl: fake.url, apiKey: API_KEY },
			continueOnFail,
			cancelAfterMs,
		},
		limitMs,
	);
	return { result, ms: Date.now() - started };
}

function checkOutcome(
	label: string,
	opName: string,
	op: Operation,
	fc: FaultCase,
	fake: FakeService,
	result: RunResult,
	ms: number,
	continueOnFail: boolean,
) {
	const failure = failureOf(result);
	matrix.push(
		`| ${label} | ${opName}${continueOnFail ? ' (continue on fail)' : ''} | ${ms} ms | ` +
			`${failure.message ?? 'no error'} | ${(failure.description ?? '').slice(0, 160)} |`,
	);
	expect(uncaught).toEqual([]);
	expectNoSecret(result.run, result.error, result.output);
	if (fc.message(op).source === '^$') {
		// A 200 [] is a valid empty list for Get Many.
		expect(failure.message).toBeUndefined();
		return;
	}
	expect(failure.message).toMatch(fc.message(op));
	expectPlainWords(failure.message, failure.description ?? '');
	expect(serializeEverything(result.run).length).toBeLessThan(200_000);
	if (op.kind === 'send') {
		const posts = fake.requests.filter((r) => r.method === 'POST');
		if (label.startsWith('429')) {
			// "Not taken" answers are the only ones retried.
			expect(posts.length).toBeGreaterThanOrEqual(1);
		} else {
			expect(posts).toHaveLength(1);
			expect(failure.description).toContain(
				fc.delivery === 'unknown'
					? 'The message may or may not have been delivered'
					: 'The message was not sent.',
			);
		}
	}
}

describe('service faults, per operation', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService({ apiKey: API_KEY });
	});
	afterAll(async () => await fake.close());

	const rows = Object.entries(FAST_FAULTS).flatMap(([label, fc]) =>
		Object.entries(OPERATIONS).flatMap(([opName, op]) =>
			[false, true].map((cof) => [label, opName, cof, op, fc] as const),
		),
	);

	test.each(rows)(
		'%s on %s (continue on fail: %s)',
		async (label, opName, continueOnFail, op, fc) => {
			if (label.startsWith('429')) {
				// Three 429s with Retry-After: 0 are waited out; then the send goes through.
				fake.reset();
				fake.addFault(op.path, fc.fault, 3);
				const result = await runBounded(
					{
						parameters: op.parameters,
						credentials: { baseUrl: fake.url, apiKey: API_KEY },
						continueOnFail,
					},
					20_000,
				);
				expectNoSecret(result.run, result.error, result.output);
				if (op.kind === 'send')
					expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(4);
				else expect(failureOf(result).message).toMatch(/rate limiting/);
				return;
			}
			const run = fc.timeoutMs ? withTimeout(op, fc.timeoutMs) : op;
			const limitMs = (fc.timeoutMs ?? 0) + 20_000;
			const { result, ms } = await runWithFault(fake, run, fc.fault, continueOnFail, limitMs);
			checkOutcome(label, opName, op, fc, fake, result, ms, continueOnFail);
		},
	);

	test('a failed template load stops the send before anything goes out', async () => {
		for (const fault of [
			{ status: 500 },
			{ kind: 'html' },
			{ kind: 'empty' },
			{ kind: 'reset-before' },
			{ status: 200, body: { name: 'no id' } },
		] as Fault[]) {
			fake.reset();
			// The rows above left the template read and held: this process would not read it again.
			restartProcess();
			fake.addFault('/whatsapp/get-template-detail', fault, 1);
			const result = await runBounded({
				parameters: OPERATIONS['Template Send'].parameters,
				credentials: { baseUrl: fake.url, apiKey: API_KEY },
			});
			expect(result.error?.message).toMatch(
				/^Template 104 of channel 12 could not be loaded \(item 0\): /,
			);
			expect(result.error?.description).toContain('Nothing was sent for this item.');
			expect(fake.sends()).toHaveLength(0);
			expectNoSecret(result.run, result.error);
		}
	});

	test('a refused connection, on every operation', async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		await new Promise((resolve) => server.close(resolve));
		for (const [opName, op] of Object.entries(OPERATIONS)) {
			for (const continueOnFail of [false, true]) {
				const started = Date.now();
				const result = await runBounded({
					parameters: op.parameters,
					credentials: { baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY },
					continueOnFail,
				});
				const failure = failureOf(result);
				matrix.push(
					`| network refused | ${opName}${continueOnFail ? ' (continue on fail)' : ''} | ` +
						`${Date.now() - started} ms | ${failure.message} | ${failure.description} |`,
				);
				// The template send loads its template first, so that is the request refused.
				expect(failure.message).toMatch(
					new RegExp(
						'^(Template 104 of channel 12 could not be loaded \\(item 0\\): )?' +
							'The service refused the connection: is the base URL right and the service up\\?$',
					),
				);
				expectPlainWords(failure.message, failure.description ?? '');
				if (op.kind === 'send')
					expect(failure.description).toMatch(
						/The message was not sent\.|Nothing was sent for this item\./,
					);
				expectNoSecret(result.run, result.error, result.output);
			}
		}
	});

	test.each([
		['500 JSON', { status: 500 }],
		['502 HTML page', { kind: 'html' }],
		['200 invalid JSON', { kind: 'invalid-json' }],
		['200 empty body', { kind: 'empty' }],
		['200 JSON that is not a list', { status: 200, body: { ok: true } }],
		['10 MB body', { kind: 'huge' }],
		['connection reset', { kind: 'reset-before' }],
		['401', { status: 401, body: { detail: 'Invalid api key provided.' } }],
	] as Array<[string, Fault]>)(
		"%s on the editor's template dropdown and variables mapper",
		async (_label, fault) => {
			const credentials = { baseUrl: fake.url, apiKey: API_KEY };
			for (const call of [
				async () => await searchList('searchTemplates', { channelId: 12 }, credentials),
				async () =>
					await mapperFields('getTemplateVariables', templateOn(12, 101) as never, credentials),
			]) {
				fake.reset();
				fake.addFault('*', fault, 1);
				const error = await call().then(
					() => undefined,
					(caught: unknown) => caught as { message: string; description?: string },
				);
				expect(error).toBeDefined();
				expectPlainWords(error!.message, error!.description ?? '');
				expectNoSecret(error);
			}
		},
	);
});

describe('responses that never end', () => {
	test(
		"every operation gives up at its timeout, also on an answer that trickles in; the editor's " +
			"dropdown at 10 s (EDITOR_TIMEOUT_MS; n8n's own default: 5 minutes); no retry, no secret",
		async () => {
			const cases = Object.entries(SLOW_FAULTS).flatMap(([label, fc]) =>
				Object.entries(OPERATIONS).flatMap(([opName, op]) =>
					[false, true].map((cof) => ({ label, fc, opName, op, cof })),
				),
			);
			// Which bound each request was given is read from the deadlines the node set (transport/index.ts
			// bounds every request with AbortSignal.timeout), not from how long it took on this machine.
			const deadlines = jest.spyOn(AbortSignal, 'timeout');
			const dropdown = (async () => {
				const fake = await startFakeService({ apiKey: API_KEY });
				try {
					fake.addFault('*', SLOW_FAULTS['slow trickle'].fault, 1);
					const started = Date.now();
					const error = await searchList(
						'searchTemplates',
						{ channelId: 12 },
						{ baseUrl: fake.url, apiKey: API_KEY },
					).then(
						() => undefined,
						(caught: unknown) => caught as Error,
					);
					return { error, ms: Date.now() - started };
				} finally {
					await fake.close();
				}
			})();
			const outcomes = await Promise.all(
				cases.map(async ({ label, fc, opName, op, cof }) => {
					const fake = await startFakeService({ apiKey: API_KEY });
					try {
						const { result, ms } = await runWithFault(fake, op, fc.fault, cof, TIMEOUT_MS + 10_000);
						return { label, fc, opName, op, cof, fake, result, ms };
					} finally {
						await fake.close();
					}
				}),
			);
			for (const { label, fc, opName, op, cof, fake, result, ms } of outcomes) {
				checkOutcome(label, opName, op, fc, fake, result, ms, cof);
			}
			const { error, ms } = await dropdown;
			const bounds = deadlines.mock.calls.map(([bound]) => bound);
			deadlines.mockRestore();
			// Each operation's one request to the silent path had the Timeout option as its bound, the dropdown the
			// editor's. Template Send's read of its template (answered here) keeps the default bound, 30 s.
			expect(bounds.filter((bound) => bound === TIMEOUT_MS)).toHaveLength(outcomes.length);
			expect(bounds.filter((bound) => bound === EDITOR_TIMEOUT_MS)).toHaveLength(1);
			expect(Math.max(...bounds)).toBeLessThanOrEqual(30_000);
			matrix.push(
				`| slow trickle | template dropdown (searchTemplates) | ${ms} ms | ${error?.message} | ` +
					`${(error as { description?: string } | undefined)?.description ?? ''} |`,
			);
			expect(error?.message).toMatch(
				new RegExp(
					'^The service at http://127\\.0\\.0\\.1:\\d+ did not answer within 10 seconds: ' +
						'check the Base URL in the credential$',
				),
			);
			expectNoSecret(error);
		},
	);
});
