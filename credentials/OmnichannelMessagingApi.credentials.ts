import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_API_KEY_HEADER } from '../nodes/OmnichannelMessaging/constants';

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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				[`={{$credentials.apiKeyHeader || "${DEFAULT_API_KEY_HEADER}"}}`]: '={{$credentials.apiKey}}',
			},
		},
	};

	// Tested by the node (testedBy: testServiceCredential): a declarative `test` would follow redirects
	// with the key header, and could not check the header name before sending.
}
