import type { IExecuteFunctions } from 'n8n-workflow';

import type { AnswerConfig } from './config';
import { choicesOf } from './config';

/** n8n's `getSignedResumeUrl`: the execution's waiting URL for this node, signed with these parameters. */
export type SignResumeUrl = (parameters?: Record<string, string>) => string;

/** n8n 1.x's execute functions have this; n8n 2.x checks a send-and-wait link's signature always. */
type OlderExecuteFunctions = IExecuteFunctions & { setSignatureValidationRequired?: () => void };

/**
 * The execution's signed links. n8n 1.x checks a waiting link's signature only once the node has
 * asked for it (setSignatureValidationRequired, as its own nodes do): without that, a link with
 * any signature would be taken.
 */
export function resumeUrlSigner(functions: IExecuteFunctions): SignResumeUrl {
	(functions as OlderExecuteFunctions).setSignatureValidationRequired?.();
	return (parameters) => functions.getSignedResumeUrl(parameters);
}

export interface AnswerLink {
	label: string;
	url: string;
}

/**
 * The links the message carries, as n8n's messaging nodes send them: one per approval choice
 * (each with its choice signed in), or one to the Free Text page. A link opens a page; only the
 * page's button records the answer.
 */
export function answerLinks(sign: SignResumeUrl, config: AnswerConfig): AnswerLink[] {
	if (config.responseType !== 'approval') return [{ label: config.respondLabel, url: sign({}) }];
	return choicesOf(config).map((choice) => ({
		label: choice.label,
		url: sign({ approved: choice.approved }),
	}));
}

/** One link for every choice (a template variable holds one): its page shows each choice. */
export function pageLink(sign: SignResumeUrl): string {
	return sign({});
}

/** The message, then each link on its own line after its label. */
export function messageWithLinks(message: string, links: AnswerLink[]): string {
	const lines = links.map((link) => `${link.label}: ${link.url}`);
	return `${message.trim()}\n\n${lines.join('\n\n')}`;
}
