/**
 * The sandbox of `npm run dev` shows what a phone would have received: the node sends through it in
 * n8n-core's engine (WhatsApp Template and Message → Send and Wait), and each accepted message comes
 * back as a console line, link included, and on the sandbox's /outbox page, escaped, its links
 * clickable. A refused send is in neither.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { runNode } from '../helpers/engine';
import { API_KEY, locator, mapped, waitingTemplate } from '../helpers/fixtures';
import { processClock, restartProcess } from '../helpers/process';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox is a CommonJS script
const { startSandbox } = require('../../scripts/sandbox') as {
	startSandbox: (
		options: Record<string, unknown>,
	) => Promise<{ service: FakeService; url: string; apiKey: string }>;
};

const lines: string[] = [];
let sandbox: { service: FakeService; url: string };

beforeAll(async () => {
	sandbox = await startSandbox({
		port: 0,
		apiKey: API_KEY,
		log: (line: string) => lines.push(line),
	});
});
beforeEach(() => {
	lines.length = 0;
	restartProcess();
});
afterAll(async () => {
	processClock().stop();
	await sandbox.service.close();
});

async function send(parameters: INodeParameters) {
	const result = await runNode({
		parameters,
		credentials: { baseUrl: sandbox.url, apiKey: API_KEY },
		executionId: 'exec-sandbox',
		items: [{ name: 'Anna <3' }],
	});
	expect(result.error).toBeUndefined();
	return result;
}

const outbox = async () => await (await fetch(`${sandbox.url}/outbox`)).text();
const LINK =
	/http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/exec-sandbox\/node-1\?\S*signature=[0-9a-f]{64}/;

test('a template: "WhatsApp to <phone>", the body with its variables and the answer link', async () => {
	await send(
		waitingTemplate({
			templateId: locator(108),
			variables: mapped({ '1': '={{ $json.name }}', '2': 'Monday 1 December' }),
		}),
	);
	const message = lines.find((line) => line.includes('WhatsApp to'));
	expect(message).toMatch(
		new RegExp(
			'^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WhatsApp to \\+4915123456789 \\(template 108\\): Hi Anna <3, ' +
				'please confirm your appointment on Monday 1 December on this page: ' +
				`${LINK.source} See you soon!$`,
		),
	);
	const link = LINK.exec(message ?? '')?.[0] ?? '';
	const page = await outbox();
	expect(page).toContain('WhatsApp to +4915123456789 (template 108)</b>');
	expect(page).toContain('Hi Anna &lt;3, please confirm');
	const escaped = link.replace(/&/g, '&amp;');
	expect(page).toContain(`<a href="${escaped}">${escaped}</a>`);
	expect(page).not.toContain('Anna <3');
});

test('a message: "Message to customer <id>", each further line of its text indented, blank ones left out', async () => {
	await send({
		resource: 'message',
		operation: 'sendAndWait',
		customerId: '123456',
		message: 'Refund 42 EUR?',
		approvalOptions: { values: { approvalType: 'double' } },
	});
	const at = lines.findIndex((line) => line.includes('Message to customer 123456: Refund 42 EUR?'));
	expect(at).toBeGreaterThanOrEqual(0);
	expect(lines.slice(at + 1, at + 3)).toEqual([
		expect.stringMatching(new RegExp(`^    ✓ Approve: ${LINK.source}$`)),
		expect.stringMatching(new RegExp(`^    ✗ Decline: ${LINK.source}$`)),
	]);
	// Newest first.
	expect((await outbox()).indexOf('Message to customer 123456')).toBeLessThan(
		(await outbox()).indexOf('WhatsApp to'),
	);
});

test('a send the sandbox refuses is not in the outbox', async () => {
	const before = await outbox();
	const answer = await fetch(`${sandbox.url}/stable/open/customers/send-text-message`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'X-Service-Api-Key': API_KEY },
		body: JSON.stringify({ customer_id: 'not-a-customer', text: 'Hello' }),
	});
	expect(answer.status).toBe(400);
	expect(await outbox()).toBe(before);
	expect(lines.filter((line) => line.includes('to customer'))).toEqual([]);
});
