/*
 * Issue 19, part 1: the template a send checks against is read once for every execution of the
 * process while it is fresh (TEMPLATE_CACHE.freshMs), one read at a time; a refused send or a
 * failed read forgets it; the editor's mapper and template picker read every time.
 */
import { startFakeService } from '../fake-service';
import { demoTemplates } from '../fake-service/seed';
import type { Fault, FakeService } from '../fake-service';
import { TEMPLATE_CACHE } from '../../nodes/OmnichannelMessaging/constants';
import { mapperFields, runNode, searchList } from '../helpers/engine';
import type { CredentialData } from '../helpers/engine';
import { API_KEY, broadcastSend, mapped, useFakeService } from '../helpers/fixtures';
import { processClock } from '../helpers/process';

const service = useFakeService();
const DETAIL_PATH = '/stable/open/whatsapp/get-template-detail';
const SEND_PATH = '/whatsapp/send-template-message';

const detailReads = (fake: FakeService = service.fake) =>
	fake.requests.filter((r) => r.path === DETAIL_PATH).length;

let executions = 0;

/** One CRM event: one execution of its own, one message. */
async function oneEvent(
	credentials: CredentialData = service.credentials,
	phone = '+4915100000001',
) {
	executions += 1;
	return await runNode({
		parameters: broadcastSend(),
		credentials,
		items: [{ phone, name: 'Anna' }],
		executionId: `event-${executions}`,
	});
}

/** Runs `events` and says how many template reads each one made. */
/** An event whose send the service answers with `fault`: it fails with `message` (the whole of it, or a match). */
const refusedEvent = (fault: Fault, message: string | RegExp) => async () => {
	service.fake.addFault(SEND_PATH, fault);
	const failure = (await oneEvent()).error?.message;
	if (typeof message === 'string') expect(failure).toBe(message);
	else expect(failure).toMatch(message);
};

async function readsPerEvent(events: Array<() => Promise<unknown>>): Promise<number[]> {
	const reads: number[] = [];
	for (const event of events) {
		const before = detailReads();
		await event();
		reads.push(detailReads() - before);
	}
	return reads;
}

