import type { IDataObject } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'omnichannelMessagingApi';

/** Unless a deployment names it differently (field-notes.md, Auth). */
export const DEFAULT_API_KEY_HEADER = 'X-Service-Api-Key';

/** service-api.md §4. */
export const API_PREFIX = '/stable/open';

export const PATHS = Object.freeze({
	sendText: '/customers/send-text-message',
	sendAttachment: '/customers/send-attachment-message',
	sendTemplate: '/whatsapp/send-template-message',
	templateList: '/whatsapp/get-template-list',
	templateDetail: '/whatsapp/get-template-detail',
	// Not in the spec: deployments offer it (field-notes.md, Channels); may answer 404.
	channelList: '/whatsapp/get-platform-list',
} as const);

/** For the credential test's request; the node's own requests normalize in helpers/values.ts. */
export const BASE_URL_EXPRESSION =
	'={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "").replace(/\\/stable\\/open$/i, "") }}';

/** n8n's own default is 5 minutes. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The editor's calls (credential Test, Channel and Template lists, the Variables mapper): someone is
 * waiting in front of a spinner, and a service that holds the connection open without answering
 * would otherwise keep it spinning for the send timeout or longer. Workflow runs keep Timeout.
 */
export const EDITOR_TIMEOUT_MS = 10_000;

/**
 * Where Template Send's Answer Link keeps its Link Variable, and what a node saved without one
 * holds: n8n leaves a field at its default out of the saved workflow, and 0.2.0's default was 1.
 */
export const ANSWER_LINK_VARIABLE = 'options.answerLink.values.linkVariable';
export const SAVED_LINK_VARIABLE = 1;

/** Timers overflow past 2^31-1 ms and would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export const SEND_LIMITS = Object.freeze({
	defaultConcurrency: 20,
	maxConcurrency: 100,
} as const);

/**
 * The send pacer's window (delivery/paceWindow.ts, docs/sending-at-scale.md); the rate-limit policy's
 * own timings are in delivery/paceWindow.ts.
 */
export const PACING = Object.freeze({
	initialWindow: 2,
	decrease: 0.5,
	/** After a burst, the window stays at the level taken until it has been full this long; then it probes above it. */
	probeAfterMs: 10_000,
	/** Each probe that finds no more room doubles the wait for the next, up to this. */
	probeAfterMaxMs: 120_000,
	/** A burst this far below the level taken before marks a rate limit, not a count in flight. */
	rateEvidenceMargin: 3,
	/** Only a burst this long after sending resumed can show a rate limit. */
	rateEvidenceAfterMs: 1_000,
	/** How long a rate learned from two bursts paces the starts. */
	rateHoldMs: 30_000,
	/** Answers read this close together count as read in one turn of a busy event loop. */
	sameTurnMs: 5,
} as const);

/** The rate-limit policy's timings (delivery/paceWindow.ts decides with them). */
export const RATE_LIMIT = Object.freeze({
	/** Retried while some send to the service succeeded within this time. */
	progressWindowMs: 120_000,
	/** The pause after a "not taken" that names no Retry-After: doubles per pause in a row. */
	backoffBaseMs: 1_000,
	backoffMaxMs: 30_000,
	/** Starts after a pause are spread over this share of it, so they do not all arrive at once. */
	resumeSpread: 0.1,
	resumeSpreadMinMs: 50,
} as const);

/** Short against Meta's review of an edited template, long enough that a CRM reads it once per many sends. */
export const TEMPLATE_CACHE = Object.freeze({
	freshMs: 5 * 60_000,
} as const);

/** docs/send-once.md; a store call costs time in proportion to the history. */
export const SEND_ONCE = Object.freeze({
	/** 20,000 entries: a 0.54 MB row, about 10 ms of parsing and writing per call. */
	defaultHistory: 10_000,
	groupCommitWaitMs: 10,
	/** Another worker's call that read the row before a write must have ended; cold first calls last seconds. */
	settleAfterMs: 10_000,
	/** Times the longest store call seen, if that is longer. */
	settleCallMultiple: 5,
	/** After another worker was seen losing entries, a quiet process checks this soon, then doubling. */
	verifyAfterMs: 1_000,
} as const);

/**
 * A WhatsApp template as the service returns it (test/fixtures/spec/service-api.md §2.2); unknown
 * fields pass through.
 */
export interface WhatsAppTemplate extends IDataObject {
	id: number;
	name: string;
	body?: string;
	header?: { type?: string; value?: string } | null;
	footer?: string | null;
	buttons?: Array<{ id?: number; type?: string; title?: string; value?: string }> | null;
	attributes?: Array<{ attribute?: string | number }> | null;
}
