/**
 * WhatsApp Template → Send with a Default Country, through n8n's engine against the fake service:
 * CRM contacts hold national numbers of several countries; each goes out once in E.164, a number
 * that is none of its country's is stopped before any request.
 */
import { broadcastSend, useFakeService } from '../helpers/fixtures';

const service = useFakeService();

/** Contacts as a CRM holds them (the number as typed, the contact's country), each with its E.164. */
const CONTACTS_AND_E164 = [
	[{ name: 'Anna', phone: '0151 2345 6789', country: 'DE' }, '+4915123456789'],
	[{ name: 'Bob', phone: '(415) 555-0132', country: 'US' }, '+14155550132'],
	[{ name: 'Chloé', phone: '06 12 34 56 78', country: 'FR' }, '+33612345678'],
	[{ name: 'Diego', phone: '011 15-2345-6789', country: 'AR' }, '+5491123456789'],
	[{ name: 'Giulia', phone: '02 1234 5678', country: 'IT' }, '+390212345678'],
	[{ name: 'Ivan', phone: '8 (912) 345-67-89', country: 'ru' }, '+79123456789'],
	[{ name: 'Emma', phone: '+44 20 7946 0958', country: 'DE' }, '+442079460958'],
] as const;
const CONTACTS = CONTACTS_AND_E164.map(([contact]) => contact);
const E164 = CONTACTS_AND_E164.map(([, e164]) => e164);

const sentPhones = () =>
	service.fake
		.sends('/whatsapp/send-template-message')
		.map((request) => request.body.customer_phone);

describe('Default Country', () => {
	test('from an expression per contact: national numbers of six countries go out once each, in E.164', async () => {
		const { output, error } = await service.run(
			broadcastSend({ defaultCountry: '={{ $json.country }}' }),
			{
				items: CONTACTS,
			},
		);
		expect(error).toBeUndefined();
		// One request per contact; requests run in parallel and may arrive in any order.
		expect([...sentPhones()].sort()).toEqual([...E164].sort());
		expect(
			output.map((item) => (item.json.extra as { customer_phone: string }).customer_phone),
		).toEqual(E164);
	});

	test(
		'one country for every item: a number that is none of its numbers is refused, nothing is ' +
			'sent for it',
		async () => {
			const { output } = await service.run(broadcastSend({ defaultCountry: 'DE' }), {
				items: [
					{ name: 'Anna', phone: '0151 2345 6789' },
					{ name: 'Ben', phone: '0151 234' },
				],
				continueOnFail: true,
			});
			expect(sentPhones()).toEqual(['+4915123456789']);
			expect(output[1].json.error).toBe(
				'Customer Phone (item 1): "0151 234" is not a valid phone number: it is not a number of ' +
					'Germany (DE, +49) by its numbering plan: give it as dialled in Germany, for example 01512 ' +
					'3456789, or with + and the country code, for example +4915123456789',
			);
		},
	);

	test('a bad number stops the run before any request, as every input error does', async () => {
		const { error } = await service.run(broadcastSend({ defaultCountry: 'US' }), {
			items: [
				{ name: 'Bob', phone: '(415) 555-0132' },
				{ name: 'Cy', phone: '555 0132' },
			],
		});
		expect(error?.message).toContain(
			'Customer Phone (item 1): "555 0132" is not a valid phone number',
		);
		expect(error?.message).toContain('United States (US, +1)');
		expect(service.fake.sends()).toHaveLength(0);
	});

	test(
		'an unknown country from the expression names Default Country and the item, but an ' +
			'international number is sent whatever it says; an empty one means no default',
		async () => {
			const { output } = await service.run(
				broadcastSend({ defaultCountry: '={{ $json.country }}' }),
				{
					items: [
						{ name: 'Anna', phone: '0151 2345 6789', country: 'Germany' },
						{ name: 'Bob', phone: '+1 415 555 0132', country: '' },
						{ name: 'Cy', phone: '0151 2345 6789' },
						{ name: 'Dee', phone: '+49 151 2345 6789', country: 'Germany' },
					],
					continueOnFail: true,
				},
			);
			expect(output[0].json.error).toBe(
				'Default Country (item 0): "Germany" is not a country code: give the two-letter ISO 3166 ' +
					'code, for example DE for Germany or US for the United States',
			);
			expect(output[2].json.error).toContain(
				'Customer Phone (item 2): "0151 2345 6789" is not a valid phone number: it must start with +',
			);
			// An international number is sent whatever the option says, even a country code it cannot read.
			expect(output[3].json.error).toBeUndefined();
			expect(sentPhones().sort()).toEqual(['+14155550132', '+4915123456789']);
		},
	);

	test('without the option a national number is refused exactly as before', async () => {
		const { output } = await service.run(broadcastSend({}), {
			items: [{ name: 'Anna', phone: '0151 2345 6789' }],
			continueOnFail: true,
		});
		expect(output[0].json.error).toBe(
			'Customer Phone (item 0): "0151 2345 6789" is not a valid phone number: it must start with ' +
				'+ and the country code (or 00), for example +4915123456789',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('dry run and Include Rendered Message show the number that is sent', async () => {
		const items = [{ name: 'Anna', phone: '0151 2345 6789' }];
		const dry = await service.run(broadcastSend({ defaultCountry: 'DE', dryRun: true }), {
			items,
		});
		expect(service.fake.sends()).toHaveLength(0);
		expect(dry.output[0].json).toMatchObject({
			dryRun: true,
			request: { body: { customer_phone: '+4915123456789' } },
			rendered: {
				to: '+4915123456789',
				body: 'Hi Anna, your order 1042 has shipped and arrives on Friday. Track it below.',
			},
		});
		const sent = await service.run(
			broadcastSend({ defaultCountry: 'DE', includeRenderedMessage: true }),
			{
				items,
			},
		);
		expect(sent.output[0].json.rendered).toMatchObject({ to: '+4915123456789' });
		expect(sentPhones()).toEqual(['+4915123456789']);
	});
});
