/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies and templates are free-form JSON */
import type { Server } from 'node:http';

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	rawBody: string;
	body: any;
	time: number;
	status?: number | string;
	/** Requests in flight at the fake when this one arrived, itself included. */
	inFlight?: number;
	/** Which limit answered 429, if one did. */
	limitedBy?: 'in-flight' | 'rate';
}

export type Fault =
	| { status?: number; headers?: Record<string, string>; body?: unknown; kind?: undefined }
	| {
			kind:
				| 'reset-before'
				| 'reset-after-read'
				| 'hang'
				| 'trickle'
				| 'invalid-json'
				| 'empty'
				| 'huge'
				| 'html';
			status?: number;
			intervalMs?: number;
			bytes?: number;
	  };

export interface FakeServiceOptions {
	apiKey?: string;
	/** Close a connection idle this long (ms); by default idle connections stay open. */
	idleTimeoutMs?: number;
	apiKeyHeader?: string;
	projectId?: number;
	latencyMs?: number;
	concurrencyLimit?: number;
	/** Retry-After of the in-flight limit's 429 (default '1'). */
	retryAfter?: string;
	/** Token bucket on the send endpoints (POST): sends per second; default no limit. */
	rateLimitPerSecond?: number;
	/** Tokens the bucket holds (the burst it allows); default one second's worth, at least 1. */
	rateLimitBurst?: number;
	/** Milliseconds, monotonic; default performance.now(). Tests pass their own to hold time still. */
	clock?: () => number;
	/** Each request waits a random 0..admitJitterMs before the service looks at it: arrival order shuffled. */
	admitJitterMs?: number;
	log?: (request: RecordedRequest) => void;
	channels?: Array<{ platform_id: number; title: string; number: string }>;
	templates?: Record<number, any[]>;
	port?: number;
	host?: string;
}

export declare class FakeService {
	constructor(options?: FakeServiceOptions);
	apiKey: string;
	url: string;
	latencyMs: number;
	concurrencyLimit: number;
	retryAfter: string;
	rateLimitPerSecond: number;
	rateLimitBurst?: number;
	/** 429s answered since the last reset, by the limit that answered them. */
	tooMany: { inFlight: number; rate: number };
	requests: RecordedRequest[];
	/** When (Date.now()) the service closed a connection left idle for idleTimeoutMs. */
	idleClosedAt: number[];
	channels: Array<Record<string, unknown>>;
	peakInFlight: number;
	admitJitterMs: number;
	log: ((request: RecordedRequest) => void) | null;
	/**
	 * Requests being served on average (first admitted to last answer), and how long after the first
	 * 429 fewer than the limit were.
	 */
	occupancyFigures(): { averageServing: number; belowLimitAfterBurstMs: number };
	server: Server;
	start(port?: number, host?: string): Promise<string>;
	close(): Promise<void>;
	reset(): void;
	/** Changes limits; null switches one off. Fills the token bucket. */
	setLimits(limits: {
		concurrencyLimit?: number | null;
		retryAfter?: string;
		rateLimitPerSecond?: number | null;
		rateLimitBurst?: number | null;
	}): void;
	addFault(path: string, fault: Fault, times?: number, skip?: number): void;
	setTemplates(channelId: number, templates: any[]): void;
	sends(path?: string): RecordedRequest[];
}

export declare function startFakeService(options?: FakeServiceOptions): Promise<FakeService>;
export declare const PREFIX: string;
