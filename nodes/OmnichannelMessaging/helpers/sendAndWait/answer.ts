import type { IDataObject } from 'n8n-workflow';

import type { AnswerConfig, Choice } from './config';
import { choicesOf } from './config';
import type { AnswerView } from './page';
import { MAX_ANSWER_LENGTH } from './page';

/** What the webhook was asked: the method, the link's query (signed by n8n) and the form's body. */
export interface AnswerRequest {
	method: string;
	query: IDataObject;
	body: IDataObject;
}

/** The page to answer with, its status, and the item to resume with when an answer is recorded. */
export interface AnswerOutcome {
	status: number;
	view: AnswerView;
	data?: IDataObject;
}

/** The choices a link offers: the one signed into it, or every choice. */
function offeredChoices(config: AnswerConfig, query: IDataObject): Choice[] {
	const choices = choicesOf(config);
	const signed = choices.filter((choice) => choice.approved === query.approved);
	return signed.length > 0 ? signed : choices;
}

function recordApproval(request: AnswerRequest, config: AnswerConfig, now: Date): AnswerOutcome {
	// A choice signed into the link wins over the form's: only the link's is vouched for by n8n.
	const given = request.query.approved ?? request.body.approved;
	const choice = offeredChoices(config, request.query).find(({ approved }) => approved === given);
	if (!choice)
		return {
			status: 400,
			view: { kind: 'refused', reason: 'No choice was made. Open the link again.' },
		};
	return {
		status: 200,
		view: { kind: 'recorded', recorded: `Recorded: ${choice.label}` },
		data: { approved: choice.approved === 'true', respondedAt: now.toISOString() },
	};
}

function recordText(request: AnswerRequest, now: Date): AnswerOutcome {
	const raw = request.body.text;
	const text = typeof raw === 'string' ? raw.replace(/\r\n?/g, '\n') : '';
	if (text.trim() === '')
		return {
			status: 400,
			view: { kind: 'refused', reason: 'The answer was empty. Open the link again.' },
		};
	if (text.length > MAX_ANSWER_LENGTH) {
		const reason = `The answer is longer than ${MAX_ANSWER_LENGTH} characters. Open the link again.`;
		return { status: 400, view: { kind: 'refused', reason } };
	}
	return {
		status: 200,
		view: { kind: 'recorded', recorded: 'Recorded your answer:', text },
		data: { text, respondedAt: now.toISOString() },
	};
}

/**
 * Only a POST from the page records an answer (n8n's output: `{ approved, respondedAt }` or
 * `{ text, respondedAt }`); any other request, a link preview's GET included, gets the page.
 */
export function readAnswer(
	request: AnswerRequest,
	config: AnswerConfig,
	now: Date,
	question?: string,
): AnswerOutcome {
	if (request.method !== 'POST') {
		const view: AnswerView =
			config.responseType === 'freeText'
				? { kind: 'freeText', question }
				: { kind: 'approval', question, choices: offeredChoices(config, request.query) };
		return { status: 200, view };
	}
	return config.responseType === 'freeText'
		? recordText(request, now)
		: recordApproval(request, config, now);
}
