/*
 * Map Each Variable with a link: the mapper leaves out the variable an Answer Link (Template Send)
 * or Send and Wait fills, and reloads when its Link Variable changes. Workflows are run as n8n
 * stores them: n8n leaves a field at its default out of the saved workflow and puts the default
 * back when it loads one, and refuses to start a node whose saved mapper fields lack a value the
 * mapper's mode calls required.
 */
import { NodeHelpers } from 'n8n-workflow';
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { linkKey, openLink } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { API_KEY, broadcastSend, locator, mapped, useFakeService } from '../helpers/fixtures';
import { loadPackage, mapperFields, packageNode } from '../helpers/engine';

const service = useFakeService();

const TRIGGER = '4f7c1a52-9a0e-4d43-8c55-0f1e2d3c4b5a';
const TRIGGER_URL = `https://n8n.example.com/webhook/${TRIGGER}`;
const PERSON = { phone: '+4915123456789', name: 'Anna' };
const DAY = 86_400_000;

async function description() {
	const type = (await loadPackage()).getNode('omnichannelMessaging').type as INodeType;
	return NodeHelpers.getVersionedNodeType(type, 2).description;
}

const properties = async (): Promise<INodeProperties[]> => (await description()).properties;

/** The parameters as n8n saves them (defaults left out), then loads them (defaults put back). */
async function savedAndLoaded(parameters: INodeParameters) {
	const type = await description();
	const node = packageNode(parameters, 2);
	const save = (values: INodeParameters, defaults: boolean) =>
		NodeHelpers.getNodeParameters(type.properties, values, defaults, false, node, type) ?? {};
	const saved = save(parameters, false);
	const loaded = save(saved, true);
	return { saved, loaded };
}

/** The Answer Link option's values as the editor adds them: the option's own default. */
async function addedAnswerLink(): Promise<IDataObject> {
	const sendOptions = (await properties()).find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.operation?.includes('send') === true &&
			property.displayOptions?.show?.resource?.includes('whatsappTemplate') === true,
	);
	const option = sendOptions?.options?.find((candidate) => candidate.name === 'answerLink');
	return structuredClone((option as INodeProperties).default as IDataObject);
}

const templateSend = (answerLink: IDataObject, variables = mapped({ 1: 'Anna' })) =>
	broadcastSend({ answerLink }, { variables, customerPhone: PERSON.phone });

/** The variables the service received, the link in `linkAt` opened as the trigger opens it. */
function sentVariables(linkAt: string) {
	const [post] = service.fake.sends('/whatsapp/send-template-message');
	const attributes = { ...(post.body.attributes as Record<string, string>) };
	const token = new URL(attributes[linkAt]).searchParams.get('a') ?? '';
	const read = openLink(token, linkKey(API_KEY, TRIGGER), new Date());
	attributes[linkAt] = read.ok ? 'link' : `refused: ${read.reason}`;
	return { attributes, facts: read.ok ? read.facts : undefined };
}

describe('the mapper leaves out the variable a link fills', () => {
	const fieldsFor = async (parameters: INodeParameters) =>
		(
			await mapperFields(
				'getTemplateVariables',
				{ channelId: 12, templateId: locator(101), ...parameters },
				service.credentials,
			)
		).fields.map((field) => field.id);
	const answerLink = (values: IDataObject) => ({ answerLink: { values } });

	test.each([
		['Send, no Answer Link', { operation: 'send' }, ['1', '2', '3']],
		[
			'Send, Answer Link into {{3}}',
			{ operation: 'send', options: answerLink({ linkVariable: 3 }) },
			['1', '2'],
		],
		[
			'Send, Answer Link saved at its old default (Link Variable left out: 1)',
			{ operation: 'send', options: answerLink({ triggerUrl: TRIGGER_URL }) },
			['2', '3'],
		],
		[
			'Send, Answer Link just added (Link Variable empty)',
			{ operation: 'send', options: answerLink({ linkVariable: null }) },
			['1', '2', '3'],
		],
		['Send and Wait into {{3}}', { operation: 'sendAndWait', linkVariable: 3 }, ['1', '2']],
		['Send and Wait saved at its default (1)', { operation: 'sendAndWait' }, ['2', '3']],
	])('%s', async (_case, parameters, ids) => {
		await expect(fieldsFor(parameters as INodeParameters)).resolves.toEqual(ids);
	});

	test('the mapper reloads when the Link Variable changes, and no saved field of it is required', async () => {
		const mappers = (await properties()).filter((property) => property.name === 'variables');
		const byOperation = Object.fromEntries(
			mappers.map((mapper) => [
				String(mapper.displayOptions?.show?.operation),
				mapper.typeOptions?.loadOptionsDependsOn,
			]),
		);
		expect(byOperation.send).toContain('options.answerLink.values.linkVariable');
		expect(byOperation.sendAndWait).toContain('linkVariable');
		expect(mappers.map((mapper) => mapper.typeOptions?.resourceMapper?.mode)).toEqual(
			mappers.map(() => 'map'),
		);
	});
});

