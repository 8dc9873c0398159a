'use strict';

/**
 * Templates of every header kind test/fixtures/spec/field-notes.md mentions, plus the awkward shapes.
 * Each body is one WhatsApp would approve: no body starts or ends with a variable (seed.test.ts).
 */
function demoTemplates() {
	return [
		{
			id: 101,
			name: 'order_shipped',
			body: 'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}. Track it below.',
			header: { type: 'text', value: 'Your order is on its way' },
			footer: 'Reply STOP to opt out',
			buttons: [
				{ id: 1, type: 'url', title: 'Track order', value: 'https://shop.example.com/track' },
			],
			attributes: [{ attribute: '1' }, { attribute: '2' }, { attribute: '3' }],
			status: 'APPROVED',
		},
		{
			id: 102,
			name: 'spring_offer',
			body: 'Hello {{1}}, enjoy {{2}}% off this week only.',
			header: { type: 'image', value: 'https://cdn.example.com/samples/offer.jpg' },
			footer: '',
			buttons: [],
			attributes: [{ attribute: '1' }, { attribute: '2' }],
		},
		{
			id: 103,
			name: 'invoice_ready',
			body: 'Dear {{1}}, your invoice is attached.',
			header: { type: 'document', value: 'https://cdn.example.com/samples/invoice.pdf' },
			footer: 'Accounts team',
			buttons: [
				{
					id: 1,
					type: 'url',
					title: 'Pay now',
					value: 'https://pay.example.com',
					verbose: 'extra field',
				},
			],
			attributes: [{ attribute: '1' }],
		},
		{
			id: 104,
			name: 'opening_hours',
			body: 'We are open Monday to Friday, 9:00 to 18:00.',
			header: { type: 'text', value: 'Opening hours' },
			footer: '',
			buttons: [],
			attributes: [],
		},
		{
			id: 105,
			name: 'appointment_reminder',
			body: 'Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. See you then, {{1}}, and thank you.',
			header: { type: 'text', value: 'Reminder' },
			footer: '',
			buttons: [],
			attributes: [{ attribute: '1' }, { attribute: '2' }, { attribute: '1' }],
		},
		{
			id: 106,
			name: 'product_video',
			body: 'Watch how {{1}} works.',
			header: { type: 'video', value: 'https://cdn.example.com/samples/demo.mp4' },
			footer: '',
			buttons: [],
			attributes: [{ attribute: '1' }],
		},
		{
			id: 107,
			name: 'voice_note',
			body: 'A message from {{1}} for you.',
			header: { type: 'audio', value: 'https://cdn.example.com/samples/hello.mp3' },
			footer: '',
			buttons: [],
			attributes: [{ attribute: '1' }],
		},
	];
}

/**
 * A template with a variable for an answer link (WhatsApp Template → Send and Wait), neither first
 * nor last in the body, as WhatsApp approves it: the
 * sandbox and the tests of examples/ask-many-*.json add it to the demo templates.
 */
function appointmentConfirmation() {
	return {
		id: 108,
		name: 'appointment_confirmation',
		body: 'Hi {{1}}, please confirm your appointment on {{2}} on this page: {{3}} See you soon!',
		header: { type: 'text', value: 'Your appointment' },
		footer: '',
		buttons: [],
		attributes: [{ attribute: '1' }, { attribute: '2' }, { attribute: '3' }],
		status: 'APPROVED',
	};
}

/** The demo templates and the appointment confirmation, on both demo channels. */
function sandboxTemplates() {
	const templates = () => [...demoTemplates(), appointmentConfirmation()];
	return Object.fromEntries(demoChannels().map((c) => [c.platform_id, templates()]));
}

function demoChannels() {
	return [
		{ platform_id: 12, title: 'WhatsApp Sales', number: '+4930123456' },
		{ platform_id: 13, title: 'WhatsApp Support', number: '+4930654321' },
	];
}

module.exports = { demoTemplates, demoChannels, appointmentConfirmation, sandboxTemplates };
