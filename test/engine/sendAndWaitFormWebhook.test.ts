import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'node:querystring';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { callWebhook } from '../helpers/webhookCall';
import type { WebhookRequest } from '../helpers/webhookCall';

const options = (values: string[]) => ({ values: values.map((option) => ({ option })) });

const FIELDS = [
	{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
	{ fieldLabel: 'Reason', fieldType: 'dropdown', fieldOptions: options(['Travel', 'Meals']) },
	{
		fieldLabel: 'Cost centres',
		fieldType: 'checkbox',
		fieldOptions: options(['North', 'South', 'East']),
		limitSelection: 'range',
		minSelections: 1,
		maxSelections: 2,
	},
	{ fieldLabel: 'Paid with', fieldType: 'radio', fieldOptions: options(['Card', 'Cash']) },
	{ fieldLabel: 'Date', fieldType: 'date' },
	{ fieldLabel: 'Email', fieldType: 'email' },
	{ fieldType: 'hiddenField', fieldName: 'claimId', fieldValue: 'C-77' },
	{ fieldLabel: 'Receipt (PDF)', fieldType: 'file', acceptFileTypes: '.pdf' },
	{ fieldLabel: 'PIN', fieldType: 'password' },
	{ fieldType: 'html', elementName: 'notice', html: '<p>Read <b>this</b></p>' },
];

const FORM: INodeParameters = {
	resource: 'message',
	operation: 'sendAndWait',
	customerId: '123456',
	message: 'Your expense claim, please',
	responseType: 'customForm',
	formFields: { values: FIELDS },
	options: { responseFormTitle: 'Expense claim', responseFormButtonLabel: 'Send claim' },
};

const GOOD: IDataObject = {
	'field-0': ' 42.5 ',
	'field-1': 'Meals',
	'field-2': ['North', 'East'],
	'field-3': 'Card',
	'field-4': '2026-11-27',
	'field-5': ' anna@example.com ',
	'field-6': 'forged',
	'field-8': '1234',
	respondedAt: 'forged',
	'form-end': '1',
};

const folder = mkdtempSync(path.join(tmpdir(), 'omni-form-'));

/** A file as n8n's form-data parser leaves it: written to a temporary path. */
function upload(name: string, mimetype: string, content: string | Buffer) {
	const filepath = path.join(folder, `${Math.random()}`.slice(2));
	writeFileSync(filepath, content);
	return { filepath, originalFilename: name, mimetype, size: Buffer.byteLength(content) };
}

const post = (data: IDataObject, files: IDataObject = {}): WebhookRequest => ({
	method: 'POST',
	body: { data, files },
	headers: { 'content-type': 'multipart/form-data; boundary=x' },
});

describe('the Custom Form page', () => {
	test('a GET shows the form under the contract the browser tests use, and records nothing', async () => {
		const { result, status, headers, page } = await callWebhook(FORM, { method: 'GET' });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(200);
		expect(headers?.['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src/);
		expect(page).toContain('<title>Expense claim</title>');
		expect(page).toContain('<h1>Expense claim</h1><p>Your expense claim, please</p>');
		expect(page).toContain('<form method="post" enctype="multipart/form-data">');
		expect(page).toContain('<label for="field-0" class="required">Amount</label>');
		expect(page).toMatch(/<input type="number" id="field-0" name="field-0" required/);
		expect(page).toContain('<legend class="">Cost centres</legend>');
		expect(page).toContain('<input type="checkbox" id="field-2-1" name="field-2" value="South">');
		expect(page).toContain('<label for="field-2-1">South</label>');
		expect(page).toMatch(
			/<input type="file" id="field-7" name="field-7"[^>]* multiple accept=".pdf"/,
		);
		expect(page).toContain('<div class="html"><p>Read <b>this</b></p></div>');
		expect(page).not.toContain('C-77');
		expect(page).toContain(
			'<button type="submit" class="primary">Send claim</button><input type="hidden" name="form-end" value="1"></form>',
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
		expect(page).toContain('<h1>Answer recorded</h1>');
		expect(page).toContain('<dt>Cost centres</dt><dd>North, East</dd>');
		expect(page).toContain('<dt>Receipt (PDF)</dt><dd>receipt.pdf</dd>');
		expect(page).toContain('<dt>PIN</dt><dd>••••••</dd>');
		expect(page).not.toContain('1234');
		expect(logged.join('\n')).not.toMatch(/42\.5|anna@|Meals|receipt/);
	});

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

	test.each([
		['a required field left empty', { 'field-0': '' }, 0, 'Fill in this field.'],
		['text for a number', { 'field-0': 'forty' }, 0, 'Enter a number.'],
		['a hexadecimal number', { 'field-0': '0x10' }, 0, 'Enter a number.'],
		['a date with more after it', { 'field-4': '2026-11-27Tx' }, 4, 'Enter a date as YYYY-MM-DD.'],
		['a date that does not exist', { 'field-4': '2026-02-30' }, 4, 'Enter a date as YYYY-MM-DD.'],
		[
			'a bad email address',
			{ 'field-5': 'anna@' },
			5,
			'Enter an email address, e.g. name@example.com.',
		],
		['an option not offered', { 'field-1': 'Fuel' }, 1, 'Choose from the options offered.'],
		[
			'too many checkboxes',
			{ 'field-2': ['North', 'South', 'East'] },
			2,
			'Choose between 1 and 2.',
		],
		['no checkbox where one is needed', { 'field-2': undefined }, 2, 'Choose between 1 and 2.'],
		['two radio buttons', { 'field-3': ['Card', 'Cash'] }, 3, 'Choose one option.'],
	])(
		'%s records nothing and shows the form again with the message and what was typed',
		async (_, change, index, message) => {
			const { result, status, page } = await callWebhook(FORM, post({ ...GOOD, ...change }));
			expect(result).toEqual({ noWebhookResponse: true });
			expect(status).toBe(400);
			expect(page).toContain('<h1>Expense claim</h1>');
			expect(page).toContain('role="alert">Nothing was recorded');
			expect(page).toContain(`<p class="error" id="field-${index}-error">${message}</p>`);
			expect(page).toMatch(
				new RegExp(
					`id="field-${index}"[^>]*aria-describedby="field-${index}-error" aria-invalid="true"`,
				),
			);
			// What was typed elsewhere is kept; a password is never sent back.
			if (index !== 5) expect(page).toContain('value=" anna@example.com "');
			expect(page).toContain('value="Card" checked>');
			expect(page).not.toContain('1234');
		},
	);

	test('more than 10 files in one field records nothing', async () => {
		const files = Array.from({ length: 11 }, (_, n) => upload(`${n}.pdf`, 'application/pdf', 'a'));
		const { result, page } = await callWebhook(FORM, post(GOOD, { 'field-7': files }));
		expect(result.workflowData).toBeUndefined();
		expect(page).toContain('<p class="error" id="field-7-error">Choose up to 10 files.</p>');
	});

	test.each([
		[
			'a file type not accepted',
			upload('receipt.exe', 'application/octet-stream', 'MZ'),
			'Choose a file of these types: .pdf.',
		],
		[
			'a file over 16 MB',
			upload('big.pdf', 'application/pdf', Buffer.alloc(16 * 1024 * 1024 + 1)),
			'Each file can be up to 16 MB.',
		],
	])('%s records nothing', async (_, file, message) => {
		const { result, status, page } = await callWebhook(FORM, post(GOOD, { 'field-7': file }));
		expect(result.workflowData).toBeUndefined();
		expect(status).toBe(400);
		expect(page).toContain(`<p class="error" id="field-7-error">${message}</p>`);
		expect(page).toContain('Choose the file again');
	});

	// What n8n's body parser makes of a POST that is not multipart (JSON.parse, querystring.parse).
	const file = { filepath: __filename, originalFilename: 'r.pdf', mimetype: 'application/pdf' };
	const forged = { ...GOOD, data: GOOD, files: { 'field-7': { ...file, size: 1 } } };
	const urlencoded = new URLSearchParams();
	for (const [key, value] of Object.entries(file))
		urlencoded.append(`files[field-7][${key}]`, value);
	for (const [key, value] of Object.entries(GOOD)) urlencoded.append(key, String(value));
	test.each([
		['application/json', JSON.parse(JSON.stringify(forged)) as IDataObject],
		['application/x-www-form-urlencoded', parse(urlencoded.toString())],
	])('a %s POST naming a server file records nothing and reads no file', async (type, body) => {
		const { result, status, page } = await callWebhook(FORM, {
			method: 'POST',
			body: body as IDataObject,
			headers: { 'content-type': `${type}; charset=utf-8` },
		});
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(400);
		expect(page).toContain('role="alert">Nothing was recorded: answer with the form on this page.');
		expect(page).toContain('<input type="file" id="field-7"');
	});

	test('an answer cut short (n8n 1.x stops reading at an empty file input) records nothing', async () => {
		// n8n 1.x hands over what came before the empty file input: fields 0 to 6, no end mark.
		const before = Object.fromEntries(Object.entries(GOOD).filter(([key]) => key < 'field-7'));
		const { result, status, page } = await callWebhook(FORM, post(before));
		expect(result.workflowData).toBeUndefined();
		expect(status).toBe(400);
		expect(page).toContain('role="alert">Nothing was recorded: the form arrived incomplete.');
		expect(page).toContain('value=" 42.5 "');
	});

	test('a GET by a link preview or a browser never records, whatever the query', async () => {
		for (const userAgent of ['WhatsApp/2.23.20.0', 'Mozilla/5.0 Chrome/120']) {
			const { result } = await callWebhook(FORM, {
				method: 'GET',
				query: { 'field-0': '1' },
				headers: { 'user-agent': userAgent },
			});
			expect(result.workflowData).toBeUndefined();
		}
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
		expect(page).toContain('<h1>Your feedback</h1><p>How did we do?</p>');
		expect(page).not.toContain('Your expense claim');
		expect(page).toContain('<button type="submit" class="primary">Send feedback</button>');
	});

	test('without them it is the page it was', async () => {
		const { page } = await callWebhook(
			{ ...FORM, responseType: 'freeText', options: {} },
			{ method: 'GET' },
		);
		expect(page).toContain('<h1>Your answer</h1><p>Your expense claim, please</p>');
		expect(page).toContain('<button type="submit" class="primary">Send</button>');
	});
});
