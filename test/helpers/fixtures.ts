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
	return Object.assign(state, { run });
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
