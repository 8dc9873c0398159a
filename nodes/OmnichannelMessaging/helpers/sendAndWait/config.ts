import {
	DEFAULT_APPROVE_LABEL,
	DEFAULT_DISAPPROVE_LABEL,
	DEFAULT_RESPOND_LABEL,
} from './descriptions';

export type ResponseType = 'approval' | 'freeText';

/** What the message's links and the answer page offer, read the same way when sending and answering. */
export interface AnswerConfig {
	responseType: ResponseType;
	/** `single`: Approve only; `double`: Approve and Disapprove. */
	approvalType: 'single' | 'double';
	approveLabel: string;
	disapproveLabel: string;
	/** The link's label in a Free Text message. */
	respondLabel: string;
}

/** Reads a node parameter by name (execute: for item 0; webhook: n8n's own). */
export type ReadParameter = (name: string, fallback: string) => unknown;

/** A label as given, or the fallback when it is empty or no text. */
function label(value: unknown, fallback: string): string {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/**
 * The answer's configuration, or why it cannot be used. A response type this node does not offer
 * (n8n's Custom Form, from a workflow copied from another node) is refused, not guessed.
 */
export function readAnswerConfig(read: ReadParameter): AnswerConfig | { problem: string } {
	const responseType = read('responseType', 'approval');
	if (responseType !== 'approval' && responseType !== 'freeText')
		return { problem: `${JSON.stringify(responseType)} is not Approval or Free Text` };
	const approvalType = read('approvalOptions.values.approvalType', 'single');
	return {
		responseType,
		approvalType: approvalType === 'double' ? 'double' : 'single',
		approveLabel: label(read('approvalOptions.values.approveLabel', ''), DEFAULT_APPROVE_LABEL),
		disapproveLabel: label(
			read('approvalOptions.values.disapproveLabel', ''),
			DEFAULT_DISAPPROVE_LABEL,
		),
		respondLabel: label(read('options.messageButtonLabel', ''), DEFAULT_RESPOND_LABEL),
	};
}

/** One choice of an approval: its label and the value its link or button carries. */
export interface Choice {
	label: string;
	approved: 'true' | 'false';
}

/** The approval's choices, Approve first. */
export function choicesOf(config: AnswerConfig): Choice[] {
	const approve: Choice = { label: config.approveLabel, approved: 'true' };
	if (config.approvalType === 'single') return [approve];
	return [approve, { label: config.disapproveLabel, approved: 'false' }];
}
