/*
 * Saved workflows of 0.1.0 and 0.2.0 have no Page Language: their pages must read as they did.
 * Each page a person can meet (the page, an answer refused, the answer recorded; a trigger's
 * refused links) is drawn through n8n's engine for the examples' nodes and the engine tests'
 * saved parameters, and its words (the `lang`, the title, every text, label, value and
 * placeholder) are compared with the snapshot taken from 0.2.0's code. Markup and style are left
 * out: an accessibility fix may change them, never the words.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { linkKey, sealLink } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { FIELDS, FORM, GOOD, post } from '../helpers/customForm';
import { PACKAGE_NAME } from '../helpers/engine';
import { API_KEY } from '../helpers/fixtures';
import { callWebhook } from '../helpers/webhookCall';
import type { WebhookRequest, WebhookTarget } from '../helpers/webhookCall';

const repoDir = path.resolve(__dirname, '..', '..');
const TRIGGER = '0c9d8e7f-6a5b-4c3d-8e2f-1a2b3c4d5e6f';
const TRIGGER_TARGET: WebhookTarget = {
	type: `${PACKAGE_NAME}.omnichannelMessagingTrigger`,
	typeVersion: 1,
	webhookId: TRIGGER,
};
const CREDENTIALS = { baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY };
const HOUR = 3_600_000;

/** Every node of an example that draws a page: Send and Wait and the trigger, as saved. */
function examplePages(
	file: string,
): Array<{ name: string; type: string; parameters: INodeParameters }> {
	const workflow = JSON.parse(readFileSync(path.join(repoDir, 'examples', file), 'utf8')) as {
		nodes: Array<{ name: string; type: string; parameters: INodeParameters }>;
	};
	return workflow.nodes.filter(
		(node) =>
			node.type.startsWith(`${PACKAGE_NAME}.`) &&
			(node.parameters.operation === 'sendAndWait' || node.type.endsWith('Trigger')),
	);
}

/** The words of a page: its language, then each text, label, value and placeholder in order. */
function wordsOf(page: string): string[] {
	const lang = /<html lang="([^"]*)"/.exec(page)?.[1] ?? '';
	const body = page.replace(/<style>[\s\S]*?<\/style>/g, '');
	const words: string[] = [`lang=${lang}`];
	for (const match of body.matchAll(/<[^>]*>|[^<]+/g)) {
		const part = match[0];
		if (!part.startsWith('<')) {
			if (part.trim() !== '') words.push(part.trim());
			continue;
		}
		for (const attribute of part.matchAll(/\b(value|placeholder|accept)="([^"]*)"/g))
			if (attribute[2] !== '') words.push(`${attribute[1]}=${attribute[2]}`);
	}
	return words;
}

const link = (expiresIn: number) => {
	const now = Date.now();
	return sealLink(
		{
			recipient: { phone: '+4915123456789' },
			reference: 'appointment-981',
			sentAt: new Date(now - HOUR),
			expiresAt: new Date(now + expiresIn),
		},
		linkKey(API_KEY, TRIGGER),
	);
};

/** The good answer of each response type; the expense claim's is its own. */
function goodAnswer(parameters: INodeParameters): WebhookRequest {
	if (parameters === FORM) return post(GOOD);
	if (parameters.responseType === 'customForm') return post({ 'field-0': '3' });
	if (parameters.responseType === 'freeText') return post({ 'field-0': 'Yes' });
	if (parameters.responseType === 'choice') return { method: 'POST', body: { choice: '0' } };
	return { method: 'POST', body: { approved: 'true' } };
}

/** The requests whose pages are compared: the page, an answer that records nothing, a good one. */
function requestsFor(parameters: INodeParameters): Array<[string, WebhookRequest]> {
	const form = parameters.responseType === 'customForm' || parameters.responseType === 'freeText';
	return [
		['page', { method: 'GET' }],
		['refused answer', form ? post({}) : { method: 'POST', body: {} }],
		...(form ? [['marked answer', post({ 'form-end': '1' })] as [string, WebhookRequest]] : []),
		['recorded answer', goodAnswer(parameters)],
	];
}

const SAVED: Array<[string, INodeParameters, WebhookTarget | undefined]> = [
	...['send-and-wait-approval.json', 'send-and-wait-custom-form.json', 'ask-many-sub-workflow.json']
		.flatMap(examplePages)
		.map((node): [string, INodeParameters, undefined] => [node.name, node.parameters, undefined]),
	...examplePages('answer-link-answers.json').map(
		(node): [string, INodeParameters, WebhookTarget] => [
			node.name,
			node.parameters,
			TRIGGER_TARGET,
		],
	),
	['expense claim (every field type)', FORM, undefined],
	[
		'free text',
		{ resource: 'message', operation: 'sendAndWait', message: 'Why?', responseType: 'freeText' },
		undefined,
	],
	[
		'choice',
		{
			resource: 'message',
			operation: 'sendAndWait',
			message: 'When?',
			responseType: 'choice',
			choiceOptions: { values: [{ label: 'Monday' }, { label: 'Tuesday' }] },
		},
		undefined,
	],
];

describe("saved workflows' pages read as 0.2.0's did (English)", () => {
	expect(FIELDS.length).toBeGreaterThan(5);

	test.each(SAVED)('%s', async (_name, parameters, target) => {
		const pages: Record<string, string[]> = {};
		const withLink = (request: WebhookRequest, expiresIn = 24 * HOUR): WebhookRequest =>
			target ? { ...request, query: { ...request.query, a: link(expiresIn) } } : request;
		for (const [kind, request] of requestsFor(parameters)) {
			const answer = await callWebhook(
				parameters,
				{ credentials: CREDENTIALS, ...withLink(request) },
				target,
			);
			pages[kind] = wordsOf(answer.page);
		}
		if (target) {
			const changed = await callWebhook(
				parameters,
				{ credentials: CREDENTIALS, method: 'GET', query: { a: `${link(HOUR)}x` } },
				target,
			);
			pages['changed link'] = wordsOf(changed.page);
			const expired = await callWebhook(
				parameters,
				{ credentials: CREDENTIALS, ...withLink({ method: 'GET' }, -HOUR) },
				target,
			);
			pages['expired link'] = wordsOf(expired.page);
		}
		expect(pages['page'][0]).toBe('lang=en');
		expect(pages).toMatchSnapshot();
	});
});
