import type {
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { PAGE_HEADERS, renderPage } from '../sendAndWait/page';
import { sendAndWaitWebhook } from '../sendAndWait/webhook';
import type { ReadQuestion } from '../sendAndWait/webhook';
import { LINK_PARAMETER, linkKey, openLink } from './token';
import type { LinkFacts } from './token';

/*
 * The Omnichannel Messaging Trigger's webhook: an answer link opens Send and Wait's own page
 * (the same reader, checks and headers), and its POST starts one execution with the answer and
 * what the link was sealed with. A link that does not open, or has expired, gets a page that
 * says so, and starts nothing. A GET never starts anything: link previews fetch every link.
 */

/**
 * Two webhooks on one path, as n8n's Form Trigger has: GET shows the page, POST answers. The
 * path is the node's webhook ID, so the Production URL is `/webhook/<webhook ID>`. The GET's URL
 * is the same, so the editor shows the POST's only. There is nothing to register at the service
 * (it sends no webhooks: the links are the registration), hence no webhookMethods.
 */
export const ANSWER_LINK_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'setup',
		httpMethod: 'GET',
		responseMode: 'onReceived',
		path: '={{ $webhookId }}',
		isFullPath: true,
		ndvHideUrl: true,
	},
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '={{ $webhookId }}',
		isFullPath: true,
	},
];

/** What the person reads when the link cannot be answered; nothing of the link's content. */
const REFUSALS = {
	invalid:
		'This link is not valid: it may have been changed or cut short. Open it again from the ' +
		'message you received.',
	expired: 'This link has expired: answers to it are no longer recorded.',
	unusable: 'This question cannot be answered at the moment.',
};

/** The trigger's page has no message to repeat: its question is the Response Form Description. */
const noQuestion: ReadQuestion = async () => undefined;

/** The last segment of the trigger's own path: the link was sealed for it (token.ts). */
function triggerSegment(functions: IWebhookFunctions): string {
	const url = functions.getNodeWebhookUrl('default') ?? '';
	const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
	return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

function refuse(
	functions: IWebhookFunctions,
	status: number,
	reason: string,
): IWebhookResponseData {
	const response = functions.getResponseObject();
	response.writeHead(status, { ...PAGE_HEADERS });
	response.end(renderPage({ kind: 'refused', reason }));
	return { noWebhookResponse: true };
}

/** The answer's item: Send and Wait's `data`, then who answered, about what, and when. */
function answerItem(facts: LinkFacts, answerKey: string) {
	return (item: INodeExecutionData): INodeExecutionData => {
		const data = item.json.data as { respondedAt?: string } | undefined;
		return {
			...item,
			json: {
				data: item.json.data,
				recipient: { ...facts.recipient },
				reference: facts.reference,
				sentAt: facts.sentAt.toISOString(),
				answeredAt: data?.respondedAt ?? null,
				answerKey,
			},
		};
	};
}

/**
 * One request to the trigger: the link's token is opened with the credential's API key (the
 * node reads it) at `now`; a refused link is said on the page, and the page of a good one is
 * Send and Wait's. The same link can be answered again: the webhook has no store to remember
 * it in, so each answer starts an execution with the link's answerKey for the workflow to
 * tell repeats (n8n's Remove Duplicates node keeps the first).
 */
export async function answerLinkWebhook(
	this: IWebhookFunctions,
	apiKey: unknown,
	now: Date = new Date(),
): Promise<IWebhookResponseData> {
	if (typeof apiKey !== 'string' || apiKey === '') return refuse(this, 500, REFUSALS.unusable);
	const query = this.getRequestObject().query as Record<string, unknown> | undefined;
	const link = openLink(query?.[LINK_PARAMETER], linkKey(apiKey, triggerSegment(this)), now);
	if (!link.ok) return refuse(this, link.reason === 'expired' ? 410 : 400, REFUSALS[link.reason]);
	return await sendAndWaitWebhook.call(this, noQuestion, answerItem(link.facts, link.answerKey));
}
