import type { ICredentialTestRequest } from 'n8n-workflow';

import { API_PREFIX, PATHS } from '../nodes/OmnichannelMessaging/constants';
import type { CredentialProblem } from '../nodes/OmnichannelMessaging/helpers/credential';

/**
 * n8n's tester only maps status codes to fixed words, so a redirect cannot name its target here; a
 * run's error does.
 */
export function credentialTestRules(): ICredentialTestRequest['rules'] {
	const redirects = [301, 302, 303, 307, 308].map((value) => ({
		type: 'responseCode' as const,
		properties: {
			value,
			message:
				`The service answered with a redirect (HTTP ${value}), which is never followed: the API ` +
				`key goes to the Base URL only. Set the Base URL to the address your service answers at (a ` +
				`workflow run's error names where it pointed).`,
		},
	}));
	return [
		{
			type: 'responseCode',
			properties: {
				value: 401,
				message:
					'The API key was rejected: the service answered 401 "Invalid api key provided.". Check the ' +
					'API key and the API key header.',
			},
		},
		{
			type: 'responseCode',
			properties: {
				value: 404,
				message:
					`The base URL answered 404 to ${API_PREFIX}${PATHS.channelList}. Check the base URL, for ` +
					`example https://api.example.com. If your deployment has no channel list, the key may ` +
					`still be right: save the credential and try an operation.`,
			},
		},
		...redirects,
	];
}

/** In the words of every place that checks it. */
export function credentialProblemText(problem: CredentialProblem): string {
	return `Invalid credential: ${problem.reason}. Fix the ${problem.field}: ${problem.hint} Nothing was sent.`;
}
