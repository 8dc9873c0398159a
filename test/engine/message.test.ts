import {
	API_KEY,
	sendAttachmentTo,
	sendTextTo,
	serializeEverything,
	useFakeService,
} from '../helpers/fixtures';

const service = useFakeService();
/** Send Text with the customer ID and the text of each item. */
const textFromItems = sendTextTo('={{ $json.id }}', '={{ $json.text }}');

describe('Message → Send Text', () => {
	test('posts customer_id and text, authenticated with the key header, and outputs the send result', async () => {
		const { output, error } = await service.run(
			sendTextTo('123456', 'Hi Anna, your order shipped.'),
		);
		expect(error).toBeUndefined();
		const [request] = service.fake.requests;
		expect(service.fake.requests).toHaveLength(1);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/stable/open/customers/send-text-message');
		expect(request.headers['content-type']).toContain('application/json');
		expect(request.headers['x-service-api-key']).toBe(API_KEY);
		expect(request.body).toEqual({ customer_id: '123456', text: 'Hi Anna, your order shipped.' });
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			function_name: 'send_text_message',
			status: 'sent',
			message: 'Message sent',
			extra: { customer_id: 123456, success: true },
		});
		expect(output[0].json.id).toMatch(/^msg_/);
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});

	test('a customer ID that an expression yields as a number is sent as a JSON string', async () => {
		const contacts = [{ contact: { id: 987, name: 'Bo' } }, { contact: { id: 988, name: 'Cy' } }];
		const { output } = await service.run(
			sendTextTo('={{ $json.contact.id }}', '=Hello {{ $json.contact.name }}'),
			{ items: contacts },
		);
		expect(service.fake.requests.map((r) => r.body)).toEqual([
			{ customer_id: '987', text: 'Hello Bo' },
			{ customer_id: '988', text: 'Hello Cy' },
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('an empty text or customer ID fails that item, naming it and the field, and sends nothing', async () => {
		const { error, output } = await service.run(textFromItems, {
			items: [
				{ id: 1, text: 'ok' },
				{ id: 2, text: '   ' },
			],
		});
		expect(output).toEqual([]);
		expect(error?.message).toBe('Text (item 1): it is empty');
		expect(error?.description).toContain('No message was sent for any item');
		expect(service.fake.requests).toHaveLength(0);

		const missingId = await service.run(sendTextTo('={{ $json.id }}', 'x'), {
			items: [{ id: { nested: true } }],
		});
		expect(missingId.error?.message).toBe(
			'Customer ID (item 0): {"nested":true} is not a customer ID: give the customer\'s ID as ' +
				'text or a number, for example 123456',
		);
		expect(service.fake.requests).toHaveLength(0);
	});
});

describe('Message → Send Attachment', () => {
	test('posts attachment_type and attachment_url', async () => {
		const invoice = 'https://files.example.com/invoice-1042.pdf';
		const { output, error } = await service.run(sendAttachmentTo('42', 'document', invoice));
		expect(error).toBeUndefined();
		expect(service.fake.requests[0].path).toBe('/stable/open/customers/send-attachment-message');
		expect(service.fake.requests[0].body).toEqual({
			customer_id: '42',
			attachment_type: 'document',
			attachment_url: invoice,
		});
		expect(output[0].json).toMatchObject({
			function_name: 'send_attachment_message',
			status: 'sent',
			message: 'Attachment sent',
		});
	});

	test.each([
		['javascript:alert(1)', 'the scheme "javascript:" is not allowed'],
		['/files/a.pdf', 'it is not an absolute URL'],
		['={{ "" }}', 'it is empty'],
	])('attachment URL %j fails the item before anything is sent', async (url, reason) => {
		const { error } = await service.run(sendAttachmentTo('42', 'image', url));
		expect(error?.message).toContain(`Attachment URL (item 0): ${reason}`);
		expect(service.fake.requests).toHaveLength(0);
	});
});

describe('continue on fail', () => {
	test('one output per input item, paired and in order; bad items get an error item and send nothing', async () => {
		const { output, error, run } = await service.run(textFromItems, {
			continueOnFail: true,
			items: [
				{ id: '1', text: 'first' },
				{ id: '2', text: '' },
				{ id: 'not-a-customer', text: 'service refuses' },
				{ id: '4', text: 'fourth' },
			],
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(4);
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(output[0].json.status).toBe('sent');
		expect(output[1].json.error).toBe('Text (item 1): it is empty');
		expect(output[2].json.error).toBe('Customer not found');
		expect(output[2].json.message).toContain('error code: customer_not_found');
		expect(output[2].json.message).toContain('The message was not sent.');
		expect(output[3].json.status).toBe('sent');
		expect(service.fake.requests.map((r) => r.body.customer_id)).toEqual([
			'1',
			'not-a-customer',
			'4',
		]);
		expect(serializeEverything(run)).not.toContain(API_KEY);
	});
});
