/*
 * Custom Form answers that record nothing: the form comes back with what to fix, and the
 * execution keeps waiting.
 */
import { parse } from 'node:querystring';

import type { IDataObject } from 'n8n-workflow';

import { FORM, GOOD, post, upload } from '../helpers/customForm';
import { callWebhook } from '../helpers/webhookCall';

describe('a Custom Form answer refused', () => {
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
			expect(page).toContain('<h1 dir="auto">Expense claim</h1>');
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

	test('a number refused shows again as typed, escaped, in a field the browser keeps it in', async () => {
		const { result, status, page } = await callWebhook(
			FORM,
			post({ ...GOOD, 'field-0': '٣٫٥٫٥ "kg"' }),
		);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(status).toBe(400);
		expect(page).toContain('<p class="error" id="field-0-error">Enter a number.</p>');
		// A number input would drop a value it cannot read: the field is text.
		expect(page).toMatch(
			/<input type="text" id="field-0" name="field-0" required [^>]*value="٣٫٥٫٥ &quot;kg&quot;"/,
		);
	});

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
});
