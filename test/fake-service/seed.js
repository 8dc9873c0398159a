'use strict';

/** One parameter `{{n}}` a template's body uses, each position in its order of the body. */
const attributes = (...positions) => positions.map((attribute) => ({ attribute }));

/** A template as the service lists it: no footer and no buttons unless `more` gives them. */
function template(id, name, body, header, positions, more = {}) {
	return {
		id,
		name,
		body,
		header,
		footer: '',
		buttons: [],
		attributes: attributes(...positions),
		...more,
	};
}

/**
 * Templates of every header kind test/fixtures/spec/field-notes.md mentions, plus the awkward shapes.
 * Each body is one WhatsApp would approve: no body starts or ends with a variable (seed.test.ts).
 */
function demoTemplates() {
	return [
		template(
			101,
			'order_shipped',
			'Hi {{1}}, your order {{2}} has shipped and arrives on {{3}}. Track it below.',
			{ type: 'text', value: 'Your order is on its way' },
			['1', '2', '3'],
			{
				footer: 'Reply STOP to opt out',
				buttons: [
					{ id: 1, type: 'url', title: 'Track order', value: 'https://shop.example.com/track' },
				],
				status: 'APPROVED',
			},
		),
		template(
			102,
			'spring_offer',
			'Hello {{1}}, enjoy {{2}}% off this week only.',
			{ type: 'image', value: 'https://cdn.example.com/samples/offer.jpg' },
			['1', '2'],
		),
		template(
			103,
			'invoice_ready',
			'Dear {{1}}, your invoice is attached.',
			{ type: 'document', value: 'https://cdn.example.com/samples/invoice.pdf' },
			['1'],
			{
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
			},
		),
		template(
			104,
			'opening_hours',
			'We are open Monday to Friday, 9:00 to 18:00.',
			{ type: 'text', value: 'Opening hours' },
			[],
		),
		template(
			105,
			'appointment_reminder',
			'Hi {{1}}! Reminder: {{1}}, your appointment is on {{2}}. See you then, {{1}}, and thank you.',
			{ type: 'text', value: 'Reminder' },
			['1', '2', '1'],
		),
		template(
			106,
			'product_video',
			'Watch how {{1}} works.',
			{ type: 'video', value: 'https://cdn.example.com/samples/demo.mp4' },
			['1'],
		),
		template(
			107,
			'voice_note',
			'A message from {{1}} for you.',
			{ type: 'audio', value: 'https://cdn.example.com/samples/hello.mp3' },
			['1'],
		),
	];
}

/**
 * A template with a variable for an answer link (WhatsApp Template → Send and Wait), neither first
 * nor last in the body, as WhatsApp approves it: the
 * sandbox and the tests of examples/ask-many-*.json add it to the demo templates.
 */
function appointmentConfirmation() {
	return template(
		108,
		'appointment_confirmation',
		'Hi {{1}}, please confirm your appointment on {{2}} on this page: {{3}} See you soon!',
		{ type: 'text', value: 'Your appointment' },
		['1', '2', '3'],
		{ status: 'APPROVED' },
	);
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
