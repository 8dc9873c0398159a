/** The credential every request of the node authenticates with. */
export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';

/** The header that carries the API key unless a deployment names it differently (field-notes.md, Auth). */
export const DEFAULT_API_KEY_HEADER = 'X-Service-Api-Key';

/** Every path of the service starts here (service-api.md). */
export const API_PREFIX = '/stable/open';

/** Paths below API_PREFIX. */
export const PATHS = {
	sendText: '/customers/send-text-message',
	sendAttachment: '/customers/send-attachment-message',
	sendTemplate: '/whatsapp/send-template-message',
	templateList: '/whatsapp/get-template-list',
	templateDetail: '/whatsapp/get-template-detail',
	// Not in the spec: deployments offer it (field-notes.md, Channels); may answer 404.
	channelList: '/whatsapp/get-platform-list',
} as const;

/**
 * The credential's base URL without a trailing "/" or "/stable/open", as an n8n expression: the
 * declarative reads, the credential test and the sends all build their URLs from it.
 */
export const BASE_URL_EXPRESSION =
	'={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "").replace(/\\/stable\\/open$/i, "") }}';

/** How long one request may take unless the user says otherwise; n8n's own default is 5 minutes. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Timers overflow past 2^31-1 ms and would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Bounds of the send options. */
export const SEND_LIMITS = {
	defaultConcurrency: 5,
	maxConcurrency: 50,
} as const;
