/*
 * Requests to the Omnichannel Messaging Trigger's webhook through n8n-core's WebhookContext
 * (webhookCall.ts), with links sealed by the package's own token code at times the test picks.
 */
import type { INodeParameters } from 'n8n-workflow';

import { linkKey, sealLink } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import type { LinkFacts } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { PACKAGE_NAME } from './engine';
import { API_KEY } from './fixtures';
import { callWebhook } from './webhookCall';
import type { WebhookRequest } from './webhookCall';

/** The trigger's webhook ID: its path, and what its links are sealed for. */
export const TRIGGER = '0c9d8e7f-6a5b-4c3d-8e2f-1a2b3c4d5e6f';
export const TARGET = {
	type: `${PACKAGE_NAME}.omnichannelMessagingTrigger`,
	typeVersion: 1,
	webhookId: TRIGGER,
};
export const CREDENTIALS = { baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY };
export const HOUR = 3_600_000;

/** A double approval whose question is its description. */
export const APPROVAL: INodeParameters = {
	responseType: 'approval',
	approvalOptions: { values: { approvalType: 'double' } },
	options: { responseFormDescription: 'Can you come on Tuesday at 10:00?' },
};

/** A link sealed now for Anna's phone, valid for a day, unless `facts` says otherwise. */
export function token(facts: Partial<LinkFacts> = {}, key = linkKey(API_KEY, TRIGGER)): string {
	const now = Date.now();
	return sealLink(
		{
			recipient: { phone: '+4915123456789' },
			reference: 'appointment-981',
			sentAt: new Date(now - HOUR),
			expiresAt: new Date(now + 24 * HOUR),
			...facts,
		},
		key,
	);
}

/**
 * One request to the trigger with `parameters`, under the usual credential unless the request
 * brings its own; `credentialId` names the node's credential (the trigger keeps keys by it).
 */
export async function callTrigger(
	parameters: INodeParameters,
	request: WebhookRequest,
	credentialId?: string,
) {
	const target = credentialId ? { ...TARGET, credentialId } : TARGET;
	return await callWebhook(parameters, { credentials: CREDENTIALS, ...request }, target);
}

/** The page's POST of Approve through link `a`. */
export const approve = (a: string) => ({
	method: 'POST',
	query: { a },
	body: { approved: 'true' },
});
