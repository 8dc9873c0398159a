/*
 * The expense-claim Custom Form the engine tests answer, a good answer to it, and requests as
 * n8n's server hands them to the node (a multipart body is `{ data, files }`, each file written to
 * a temporary path).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { WebhookRequest } from './webhookCall';

const options = (values: string[]) => ({ values: values.map((option) => ({ option })) });

export const FIELDS = [
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

export const FORM: INodeParameters = {
	resource: 'message',
	operation: 'sendAndWait',
	customerId: '123456',
	message: 'Your expense claim, please',
	responseType: 'customForm',
	formFields: { values: FIELDS },
	options: { responseFormTitle: 'Expense claim', responseFormButtonLabel: 'Send claim' },
};

export const GOOD: IDataObject = {
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
export function upload(name: string, mimetype: string, content: string | Buffer) {
	const filepath = path.join(folder, `${Math.random()}`.slice(2));
	writeFileSync(filepath, content);
	return { filepath, originalFilename: name, mimetype, size: Buffer.byteLength(content) };
}

export const post = (data: IDataObject, files: IDataObject = {}): WebhookRequest => ({
	method: 'POST',
	body: { data, files },
	headers: { 'content-type': 'multipart/form-data; boundary=x' },
});