describe('Template Send with an Answer Link, saved as n8n saves it', () => {
	test('an Answer Link added in the editor keeps its Link Variable empty, and the send asks for one', async () => {
		const added = await addedAnswerLink();
		const values = { ...(added.values as IDataObject), triggerUrl: TRIGGER_URL };
		const { saved, loaded } = await savedAndLoaded(templateSend({ values }));
		expect((saved.options as IDataObject).answerLink).toEqual({
			values: { triggerUrl: TRIGGER_URL, linkVariable: null },
		});
		const { error } = await service.run(loaded, { items: [PERSON] });
		expect(error?.message).toBe(
			'Link Variable (item 0): it is empty: give the variable the link goes into, 3 for {{3}}',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('one saved by 0.2.0 at Link Variable 1 (left out of its JSON) still puts the link into {{1}}', async () => {
		const values = { triggerUrl: TRIGGER_URL, linkVariable: 1, validFor: 7, validForUnit: 'days' };
		const { saved, loaded } = await savedAndLoaded(
			templateSend({ values }, mapped({ 2: '1042', 3: 'Friday' })),
		);
		expect((saved.options as IDataObject).answerLink).toEqual({
			values: { triggerUrl: TRIGGER_URL },
		});
		const { error } = await service.run(loaded, { items: [PERSON] });
		expect(error).toBeUndefined();
		expect(sentVariables('1').attributes).toEqual({ 1: 'link', 2: '1042', 3: 'Friday' });
	});

	test.each([
		['left empty (the editor saved no value)', undefined],
		['holding a value', 'Friday'],
	])('one saved with {{3}} still mapped, %s, runs: the link fills {{3}}', async (_case, saved3) => {
		const variables = mapped({ 1: '={{ $json.name }}', 2: '1042', 3: saved3 ?? '' });
		if (saved3 === undefined) delete (variables.value as IDataObject)['3'];
		const values = { triggerUrl: TRIGGER_URL, linkVariable: 3 };
		const { loaded } = await savedAndLoaded(templateSend({ values }, variables));
		const { error } = await service.run(loaded, { items: [PERSON] });
		expect(error).toBeUndefined();
		expect(sentVariables('3').attributes).toEqual({ 1: 'Anna', 2: '1042', 3: 'link' });
	});

	test('in JSON, a value given for the Link Variable too is refused, naming Variables (JSON)', async () => {
		const parameters = templateSend(
			{ values: { triggerUrl: TRIGGER_URL, linkVariable: 3 } },
			mapped({}),
		);
		Object.assign(parameters, {
			variablesMode: 'json',
			variablesJson: '{"1": "Anna", "2": "1042", "3": "Friday"}',
		});
		const { error } = await service.run(parameters, { items: [PERSON] });
		expect(error?.message).toBe(
			'Variables (JSON) (item 0): {{3}} receives the answer link (Link Variable): leave it empty',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('Valid for saved with decimals (1.5 days) lives 1.5 days', async () => {
		const values = { triggerUrl: TRIGGER_URL, linkVariable: 3, validFor: 1.5 };
		const { loaded } = await savedAndLoaded(
			templateSend({ values }, mapped({ 1: 'Anna', 2: '1042' })),
		);
		await service.run(loaded, { items: [PERSON] });
		const { facts } = sentVariables('3');
		const lifetime = (facts?.expiresAt.getTime() ?? 0) - (facts?.sentAt.getTime() ?? 0);
		expect(lifetime).toBeGreaterThanOrEqual(1.5 * DAY);
		expect(lifetime).toBeLessThanOrEqual(1.5 * DAY + 1000);
	});
});

describe('a mapper field left empty, without the template check', () => {
	const unchecked = (options: IDataObject) =>
		broadcastSend(
			{ validateTemplate: false, ...options },
			{ variables: { ...mapped({ 1: 'Anna', 2: '' }), value: { 1: 'Anna' } } },
		);

	test('stops the item, naming it', async () => {
		const { error } = await service.run(unchecked({}), { items: [PERSON] });
		expect(error?.message).toBe(
			'Variables (item 0): {{2}} has no value: map a value to it, or turn on Allow Empty Variables',
		);
		expect(service.fake.sends()).toHaveLength(0);
	});

	test('is sent as empty text with Allow Empty Variables', async () => {
		const { error } = await service.run(unchecked({ allowEmptyVariables: true }), {
			items: [PERSON],
		});
		expect(error).toBeUndefined();
		const [post] = service.fake.sends('/whatsapp/send-template-message');
		expect(post.body.attributes).toEqual({ 1: 'Anna', 2: '' });
	});
});
