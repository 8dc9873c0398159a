/**
 * What a builder and an operator see of a send run, through n8n-core's engine against the fake
 * service: one execution hint above the output with the run's figures (they match the items), and
 * n8n's log with the run's start, its pauses and its end, in counts and reasons only. The logger is
 * n8n's own (n8n-core's `this.logger`), its calls recorded; n8n-core 1.63's engine, which has no
 * execution hints, is in olderN8n.test.ts.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../helpers/engine';
import { API_KEY, broadcastSend, serializeEverything, useFakeService } from '../helpers/fixtures';
import { useProcessedDataStore } from '../helpers/processedDataStore';
import type { InMemoryProcessedDataStore } from '../helpers/processedDataStore';
import { processClock } from '../helpers/process';
import { until } from '../helpers/until';

const service = useFakeService();
const SEND_PATH = '/whatsapp/send-template-message';

/** `count` recipients; those at `bad` positions have a number no country code makes whole. */
const recipients = (count: number, bad: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({
		orderId: `B-${i}`,
		phone: bad.includes(i) ? `0151 ${i}` : `+491520${String(i).padStart(6, '0')}`,
		name: `Customer ${i}`,
	}));

interface LogLine {
	level: string;
	message: string;
	metadata: IDataObject;
}

/** Records every call of n8n's logger (the one `this.logger` gives nodes) while `run` runs. */
async function recordingLog<T>(run: () => Promise<T>): Promise<{ result: T; lines: LogLine[] }> {
	const logger = Container.get(Logger);
	const lines: LogLine[] = [];
	const spies = (['error', 'warn', 'info', 'debug'] as const).map((level) =>
		jest.spyOn(logger, level).mockImplementation((message: string, metadata: object = {}) => {
			lines.push({ level, message, metadata: metadata as IDataObject });
		}),
	);
	try {
		return { result: await run(), lines };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}

const nodeLines = (lines: LogLine[]) =>
	lines.filter((line) => line.message.startsWith('Omnichannel Messaging: '));

describe('the run summary: one execution hint', () => {
	test(
		'600 recipients, 3 bad, Continue (using error output): 597 sent and 3 failed on the error ' +
			'output, the figures those of the items',
		async () => {
			const items = recipients(600, [7, 300, 599]);
			const { output, errorOutput, hints } = await runNode({
				parameters: broadcastSend({ validateTemplate: false }),
				credentials: service.credentials,
				items,
				errorOutput: true,
			});
			// Every item on one output or the other; then where each went.
			expect(output.length + errorOutput.length).toBe(items.length);
			expect(errorOutput.map((item) => item.json.details)).toEqual(
				[7, 300, 599].map(() => expect.objectContaining({ reason: 'invalidInput' })),
			);
			expect(output).toHaveLength(597);
			expect(errorOutput.map((item) => item.pairedItem)).toEqual([
				{ item: 7 },
				{ item: 300 },
				{ item: 599 },
			]);
			expect(service.fake.sends(SEND_PATH).filter((r) => r.status === 200)).toHaveLength(597);
			expect(hints).toHaveLength(1);
			expect(hints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
			expect(hints[0].message).toMatch(
				/^600 item\(s\): 597 sent, 3 failed \(on the error output\), in \d+\.\d s\.$/,
			);
		},
	);

	test('Continue (regular output): the failed items are on the output, and the hint says so', async () => {
		const { output, hints } = await runNode({
			parameters: broadcastSend({ validateTemplate: false }),
			credentials: service.credentials,
			items: recipients(5, [2]),
			continueOnFail: true,
		});
		expect(output.filter((item) => item.json.error !== undefined)).toHaveLength(1);
		expect(hints.map((hint) => hint.message)).toEqual([
			expect.stringMatching(
				/^5 item\(s\): 4 sent, 1 failed \(on the output, each with an "error" field\), in /,
			),
		]);
	});

	test("the wall time is the delivery engine's clock: a run the clock moved 90 s says 1 min 3x s", async () => {
		await service.withLatency(1_000, async () => {
			const running = runNode({
				parameters: broadcastSend({ validateTemplate: false }),
				credentials: service.credentials,
				items: recipients(1),
			});
			// The send has reached the service, so the run's start is taken; its answer is a second away.
			await until(() => service.fake.requests.length > 0, 'a send at the service');
			await processClock().advance(90_000, 90_000);
			const { hints } = await running;
			// 90 s of the clock plus the real second of the answer (up to 9 s on a busy machine).
			expect(hints[0].message).toMatch(/^1 item\(s\): 1 sent, in 1 min 3\d s\.$/);
		});
	});
});

describe('the run summary with Send Once per Key', () => {
	let store: InMemoryProcessedDataStore;
	beforeAll(async () => {
		store = await useProcessedDataStore();
	});
	beforeEach(() => store.reset());

	test('items sent before and repeated in the run are counted as skipped, by why', async () => {
		const parameters = broadcastSend({
			validateTemplate: false,
			sendOnceKey: '={{ $json.orderId }}-shipped',
		});
		const first = recipients(10);
		await runNode({ parameters, credentials: service.credentials, items: first });
		const fresh = recipients(14).slice(10);
		const again = [...first, ...fresh, fresh[0]];
		const { output, hints } = await runNode({
			parameters,
			credentials: service.credentials,
			items: again,
		});
		const skipped = output.filter((item) => item.json.skipped === true);
		expect(skipped).toHaveLength(11);
		expect(output).toHaveLength(15);
		expect(hints.map((hint) => hint.message)).toEqual([
			expect.stringMatching(
				/^15 item\(s\): 4 sent, 11 skipped by Send Once \(10 sent before, 1 repeated in this run\), in /,
			),
		]);
	});
});

describe("n8n's log: counts and reasons only", () => {
	test(
		'a broadcast of 600 against a service answering 429: start, pause and end lines from the ' +
			'node; no number, text, variable value or key anywhere',
		async () => {
			service.fake.setLimits({ concurrencyLimit: 4, retryAfter: '1' });
			const items = recipients(600);
			const { result, lines } = await service.withLatency(20, () =>
				recordingLog(
					async () =>
						await runNode({
							parameters: broadcastSend({ concurrency: 20 }),
							credentials: service.credentials,
							items,
						}),
				),
			);
			expect(result.error).toBeUndefined();
			expect(result.output).toHaveLength(600);
			expect(service.fake.tooMany.inFlight).toBeGreaterThan(0);
			const ours = nodeLines(lines);
			expect(ours[0]).toMatchObject({
				level: 'debug',
				message: 'Omnichannel Messaging: send run started: 600 item(s)',
				metadata: { items: 600, concurrency: 20, operation: 'whatsappTemplate.send' },
			});
			const pauses = ours.filter((line) => /asked to slow down \(429\)/.test(line.message));
			expect(pauses.length).toBeGreaterThan(0);
			expect(pauses[0].metadata).toMatchObject({ statusCode: 429, retryAfterMs: 1000 });
			const end = ours[ours.length - 1];
			expect(end.level).toBe('info');
			expect(end.message).toMatch(/send run completed: 600 item\(s\): 600 sent, in .* slow down/);
			expect(end.metadata).toMatchObject({ sent: 600, failed: 0, pauses: pauses.length });
			expect(result.hints[0].message).toMatch(/settled at \d+ message\(s\) at once/);

			const log = serializeEverything(lines);
			expect(log).not.toContain(API_KEY);
			for (const item of items) {
				expect(log).not.toContain(item.phone);
				expect(log).not.toContain(item.name);
			}
			for (const text of ['1042', 'Friday', 'Customer']) expect(log).not.toContain(text);
		},
	);
});

describe('a run that stops', () => {
	test(
		'without Continue On Fail, a refused send stops the run: no hint, and the end line counts ' +
			'what was sent, failed and not started',
		async () => {
			service.fake.addFault(SEND_PATH, { status: 400, body: { error: 'blocked' } }, 1, 2);
			const { result, lines } = await recordingLog(
				async () =>
					await runNode({
						parameters: broadcastSend({ validateTemplate: false, concurrency: 1 }),
						credentials: service.credentials,
						items: recipients(5),
					}),
			);
			expect(result.error?.message).toBe('blocked');
			expect(result.hints).toEqual([]);
			const end = nodeLines(lines).at(-1);
			expect(end?.level).toBe('info');
			expect(end?.message).toMatch(
				/send run stopped: 5 item\(s\): 2 sent, 1 failed \(the run stopped\), 2 not started, in /,
			);
			expect(end?.metadata).toMatchObject({ sent: 2, failed: 1, notStarted: 2, failedTo: 'stop' });
		},
	);
});

describe('a file where the service takes a link', () => {
	const file = { data: { data: 'JVBERi0xLjQK', mimeType: 'application/pdf', fileName: 'a.pdf' } };

	test('Send Attachment, binary input, no URL: nothing sent, the error names the field, says to upload', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'message',
				operation: 'sendAttachment',
				customerId: '4711',
				attachmentType: 'document',
				attachmentUrl: '={{ $json.fileUrl }}',
				options: {},
			},
			credentials: service.credentials,
			inputItems: [{ json: {}, binary: file }],
		});
		expect(error?.message).toBe(
			'Attachment URL (item 0): it is empty, and the item carries a file (binary data): the ' +
				'service takes a public link to the file, not the file itself',
		);
		expect(error?.description).toMatch(
			/^Upload the file first .*S3, Google Drive or Cloudinary.*public URL in this field\. /,
		);
		expect(service.fake.requests).toEqual([]);
	});

	test('Template Send, a media header, binary input, no Header Media URL: the same words', async () => {
		const { error } = await runNode({
			parameters: {
				...broadcastSend(),
				templateId: { __rl: true, mode: 'id', value: '102' },
				variables: undefined,
				variablesMode: 'json',
				variablesJson: '{"1": "Anna", "2": "20"}',
			},
			credentials: service.credentials,
			inputItems: [{ json: { phone: '+4915100000001' }, binary: file }],
		});
		expect(error?.message).toMatch(
			/^Header Media URL \(item 0\): .*image header.*not the file itself$/,
		);
		expect(error?.description).toMatch(/^Upload the file first .*public URL in this field\. /);
		expect(service.fake.sends()).toEqual([]);
	});
});
