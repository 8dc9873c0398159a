import { ApplicationError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	API_PREFIX,
	BASE_URL_EXPRESSION,
	CREDENTIAL_TYPE,
	DEFAULT_API_KEY_HEADER,
	EDITOR_TIMEOUT_MS,
	PATHS,
} from '../nodes/OmnichannelMessaging/constants';
import {
	credentialProblemText,
	credentialTestRules,
	checkCredential,
} from '../nodes/OmnichannelMessaging/helpers/values';

/**
 * Only the editor reads the channel list (the credential Test and the Channel list). n8n's tester
 * replaces the Test request's own `timeout` with the node's Timeout option or 5 minutes, so the
 * bound is set here, where every request passes last.
 */
function editorTimeout(requestOptions: IHttpRequestOptions): number | undefined {
	if (!String(requestOptions.url ?? '').endsWith(PATHS.channelList)) return requestOptions.timeout;
	return Math.min(requestOptions.timeout ?? EDITOR_TIMEOUT_MS, EDITOR_TIMEOUT_MS);
}

export class OmnichannelMessagingApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Omnichannel Messaging API';

	icon: Icon = {
		light: 'file:../nodes/OmnichannelMessaging/omnichannelMessaging.svg',
		dark: 'file:../nodes/OmnichannelMessaging/omnichannelMessaging.dark.svg',
	};

	documentationUrl =
		'https://github.com/omnichannel-messaging/n8n-nodes-omnichannel-messaging?tab=readme-ov-file#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com',
			description:
				'Address of your Omnichannel Messaging service. With or without a trailing "/" or "/stable/open".',
			hint: 'Use https:// unless the service runs on your own network',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: "Your project's API key, from the service's dashboard (API settings)",
		},
		{
			displayName: 'API Key Header',
			name: 'apiKeyHeader',
			type: 'string',
			// The name contains "apiKey", so n8n's scanner requires masking; the field name is a public contract.
			typeOptions: { password: true },
			default: DEFAULT_API_KEY_HEADER,
			description:
				'Name of the HTTP header that carries the API key. Change it only if your deployment names it differently.',
			placeholder: DEFAULT_API_KEY_HEADER,
		},
	];

	/**
	 * Follows no redirect: n8n's helper would follow one to any host with the key header (it strips
	 * only Authorization and cookies). A function, because a real n8n evaluates the generic form's
	 * expressions in its sandbox on every request (about 1.4 ms CPU each in bench:n8n's profile).
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const checked = checkCredential(credentials);
		if (!checked.ok)
			throw new ApplicationError(credentialProblemText(checked), { level: 'warning' });
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, [checked.value.header]: checked.value.apiKey },
			disableFollowRedirect: true,
			timeout: editorTimeout(requestOptions),
		};
	};

	/*
	 * Reads the channel list: a harmless GET that every deployment answers with 401 for a bad key.
	 * The `timeout` states the intent; n8n's tester overrides it, and editorTimeout enforces it. On
	 * a timeout n8n's tester shows its own words (its rules match status codes only).
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: `${API_PREFIX}${PATHS.channelList}`,
			method: 'GET',
			disableFollowRedirect: true,
			timeout: EDITOR_TIMEOUT_MS,
		},
		rules: credentialTestRules(),
	};
}
