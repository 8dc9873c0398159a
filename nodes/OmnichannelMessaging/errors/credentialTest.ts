import type { INodeCredentialTestResult } from 'n8n-workflow';

import { API_PREFIX, PATHS } from '../constants';
import { redirectTarget, redirectWords, isRedirect } from './redirect';
import { describeBody, networkErrorCode } from './service';
import type { ServiceResponse } from './service';

const REJECTED =
	'The API key was rejected: the service answered 401 "Invalid api key provided.". Check the API key and the API key header.';
const NOT_FOUND = `The base URL answered 404 to ${API_PREFIX}${PATHS.channelList}. Check the base URL, for example https://api.example.com. If your deployment has no channel list, the key may still be right: save the credential and try an operation.`;

/** What the editor's Test button shows for the service's answer (already scrubbed of secrets). */
export function credentialTestResult(response: ServiceResponse, baseUrl: string): INodeCredentialTestResult {
	const { statusCode, body } = response;
	if (statusCode >= 200 && statusCode < 300) return { status: 'OK', message: 'Connection successful!' };
	if (isRedirect(statusCode)) {
		const words = redirectWords(statusCode, redirectTarget(response, baseUrl));
		return { status: 'Error', message: `${words.message}. ${words.description}` };
	}
	if (statusCode === 401) return { status: 'Error', message: REJECTED };
	if (statusCode === 404) return { status: 'Error', message: NOT_FOUND };
	return { status: 'Error', message: `The service answered HTTP ${statusCode} with ${describeBody(body)}.` };
}

/** The test's request got no answer: the network code (ECONNREFUSED…), as n8n's own tester says it. */
export function credentialTestFailure(error: unknown): INodeCredentialTestResult {
	return { status: 'Error', message: networkErrorCode(error) ?? 'The request to the service failed before an answer came back' };
}

/** A credential value no request could carry: the field and a good value, nothing sent. */
export function credentialTestRefusal(problem: { field: string; reason: string; hint: string }): INodeCredentialTestResult {
	return { status: 'Error', message: `Invalid credential: ${problem.reason}. ${problem.hint} Nothing was sent.` };
}
