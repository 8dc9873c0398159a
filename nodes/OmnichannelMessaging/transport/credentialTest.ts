import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { API_PREFIX, PATHS, REQUEST_TIMEOUT_MS } from '../constants';
import { credentialTestFailure, credentialTestRefusal, credentialTestResult, scrubSecrets, secretsOf } from '../errors';
import type { ServiceResponse } from '../errors';
import { checkCredential } from '../helpers/credential';

/**
 * The editor's Test button (the node's `testedBy`): the credential checked as every run checks
 * it, then the channel list read, a harmless GET that every deployment answers with 401 for a bad
 * key. n8n gives a credential test only its legacy request helper: the same rules as the
 * transport's requests, said in its words (no redirect followed, HTTP errors as answers).
 */
export async function testServiceCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const checked = checkCredential(data);
	if (!checked.ok) return credentialTestRefusal(checked);
	let answer: ServiceResponse;
	try {
		const response = (await this.helpers.request({
			method: 'GET',
			uri: `${checked.baseUrl}${API_PREFIX}${PATHS.channelList}`,
			headers: { [checked.header]: checked.apiKey },
			json: true,
			followRedirect: false,
			followAllRedirects: false,
			simple: false,
			resolveWithFullResponse: true,
			timeout: REQUEST_TIMEOUT_MS,
		})) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
		answer = { statusCode: response.statusCode, headers: response.headers ?? {}, body: response.body };
	} catch (error) {
		return credentialTestFailure(error);
	}
	return credentialTestResult(scrubSecrets(answer, secretsOf(data)), checked.baseUrl);
}
