import type { IExecuteFunctions } from 'n8n-workflow';

import type { AnswerConfig } from '../../../nodes/OmnichannelMessaging/sendAndWait/answer';
import { readAnswerConfig } from '../../../nodes/OmnichannelMessaging/sendAndWait/webhook';
import {
	answerLinks,
	messageWithLinks,
	pageLink,
	resumeUrlSigner,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/waiting';

const sign = (parameters: Record<string, string> = {}) =>
	`https://n8n.example.com/webhook-waiting/7/node?${new URLSearchParams({ ...parameters, signature: 'abc' })}`;

function config(parameters: Record<string, unknown>): AnswerConfig {
	const read = readAnswerConfig((name, fallback) => parameters[name] ?? fallback);
	if (!read.ok) throw new Error(read.reason);
	return read.value;
}

describe('the links in the message', () => {
	test('Approve only: one link carrying approved=true', () => {
		expect(answerLinks(sign, config({}))).toEqual([
			{ label: '✓ Approve', url: sign({ approved: 'true' }) },
		]);
	});

	test('Approve and Disapprove: Approve first, each link with its choice signed in', () => {
		const links = answerLinks(sign, config({ 'approvalOptions.values.approvalType': 'double' }));
		expect(links).toEqual([
			{ label: '✓ Approve', url: sign({ approved: 'true' }) },
			{ label: '✗ Decline', url: sign({ approved: 'false' }) },
		]);
	});

	test('Free Text: one link without a choice, after the Message Button Label', () => {
		const links = answerLinks(
			sign,
			config({ responseType: 'freeText', 'options.messageButtonLabel': 'Reply' }),
		);
		expect(links).toEqual([{ label: 'Reply', url: sign() }]);
		expect(pageLink(sign)).toBe(sign());
	});

	test('Choice: one link to the page of options, after the Message Button Label, none signed in', () => {
		const choice = config({
			responseType: 'choice',
			'choiceOptions.values': [{ label: 'Monday' }, { label: 'Friday' }],
			'options.messageButtonLabel': 'Pick a day',
		});
		expect(answerLinks(sign, choice)).toEqual([{ label: 'Pick a day', url: sign() }]);
	});

	test('the message, a blank line, then each link after its label', () => {
		expect(
			messageWithLinks('  Refund?\n', [
				{ label: 'Yes', url: 'https://a' },
				{ label: 'No', url: 'https://b' },
			]),
		).toBe('Refund?\n\nYes: https://a\n\nNo: https://b');
	});
});

describe("n8n's signed links", () => {
	test('on n8n 1.x the signer asks n8n to check the signature before it signs', () => {
		const calls: string[] = [];
		const functions = {
			setSignatureValidationRequired: () => calls.push('require'),
			getSignedResumeUrl: (parameters: Record<string, string>) => {
				calls.push(`sign ${JSON.stringify(parameters)}`);
				return 'url';
			},
		} as unknown as IExecuteFunctions;
		const signer = resumeUrlSigner(functions);
		expect(signer({ approved: 'true' })).toBe('url');
		expect(calls).toEqual(['require', 'sign {"approved":"true"}']);
	});

	test('on n8n 2.x, which always checks, it only signs', () => {
		const functions = { getSignedResumeUrl: () => 'url' } as unknown as IExecuteFunctions;
		expect(resumeUrlSigner(functions)({})).toBe('url');
	});
});