describe('template reads shared by the executions of one process', () => {
	test('two executions one after another read the template once', async () => {
		const first = await oneEvent();
		const second = await oneEvent(service.credentials, '+4915100000002');
		expect([first.error, second.error]).toEqual([undefined, undefined]);
		expect(detailReads()).toBe(1);
		expect(service.fake.sends(SEND_PATH).map((r) => r.status)).toEqual([200, 200]);
	});

	test('two executions at once make one read, and both send', async () => {
		await service.withLatency(100, async () => {
			const results = await Promise.all([
				oneEvent(),
				oneEvent(service.credentials, '+4915100000002'),
			]);
			expect(results.map((r) => r.error)).toEqual([undefined, undefined]);
			expect(results.map((r) => r.output[0].json.status)).toEqual(['ongoing', 'ongoing']);
		});
		expect(detailReads()).toBe(1);
	});

	test('once the fresh time has passed, the next execution reads it again', async () => {
		const early = await readsPerEvent([async () => await oneEvent(), async () => await oneEvent()]);
		await processClock().advance(TEMPLATE_CACHE.freshMs - 1_000, TEMPLATE_CACHE.freshMs);
		const stillFresh = await readsPerEvent([async () => await oneEvent()]);
		await processClock().advance(1_000, 1_000);
		const late = await readsPerEvent([async () => await oneEvent(), async () => await oneEvent()]);
		expect([...early, ...stillFresh, ...late]).toEqual([1, 0, 0, 1, 0]);
	});

	test('a send the service refuses with 400 forgets the template: the next execution reads it again', async () => {
		const reads = await readsPerEvent([
			async () => await oneEvent(),
			refusedEvent(
				{ status: 400, body: { detail: 'Template is paused', code: 'template_paused' } },
				/HTTP 400/,
			),
			async () => await oneEvent(),
			async () => await oneEvent(),
		]);
		expect(reads).toEqual([1, 0, 1, 0]);
	});

	test('a send refused for the credential (401) or answered 500 keeps the template', async () => {
		const reads = await readsPerEvent([
			async () => await oneEvent(),
			refusedEvent(
				{ status: 401, body: { detail: 'Invalid api key provided.' } },
				'The API key was rejected',
			),
			refusedEvent({ status: 500, body: { detail: 'oops' } }, 'The service failed with HTTP 500'),
			async () => await oneEvent(),
		]);
		expect(reads).toEqual([1, 0, 0, 0]);
	});

	test('a failed read is not kept: the next execution reads again, and keeps that answer', async () => {
		service.fake.addFault('/whatsapp/get-template-detail', {
			status: 502,
			body: { detail: 'bad gateway' },
		});
		let failed: Awaited<ReturnType<typeof oneEvent>> | undefined;
		const reads = await readsPerEvent([
			async () => (failed = await oneEvent()),
			async () => await oneEvent(),
			async () => await oneEvent(),
		]);
		expect(failed?.error?.message).toContain(
			'Template 101 of channel 12 could not be loaded (item 0)',
		);
		expect(reads).toEqual([1, 1, 0]);
		expect(service.fake.sends(SEND_PATH).map((r) => r.status)).toEqual([200, 200]);
	});

	test('executions waiting on one read that fails each get the error for their own item; nothing is kept', async () => {
		service.fake.addFault('/whatsapp/get-template-detail', {
			status: 502,
			body: { detail: 'bad gateway' },
		});
		const results = await service.withLatency(100, () =>
			Promise.all([
				oneEvent(),
				// Its item 0 fails its own check at once; item 1 then waits on the first execution's read.
				runNode({
					parameters: broadcastSend(),
					credentials: service.credentials,
					items: [
						{ phone: 'not a phone', name: 'Bob' },
						{ phone: '+4915100000003', name: 'Carla' },
					],
					continueOnFail: true,
					executionId: 'event-second',
				}),
			]),
		);
		expect(detailReads()).toBe(1);
		expect(results[0].error?.message).toContain('could not be loaded (item 0)');
		expect(results[1].output[1].json.error).toContain(
			'Template 101 of channel 12 could not be loaded (item 1)',
		);
		expect(results[1].output[1].json.details).toMatchObject({
			outcome: 'notSent',
			httpCode: '502',
		});
		expect(service.fake.sends(SEND_PATH)).toHaveLength(0);
		expect(
			await readsPerEvent([async () => await oneEvent(), async () => await oneEvent()]),
		).toEqual([1, 0]);
	});

	test('another API key or another base URL does not share the read', async () => {
		const other = await startFakeService({ apiKey: API_KEY });
		try {
			const otherService = { baseUrl: other.url, apiKey: API_KEY };
			const rotated = `${API_KEY}-rotated`;
			const reads = await readsPerEvent([
				async () => await oneEvent(),
				async () => await oneEvent(otherService),
				async () => {
					service.fake.apiKey = rotated;
					await oneEvent({ ...service.credentials, apiKey: rotated });
				},
				async () => await oneEvent({ ...service.credentials, apiKey: rotated }),
				async () => {
					service.fake.apiKey = API_KEY;
					await oneEvent();
				},
			]);
			// The other base URL's read happened at the other service.
			expect(reads).toEqual([1, 0, 1, 0, 0]);
			expect(detailReads(other)).toBe(1);
			expect(service.fake.sends(SEND_PATH).map((r) => r.status)).toEqual([200, 200, 200, 200]);
		} finally {
			service.fake.apiKey = API_KEY;
			await other.close();
		}
	});

	test('a held copy that would stop an item is read again first: an edited template is seen at once', async () => {
		const edited = demoTemplates().map((t) =>
			t.id === 101
				? {
						...t,
						body: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}} at {{4}}.',
						attributes: ['1', '2', '3', '4'].map((a) => ({ attribute: a })),
					}
				: t,
		);
		const withFour = broadcastSend(
			{},
			{ variables: mapped({ '1': '={{ $json.name }}', '2': '1042', '3': 'Friday', '4': 'noon' }) },
		);
		const withFourEvent = async () =>
			await service.run(withFour, {
				items: [{ phone: '+4915100000004', name: 'Dora' }],
				executionId: 'four',
			});
		let stopped: Awaited<ReturnType<typeof runNode>> | undefined;
		try {
			const reads = await readsPerEvent([
				async () => await oneEvent(),
				async () => {
					service.fake.setTemplates(12, edited);
					expect((await withFourEvent()).error).toBeUndefined();
				},
				async () => expect((await withFourEvent()).error).toBeUndefined(),
				// Three values no longer fit: stopped, after one more read that says so.
				async () => (stopped = await oneEvent()),
			]);
			expect(reads).toEqual([1, 1, 0, 1]);
		} finally {
			service.fake.setTemplates(12, demoTemplates());
		}
		expect(stopped?.error?.message).toContain('template "order_shipped" needs a value for {{4}}');
		expect(service.fake.sends(SEND_PATH).map((r) => r.body.attributes['4'])).toEqual([
			undefined,
			'noon',
			'noon',
		]);
	});

	test('the variables mapper and the template picker read every time, and leave the executions theirs', async () => {
		const designTime = { channelId: 12, templateId: { __rl: true, mode: 'list', value: '101' } };
		const reads = await readsPerEvent([
			async () => await oneEvent(),
			async () => await mapperFields('getTemplateVariables', designTime, service.credentials),
			async () => await mapperFields('getTemplateVariables', designTime, service.credentials),
			async () => await oneEvent(),
		]);
		await searchList('searchTemplates', designTime, service.credentials);
		await searchList('searchTemplates', designTime, service.credentials);
		expect(reads).toEqual([1, 1, 1, 0]);
		expect(service.fake.requests.filter((r) => r.path.endsWith('/get-template-list'))).toHaveLength(
			2,
		);
	});
});
