/**
 * How the end-to-end suites read n8n's executions list (test/e2e/support.js). Asked without a
 * status, n8n lists the unfinished and the finished executions in two queries run side by side, so
 * an execution that finishes between them is listed twice: running, and finished. Seen on 2.41.1
 * while answer links were answered under load (3 lists of 30 polled around each answer), and what
 * made "three links in pt-BR, ar and de" fail with "2 executions … started after 0". The list
 * below is such an answer, as n8n gives it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { executionMark, executionSince } = require('../e2e/support');

const row = (id: string, status: string) => ({
	id,
	status,
	mode: 'webhook',
	workflowId: 'E2ePageLangTrg01',
	startedAt: '2026-12-06T18:00:00.000Z',
});

/** n8n's REST API as the suites call it, answering every list with `results`. */
function restListing(results: object[]) {
	return {
		request: async (method: string, url: string) => {
			if (method !== 'GET' || !url.startsWith('/rest/executions?'))
				throw new Error(`unexpected ${method} ${url}`);
			return { status: 200, text: '', json: { data: { results, count: results.length } } };
		},
	};
}

describe('the executions list as the end-to-end suites read it', () => {
	const finishing = [row('7', 'running'), row('7', 'success'), row('5', 'success')];

	test('an execution listed running and finished at once is one execution, the finished one', async () => {
		const rest = restListing(finishing);
		await expect(executionSince(rest, 'E2ePageLangTrg01', 5, { timeoutMs: 0 })).resolves.toEqual(
			expect.objectContaining({ id: '7', status: 'success' }),
		);
		await expect(executionMark(rest, 'E2ePageLangTrg01')).resolves.toBe(7);
	});

	test('two executions started after the mark are still two: the test cannot tell its own', async () => {
		const rest = restListing([...finishing, row('8', 'running')]);
		await expect(executionSince(rest, 'E2ePageLangTrg01', 5, { timeoutMs: 0 })).rejects.toThrow(
			'2 executions of E2ePageLangTrg01 started after 5',
		);
	});
});
