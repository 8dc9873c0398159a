import type { IDataObject, INodeType, IWebhookFunctions } from 'n8n-workflow';

import { loadPackage } from '../helpers/engine';

/** What the node wrote to n8n's response. */
interface Written {
	status?: number;
	headers?: Record<string, string>;
	body?: string;
}

const PREVIEWS = [
	'WhatsApp/2.23.20.0',
	'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
	'TelegramBot (like TwitterBot)',
	'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36',
];

function parameter(parameters: IDataObject, name: string, fallback: unknown): unknown {
	let value: unknown = parameters;
	for (const part of name.split('.'))
		value = value && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
	return value ?? fallback;
}

/** n8n's webhook functions for one request to the node's waiting URL (its signature already checked). */
function request(
	parameters: IDataObject,
	req: {
		method: string;
		query?: IDataObject;
		body?: IDataObject;
		userAgent?: string;
		multipart?: boolean;
	},
) {
	const written: Written = {};
	const logged: Array<[string, IDataObject]> = [];
	const log = (message: string, figures: IDataObject) => logged.push([message, figures]);
	const functions = {
		logger: { debug: log, info: log, warn: log, error: log },
		getNode: () => ({ name: 'Ask the manager' }),
		getNodeParameter: (name: string, fallback: unknown) => parameter(parameters, name, fallback),
		getRequestObject: () => ({
			method: req.method,
			query: req.query ?? {},
			headers: { 'user-agent': req.userAgent },
			contentType: req.multipart ? 'multipart/form-data' : undefined,
		}),
		getBodyData: () => req.body ?? {},
		getResponseObject: () => ({
			writeHead: (status: number, headers: Record<string, string>) =>
				Object.assign(written, { status, headers }),
			end: (body: string) => Object.assign(written, { body }),
		}),
	} as unknown as IWebhookFunctions;
	return { functions, written, logged };
}

/** What the free-text page posts, as n8n parses it: multipart `{ data, files }`. */
const FREE_TEXT_POST = {
	method: 'POST',
	body: { data: { 'field-0': 'Only half <please>' }, files: {} },
	multipart: true,
};

let nodeType: INodeType;
beforeAll(async () => {
	nodeType = (await loadPackage()).getNode('omnichannelMessaging').type as INodeType;
});

async function answer(parameters: IDataObject, req: Parameters<typeof request>[1]) {
	const { functions, written, logged } = request(parameters, req);
	const result = await nodeType.webhook!.call(functions);
	return { result, written, logged };
}

const DOUBLE: IDataObject = {
	resource: 'message',
	operation: 'sendAndWait',
	message: 'Refund <b>42</b> EUR?',
	approvalOptions: {
		values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' },
	},
};

describe("the node's waiting webhook", () => {
	test('declares GET and POST under the node ID, restarting the waiting execution', () => {
		expect(nodeType.description.webhooks).toEqual(
			['GET', 'POST'].map((httpMethod) =>
				expect.objectContaining({ httpMethod, path: '={{ $nodeId }}', restartWebhook: true }),
			),
		);
	});

	test.each(PREVIEWS)(
		'a GET by %s shows the page and never resumes the execution',
		async (userAgent) => {
			const { result, written } = await answer(DOUBLE, {
				method: 'GET',
				query: { approved: 'true' },
				userAgent,
			});
			expect(result).toEqual({ noWebhookResponse: true });
			expect(written.status).toBe(200);
			expect(written.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
			expect(written.headers?.['Cache-Control']).toBe('no-store');
			expect(written.body).toContain('<p dir="auto">Refund &lt;b&gt;42&lt;/b&gt; EUR?</p>');
			expect(written.body).toContain('value="true" class="primary" dir="auto">Yes</button>');
			expect(written.body).not.toContain('value="false"');
		},
	);

	test("the page's POST resumes with n8n's output and says what was recorded", async () => {
		const { result, written } = await answer(DOUBLE, {
			method: 'POST',
			query: { approved: 'false' },
			body: { approved: 'false' },
		});
		expect(result.noWebhookResponse).toBe(true);
		expect(result.workflowData).toEqual([
			[{ json: { data: { approved: false, respondedAt: expect.any(String) } } }],
		]);
		expect(written.body).toContain('<p>Recorded: No</p>');
	});

	test('a free-text POST resumes with the text', async () => {
		const { result, written } = await answer(
			{ ...DOUBLE, responseType: 'freeText' },
			FREE_TEXT_POST,
		);
		expect(result.workflowData?.[0][0].json).toEqual({
			data: { text: 'Only half <please>', respondedAt: expect.any(String) },
		});
		expect(written.body).toContain(
			'<dt><bdi>Your answer</bdi></dt><dd><bdi>Only half &lt;please&gt;</bdi></dd>',
		);
	});

	test('the free-text page is a form of one required, bounded text area', async () => {
		const { written } = await answer({ ...DOUBLE, responseType: 'freeText' }, { method: 'GET' });
		expect(written.body).toContain('<form method="post" enctype="multipart/form-data">');
		expect(written.body).toContain(
			'<label for="field-0" class="required" dir="auto">Your answer</label>' +
				'<textarea id="field-0" name="field-0" required rows="4" maxlength="10000"></textarea>',
		);
	});

	test('a free-text page opened before the upgrade posts `text`: the page again, nothing resumes', async () => {
		const { result, written } = await answer(
			{ ...DOUBLE, responseType: 'freeText' },
			{ method: 'POST', body: { text: 'Only half <please>' } },
		);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(written.status).toBe(400);
		expect(written.body).toContain('answer with the form on this page');
		expect(written.body).toContain('<textarea id="field-0" name="field-0" required');
	});

	test("an answer ends the wait in n8n's log with its outcome only; a page view logs nothing", async () => {
		const shown = await answer(DOUBLE, { method: 'GET', query: { approved: 'true' } });
		expect(shown.logged).toEqual([]);
		const { logged } = await answer({ ...DOUBLE, responseType: 'freeText' }, FREE_TEXT_POST);
		expect(logged).toEqual([
			[
				'Omnichannel Messaging: wait ended (answered)',
				expect.objectContaining({ node: 'Ask the manager', outcome: 'answered' }),
			],
		]);
		expect(JSON.stringify(logged)).not.toMatch(/Only half|Refund/);
	});

	test('a POST without an answer resumes nothing: the page again (400), its buttons and why', async () => {
		const { result, written } = await answer(DOUBLE, { method: 'POST', body: {} });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(written.status).toBe(400);
		expect(written.body).toContain(
			'<h1 dir="auto">Your answer</h1><p dir="auto">Refund &lt;b&gt;42&lt;/b&gt; EUR?</p>' +
				'<p class="alert" role="alert">Nothing was recorded: tap one of the buttons below.</p>' +
				'<form method="post"><button type="submit" name="approved" value="true" class="primary" dir="auto">',
		);
		expect(written.body).toContain('value="false" dir="auto">No</button></form>');
	});

	test('a message that cannot be read in the webhook leaves it off the page', async () => {
		const { functions, written } = request(DOUBLE, { method: 'GET' });
		const reads = functions.getNodeParameter as (name: string, fallback: unknown) => unknown;
		functions.getNodeParameter = ((name: string, fallback: unknown) => {
			if (name === 'message') throw new Error('expression failed');
			return reads(name, fallback);
		}) as IWebhookFunctions['getNodeParameter'];
		await nodeType.webhook!.call(functions);
		expect(written.body).not.toMatch(/<p[ >]/);
		expect(written.body).toContain('<button');
	});
});
