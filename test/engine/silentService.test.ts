/*
 * The editor's calls against a service that accepts the connection and never answers: each ends
 * within EDITOR_TIMEOUT_MS (10 s) with words that name the Base URL's origin, never the key. The
 * four run at once, so the file takes one timeout; the bounds are wide for a busy machine.
 */
import { mapperFields, searchList, testCredential } from '../helpers/engine';
import { API_KEY, locator } from '../helpers/fixtures';
import { startSilentServer } from '../helpers/silentServer';

const EDITOR_TIMEOUT_MS = 10_000;

let silent: Awaited<ReturnType<typeof startSilentServer>>;
beforeAll(async () => {
	silent = await startSilentServer();
});
afterAll(async () => await silent.close());

/** How a call ended and how long it took. */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; outcome: unknown; failed: boolean }> {
	const started = Date.now();
	try {
		return { outcome: await call(), failed: false, ms: Date.now() - started };
	} catch (error) {
		return { outcome: error, failed: true, ms: Date.now() - started };
	}
}

test('credential Test, both lists and the mapper end within the editor timeout, naming the Base URL', async () => {
	// With a password in the URL: the origin named must leave it out.
	const credentials = { baseUrl: silent.url.replace('http://', 'http://ops:hunter2-secret@'), apiKey: API_KEY };
	const where = { resource: 'whatsappTemplate', operation: 'send', channelId: 12, templateId: locator(101, 'list') };
	const [credential, channels, templates, mapper] = await Promise.all([
		timed(async () => await testCredential(credentials)),
		timed(async () => await searchList('searchChannels', where, credentials)),
		timed(async () => await searchList('searchTemplates', where, credentials)),
		timed(async () => await mapperFields('getTemplateVariables', where, credentials)),
	]);
	expect(silent.connections()).toBeGreaterThanOrEqual(4);
	for (const call of [credential, channels, templates, mapper]) {
		expect(call.ms).toBeGreaterThanOrEqual(EDITOR_TIMEOUT_MS - 1000);
		expect(call.ms).toBeLessThan(EDITOR_TIMEOUT_MS + 8000);
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
