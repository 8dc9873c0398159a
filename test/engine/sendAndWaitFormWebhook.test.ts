import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FORM, GOOD, post, upload } from '../helpers/customForm';
import { callWebhook } from '../helpers/webhookCall';

describe('the Custom Form page', () => {
	test('a GET shows the form under the contract the browser tests use, and records nothing', async () => {
		const { result, status, headers, page } = await callWebhook(FORM, { method: 'GET' });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(200);
		expect(headers?.['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src/);
		expect(page).toContain('<title>Expense claim</title>');
		expect(page).toContain(
			'<h1 dir="auto">Expense claim</h1><p dir="auto">Your expense claim, please</p>',
		);
		expect(page).toContain('<form method="post" enctype="multipart/form-data">');
		expect(page).toContain('<label for="field-0" class="required" dir="auto">Amount</label>');
		expect(page).toMatch(
			/<input type="text" id="field-0" name="field-0" required[^>]* inputmode="decimal" pattern="/,
		);
		expect(page).toContain('<legend class="" dir="auto">Cost centres</legend>');
		expect(page).toContain('<input type="checkbox" id="field-2-1" name="field-2" value="South">');
		expect(page).toContain('<label for="field-2-1" dir="auto">South</label>');
		expect(page).toMatch(
			/<input type="file" id="field-7" name="field-7"[^>]* multiple accept=".pdf"/,
		);
		expect(page).toContain('<div class="html"><p>Read <b>this</b></p></div>');
		expect(page).not.toContain('C-77');
		expect(page).toContain(
			'<button type="submit" class="primary" dir="auto">Send claim</button>' +
				'<input type="hidden" name="form-end" value="1"></form>',
		);
	});

	test("a good answer resumes with n8n's output: typed values, the hidden value, respondedAt last", async () => {
		const file = upload('receipt.pdf', 'application/pdf', '%PDF-1.4 receipt');
		const { result, status, page, logged } = await callWebhook(
			FORM,
			post(GOOD, { 'field-7': file }),
		);
		expect(status).toBe(200);
		const item = result.workflowData![0][0];
		expect(item.json).toEqual({
			data: {
				Amount: 42.5,
				Reason: 'Meals',
				'Cost centres': ['North', 'East'],
				'Paid with': 'Card',
				Date: '2026-11-27',
				Email: 'anna@example.com',
				claimId: 'C-77',
				'Receipt (PDF)': [{ filename: 'receipt.pdf', mimetype: 'application/pdf', size: 16 }],
				PIN: '1234',
				notice: '<p>Read <b>this</b></p>',
				respondedAt: expect.stringMatching(/^20\d\d-.*Z$/),
			},
		});
		expect(Object.keys(item.json.data as IDataObject).pop()).toBe('respondedAt');
		expect((item.json.data as IDataObject).respondedAt).not.toBe('forged');
		expect(Object.keys(item.binary!)).toEqual(['Receipt__PDF_']);
		expect(item.binary!.Receipt__PDF_).toMatchObject({
			fileName: 'receipt.pdf',
			mimeType: 'application/pdf',
		});
		expect(Buffer.from(item.binary!.Receipt__PDF_.data, 'base64').toString()).toBe(
			'%PDF-1.4 receipt',
		);
		expect(page).toContain('<h1 dir="auto">Answer recorded</h1>');
		expect(page).toContain('<dt><bdi>Cost centres</bdi></dt><dd><bdi>North, East</bdi></dd>');
		expect(page).toContain('<dt><bdi>Receipt (PDF)</bdi></dt><dd><bdi>receipt.pdf</bdi></dd>');
		expect(page).toContain('<dt><bdi>PIN</bdi></dt><dd><bdi>••••••</bdi></dd>');
		expect(page).not.toContain('1234');
		expect(logged.join('\n')).not.toMatch(/42\.5|anna@|Meals|receipt/);
	});

	test.each([
		['Arabic-Indic', '٣٫٥', 3.5, '٢٠٢٦-١٢-٠٦'],
		['Urdu', '۱۲', 12, '۲۰۲۶-۱۲-۰۶'],
		['Devanagari', '१२', 12, '२०२६-१२-०६'],
	])(
		'an amount and a date typed in %s digits are recorded as the number and the day they are',
		async (_, amount, number, date) => {
			const answer = post({ ...GOOD, 'field-0': amount, 'field-4': date });
			const { result, status, page } = await callWebhook(FORM, answer);
			expect(status).toBe(200);
			expect(result.workflowData![0][0].json.data).toMatchObject({
				Amount: number,
				Date: '2026-12-06',
			});
			expect(page).toContain(`<dt><bdi>Amount</bdi></dt><dd><bdi>${number}</bdi></dd>`);
		},
	);

	test('several files come out as <label>_0, <label>_1', async () => {
		const files = [
			upload('a.pdf', 'application/pdf', 'a'),
			upload('b.pdf', 'application/pdf', 'b'),
		];
		const { result } = await callWebhook(FORM, post(GOOD, { 'field-7': files }));
		expect(Object.keys(result.workflowData![0][0].binary!)).toEqual([
			'Receipt__PDF__0',
			'Receipt__PDF__1',
		]);
	});

	test('Custom HTML and custom CSS cannot run script, load anything or leave their place', async () => {
		const hostile: INodeParameters = {
			...FORM,
			formFields: {
				values: [
					{ fieldLabel: 'Name' },
					{
						fieldType: 'html',
						html:
							'<h1>Hi</h1><script>alert(1)</script><img src=x onerror=alert(2)>' +
							'<a href="https://evil.example">link</a></div></form></main><iframe src="https://x"></iframe>' +
							'<p style="background:url(https://x)" onclick="y">ok',
					},
				],
			},
			options: {
				responseFormCustomCss:
					'h1{color:red}</style><script>alert(3)</script>body{background:url(https://x/a.png)}' +
					'@import "https://x/b.css";p{width:expression(alert(4))}.a{b:u\\72l(https://x)}',
			},
		};
		const { page } = await callWebhook(hostile, { method: 'GET' });
		const html = page.slice(page.indexOf('<div class="html">'), page.indexOf('<button'));
		expect(html).toBe('<div class="html"><h2>Hi</h2>link<p>ok</p></div>');
		const css = page.slice(page.indexOf('<style>') + '<style>'.length, page.indexOf('</style>'));
		expect(css).toContain('h1{color:red}');
		expect(css).not.toMatch(/<|url\(|@import|expression|\\/i);
		expect(page.match(/<\/style>/g)).toHaveLength(1);
		// What is left of the CSS is inert text; the rest of the page holds none of the hostile parts.
		expect(page.replace(css, '')).not.toMatch(/<script|onerror|onclick|https:\/\/(evil|x)/);
	});
});

describe('Free Text with the form options', () => {
	test("the page takes n8n's Response Form Title, Description and Button Label", async () => {
		const { page } = await callWebhook(
			{
				...FORM,
				responseType: 'freeText',
				options: {
					responseFormTitle: 'Your feedback',
					responseFormDescription: 'How did we do?',
					responseFormButtonLabel: 'Send feedback',
				},
			},
			{ method: 'GET' },
		);
		expect(page).toContain('<title>Your feedback</title>');
		expect(page).toContain('<h1 dir="auto">Your feedback</h1><p dir="auto">How did we do?</p>');
		expect(page).not.toContain('Your expense claim');
		expect(page).toContain(
			'<button type="submit" class="primary" dir="auto">Send feedback</button>',
		);
	});

	test('without them it is the page it was', async () => {
		const { page } = await callWebhook(
			{ ...FORM, responseType: 'freeText', options: {} },
			{ method: 'GET' },
		);
		expect(page).toContain(
			'<h1 dir="auto">Your answer</h1><p dir="auto">Your expense claim, please</p>',
		);
		expect(page).toContain('<button type="submit" class="primary" dir="auto">Send</button>');
	});
});
