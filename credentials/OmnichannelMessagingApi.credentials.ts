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
	PATHS,
} from '../nodes/OmnichannelMessaging/constants';

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
	 * The key in its header, as a function rather than n8n's generic form: a real n8n evaluates the
	 * generic form's two expressions in its expression sandbox on every request (about 1.4 ms of
	 * CPU each time in bench:n8n's profile, on every send of a broadcast).
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const header = (credentials.apiKeyHeader as string | undefined) || DEFAULT_API_KEY_HEADER;
		return { ...requestOptions, headers: { ...requestOptions.headers, [header]: credentials.apiKey as string } };
	}

	// Reads the channel list: a harmless GET that every deployment answers with 401 for a bad key.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: `${API_PREFIX}${PATHS.channelList}`,
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was rejected: the service answered 401 "Invalid api key provided.". Check the API key and the API key header.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						`The base URL answered 404 to ${API_PREFIX}${PATHS.channelList}. Check the base URL, for example https://api.example.com. If your deployment has no channel list, the key may still be right: save the credential and try an operation.`,
				},
			},
		],
	};
}
