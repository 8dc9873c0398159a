import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startFakeService } from '../fake-service';
import type { FakeService, FakeServiceOptions } from '../fake-service';
import { runNode } from './engine';
import type { CredentialData, RunOptions, RunResult } from './engine';
import { mapperValue } from './mapperValue';
import { locator } from './parameters';
import { processClock, restartProcess } from './process';

export const API_KEY = 'sk-live-omni-7f3a9c2e5b1d4e8f';

/**
 * One fake service per test file, its log cleared before each test; `run` runs the node with
 * `parameters` against it (runNode with its credentials).
 */
export function useFakeService(options: FakeServiceOptions = {}) {
	const state = {} as { fake: FakeService; credentials: CredentialData };
	const run = async (
		parameters: INodeParameters,
		more: Omit<RunOptions, 'parameters' | 'credentials'> = {},
	): Promise<RunResult> => await runNode({ parameters, credentials: state.credentials, ...more });
	beforeAll(async () => {
		state.fake = await startFakeService({ apiKey: API_KEY, ...options });
		state.credentials = { baseUrl: state.fake.url, apiKey: API_KEY };
	});
	beforeEach(() => {
		state.fake.reset();
		// Each test starts as a fresh n8n process would: no pace learned from an earlier test.
		restartProcess();
	});
	afterAll(async () => {
		// No idle-time store check of this file's last test left waiting to run.
		processClock().stop();
		await state.fake.close();
	});
	/** Runs `check` with the service answering each request after `latencyMs`, then at once again. */
	const withLatency = async <T>(latencyMs: number, check: () => Promise<T>): Promise<T> => {
		state.fake.latencyMs = latencyMs;
		try {
			return await check();
		} finally {
			state.fake.latencyMs = 0;
		}
	};
	return Object.assign(state, { run, withLatency });
}

/**
 * A fake service of its own for one test: the node keeps one pacer per service for the life of
 * the process, so a test that leaves a pause or a learned pace behind gives it to no other test.
 */
export async function withOwnService<T>(
	check: (fake: FakeService, credentials: CredentialData) => Promise<T>,
	options: FakeServiceOptions = {},
): Promise<T> {
	const fake = await startFakeService({ apiKey: API_KEY, ...options });
	try {
		return await check(fake, { baseUrl: fake.url, apiKey: API_KEY });
	} finally {
		await fake.close();
	}
}

export { locator, sendAttachmentTo, sendTextTo, getTemplate, getTemplates } from './parameters';
export { templateOn } from './parameters';

/** A Variables mapper value as the editor stores it. */
export const mapped = mapperValue;

/** Every string that could leak the key: the run data, and the errors with their hidden fields. */
export function serializeEverything(value: unknown): string {
	const seen = new WeakSet();
	return (
		JSON.stringify(value, function replacer(_key, current) {
			if (current && typeof current === 'object') {
				if (seen.has(current)) return '[circular]';
				seen.add(current);
				if (current instanceof Error) {
					const all: Record<string, unknown> = {};
					for (const name of Object.getOwnPropertyNames(current))
						all[name] = (current as never)[name];
					for (const name of Object.keys(current)) all[name] = (current as never)[name];
					return all;
				}
			}
			return typeof current === 'bigint' ? String(current) : current;
		}) ?? ''
	);
}

/** A template send of order_shipped (101) on channel 12 to `$json.phone`, `{{1}}` from `$json.name`. */
export const broadcastSend = (
	options: IDataObject = {},
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId: 12,
	templateId: locator(101),
	customerPhone: '={{ $json.phone }}',
	variables: mapped({ '1': '={{ $json.name }}', '2': '1042', '3': 'Friday' }),
	options: options as INodeParameters,
	...extra,
});

/**
 * A fake service for a file of Send and Wait tests, whose runs are execution `executionId` with
 * one order item; n8n signs the waiting links with its instance's `secret`, set here before any run.
 */
export function useSendAndWait(executionId: string, secret: string) {
	process.env.N8N_HMAC_SIGNATURE_SECRET = secret;
	const service = useFakeService();
	const run = async (parameters: INodeParameters, items: IDataObject[] = [{ order: 1042 }]) =>
		await service.run(parameters, { executionId, items });
	const waiting = `http://127.0.0.1:5678/webhook-waiting/${executionId}/node-1`;
	/** A run of `parameters` sends `question`, then its one signed link under `label`, and waits. */
	const expectAsksWithLink = async (
		parameters: INodeParameters,
		question: string,
		label: string,
	) => {
		const result = await run(parameters);
		expectWaiting(result);
		const text = String(service.fake.sends()[0].body.text);
		const before = `${question}\n\n${label}: ${waiting}?signature=`;
		expect(text.slice(0, before.length)).toBe(before);
		expect(text.slice(before.length)).toMatch(/^[0-9a-f]{64}$/);
		// While waiting the node shows its input, as n8n's own nodes do.
		expect(result.output.map((item) => item.json)).toEqual([{ order: 1042 }]);
		return text;
	};
	return { service, run, waiting, expectAsksWithLink };
}

/** A Send and Wait that sent its message without an error and now waits for the answer. */
function expectWaiting(result: RunResult): void {
	expect(result.error).toBeUndefined();
	expect(result.run.status).toBe('waiting');
}

/**
 * Message → Send and Wait for Response to customer 123456 asking `message`, with `fixed`: the
 * parameters of a test file's asks, to which each test adds its own.
 */
export const waitingMessage =
	(message: string, fixed: INodeParameters = {}) =>
	(extra: INodeParameters = {}): INodeParameters => ({
		resource: 'message',
		operation: 'sendAndWait',
		customerId: '123456',
		message,
		...fixed,
		...extra,
	});

/** WhatsApp Template → Send and Wait with the template the fake service knows, its link in {{3}}. */
export const waitingTemplate = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'sendAndWait',
	channelId: 12,
	templateId: locator(101),
	customerPhone: '+49 151 2345 6789',
	variables: mapped({ '1': 'Anna', '2': '1042' }),
	linkVariable: 3,
	...extra,
});
