/** The credential every request of the node authenticates with. */
export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';

/** The header that carries the API key unless a deployment names it differently (test/fixtures/spec/field-notes.md, Auth). */
export const DEFAULT_API_KEY_HEADER = 'X-Service-Api-Key';

/** Every path of the service starts here (test/fixtures/spec/service-api.md §4). */
export const API_PREFIX = '/stable/open';

/** Paths below API_PREFIX. */
export const PATHS = Object.freeze({
	sendText: '/customers/send-text-message',
	sendAttachment: '/customers/send-attachment-message',
	sendTemplate: '/whatsapp/send-template-message',
	templateList: '/whatsapp/get-template-list',
	templateDetail: '/whatsapp/get-template-detail',
	// Not in the spec: deployments offer it (test/fixtures/spec/field-notes.md, Channels); may answer 404.
	channelList: '/whatsapp/get-platform-list',
} as const);

/**
 * The credential's base URL without a trailing "/" or "/stable/open", as an n8n expression, for
 * the credential test's request (the node's own requests normalize it in helpers/url.ts).
 */
export const BASE_URL_EXPRESSION =
	'={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "").replace(/\\/stable\\/open$/i, "") }}';

/** How long one request may take unless the user says otherwise; n8n's own default is 5 minutes. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Timers overflow past 2^31-1 ms and would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Bounds of the send options. */
export const SEND_LIMITS = Object.freeze({
	defaultConcurrency: 20,
	maxConcurrency: 100,
} as const);

/** Tuning of the send pacer's adaptive window (AIMD, as in TCP congestion control). Tests change it through testing.ts. */
export const PACING = Object.freeze({
	/** Sends in flight at the start: small, the window grows from there. */
	initialWindow: 2,
	/** On "not taken" the window shrinks to this share of itself. */
	decrease: 0.5,
	/** After a "not taken" the window stays at or below the level the service took, until it has been full this long without one. */
	probeAfterMs: 30_000,
	/** Starts after a Retry-After pause are spread over this share of the pause (at least 50 ms). */
	resumeJitter: 0.1,
	/** A burst of "not taken" this far below the level taken before marks a rate limit, not a count in flight. */
	rateEvidenceMargin: 3,
	/** A rate-limited item is tried again while some send to the service succeeded within this time. */
	progressWindowMs: 120_000,
} as const);

/**
 * How long a template read for the sends' check serves every execution of this process: short
 * against Meta's review of an edited template, long enough that a CRM reads it once per many
 * sends (docs/whatsapp-templates.md).
 */
export const TEMPLATE_CACHE = Object.freeze({
	freshMs: 5 * 60_000,
} as const);

/** Send Once per Key on n8n's processed-data store (docs/send-once.md); a call costs time in proportion to the history. */
export const SEND_ONCE = Object.freeze({
	/** Keys remembered by default: 20,000 entries, a 0.54 MB row, about 10 ms of parsing and writing per call. */
	defaultHistory: 10_000,
	/** While other executions of this process use the same history, a store call waits this long for theirs to share it. */
	groupCommitWaitMs: 10,
	/**
	 * What this process wrote is written again until a call this long after the write finds it: another
	 * worker's call that read the row before must have ended. Cold first calls last seconds, hence the floor.
	 */
	settleAfterMs: 10_000,
	/** The settle time is at least this many times the longest store call seen. */
	settleCallMultiple: 5,
	/** Once another worker has been seen losing entries, a quiet process checks after this long, then doubling. */
	verifyAfterMs: 1_000,
} as const);
