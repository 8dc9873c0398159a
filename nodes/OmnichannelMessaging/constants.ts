/** The credential every request of the node authenticates with. */
export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';

/** The header that carries the API key unless a deployment names it differently (test/fixtures/spec/field-notes.md, Auth). */
export const DEFAULT_API_KEY_HEADER = 'X-Service-Api-Key';

/** Every path of the service starts here (test/fixtures/spec/service-api.md §4). */
export const API_PREFIX = '/stable/open';

/** Paths below API_PREFIX. */
export const PATHS = {
	sendText: '/customers/send-text-message',
	sendAttachment: '/customers/send-attachment-message',
	sendTemplate: '/whatsapp/send-template-message',
	templateList: '/whatsapp/get-template-list',
	templateDetail: '/whatsapp/get-template-detail',
	// Not in the spec: deployments offer it (test/fixtures/spec/field-notes.md, Channels); may answer 404.
	channelList: '/whatsapp/get-platform-list',
} as const;

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
export const SEND_LIMITS = {
	defaultConcurrency: 20,
	maxConcurrency: 100,
} as const;

/**
 * Tuning of the send pacer's adaptive window (AIMD, as in TCP congestion control). Mutable so
 * that tests can shorten the progress window.
 */
export const PACING = {
	/** Sends in flight at the start: small, the window grows from there. */
	initialWindow: 2,
	/** On "not taken" the window shrinks to this share of itself. */
	decrease: 0.5,
	/** After a "not taken" the window stays at or below the level the service took, until it has been full this long without one. */
	probeAfterMs: 30_000,
	/** Starts after a Retry-After pause are spread over this share of the pause (at least 50 ms). */
	resumeJitter: 0.1,
	/**
	 * A burst of "not taken" this far below the in-flight level the service took before says the
	 * limit is a rate, not a count in flight: the pace then holds at the rate the service took.
	 */
	rateEvidenceMargin: 3,
	/** A rate-limited item is tried again while some send to the service succeeded within this time. */
	progressWindowMs: 120_000,
};

/**
 * How long a template read for the sends' check serves every execution of this n8n process.
 * Mutable so that tests can shorten it.
 *
 * Five minutes: WhatsApp puts every edit of a template through Meta's review again, so a template
 * changes rarely and never at a moment of the sender's choosing, and a send the service refuses
 * for the template (4xx) drops the entry at once. What is left is a template edited and approved
 * again while the node still checks against the version before: for at most this long, items are
 * checked against the old variables and header. Minutes keep that window short against review
 * times of minutes to hours, while a CRM sending even one message a minute per template makes a
 * read every fifth message at most, and a busy one a read per thousands.
 */
export const TEMPLATE_CACHE = {
	freshMs: 5 * 60_000,
};

/**
 * Send Once per Key on n8n's processed-data store. Mutable so that tests can shorten the waits.
 * n8n keeps a node's whole history in one JSON row that every store call reads, parses, rewrites
 * and writes back, so a call costs time in proportion to the history (about 0.7 µs per entry here).
 */
export const SEND_ONCE = {
	/** Keys remembered by default: 20,000 entries, a 0.54 MB row, about 10 ms of parsing and writing per call. */
	defaultHistory: 10_000,
	/** While other executions of this process use the same history, a store call waits this long for theirs to share it. */
	groupCommitWaitMs: 10,
	/**
	 * What this process wrote is written again with later calls until a call that starts this long
	 * after the write (or 5 × the longest call this process has seen, if more) finds it there: a
	 * queue-mode worker's call that read the row before the write and writes it back later must
	 * have ended by then. A worker's first calls (cold, while the other is busy) can last seconds
	 * before this process has seen a long call of its own, hence the floor well above them.
	 */
	settleAfterMs: 10_000,
	/** The settle time is at least this many times the longest store call seen. */
	settleCallMultiple: 5,
	/**
	 * A quiet process checks its unsettled entries with a call of its own when they can settle;
	 * once another worker has been seen losing them, first after this long, then twice as long
	 * after each check, so that a lost entry is back within seconds.
	 */
	verifyAfterMs: 1_000,
};
