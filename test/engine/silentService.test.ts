/*
 * The editor's calls against a service that accepts the connection and never answers: each ends
 * at EDITOR_TIMEOUT_MS (10 s) with words that name the Base URL's origin, never the key. A silent
 * server never answers, so a call without the bound would hang past the test's own timeout: the
 * words are the proof, and how long each call took is left to the real-n8n test
 * (test/e2e/silentService.e2e.js), since no test in npm test races the clock.
 */
import { mapperFields, searchList, testCredential } from '../helpers/engine';
import { API_KEY, locator } from '../helpers/fixtures';
import { startSilentServer } from '../helpers/silentServer';

let silent: Awaited<ReturnType<typeof startSilentServer>>;
beforeAll(async () => {
	silent = await startSilentServer();
});
afterAll(async () => await silent.close());

/** How a call ended: its answer, or the error it threw. */
async function settled(
	call: () => Promise<unknown>,
): Promise<{ outcome: unknown; failed: boolean }> {
	try {
		return { outcome: await call(), failed: false };
	} catch (error) {
		return { outcome: error, failed: true };
	}
}

test('credential Test, both lists and the mapper end at the editor timeout, naming the Base URL', async () => {
	// With a password in the URL: the origin named must leave it out.
	const credentials = {
		baseUrl: silent.url.replace('http://', 'http://ops:hunter2-secret@'),
		apiKey: API_KEY,
	};
	const where = {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: locator(101, 'list'),
	};
	const [credential, channels, templates, mapper] = await Promise.all([
		settled(async () => await testCredential(credentials)),
		settled(async () => await searchList('searchChannels', where, credentials)),
		settled(async () => await searchList('searchTemplates', where, credentials)),
		settled(async () => await mapperFields('getTemplateVariables', where, credentials)),
	]);
	expect(silent.connections()).toBeGreaterThanOrEqual(4);
	for (const call of [credential, channels, templates, mapper]) {
		expect(JSON.stringify(call.outcome)).not.toMatch(/hunter2|sk-live/);
	}
	for (const call of [channels, templates, mapper]) {
		expect(call.failed).toBe(true);
		expect((call.outcome as Error).message).toBe(
			`The service at ${silent.url} did not answer within 10 seconds: check the Base URL in the credential`,
		);
	}
	// n8n's tester words a timeout itself, as the request error's code; its rules match status codes only.
	expect(credential.outcome).toEqual({ status: 'Error', message: 'ECONNABORTED' });
}, 40_000);
