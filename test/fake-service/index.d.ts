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
}

export type Fault =
	| { status?: number; headers?: Record<string, string>; body?: unknown; kind?: undefined }
	| {
			kind: 'reset-before' | 'reset-after-read' | 'hang' | 'trickle' | 'invalid-json' | 'empty' | 'huge' | 'html';
			status?: number;
			intervalMs?: number;
			bytes?: number;
	  };

export interface FakeServiceOptions {
	apiKey?: string;
	apiKeyHeader?: string;
	projectId?: number;
	latencyMs?: number;
	concurrencyLimit?: number;
	retryAfter?: string;
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
	requests: RecordedRequest[];
	channels: Array<Record<string, unknown>>;
	peakInFlight: number;
	server: Server;
	start(port?: number, host?: string): Promise<string>;
	close(): Promise<void>;
	reset(): void;
	addFault(path: string, fault: Fault, times?: number, skip?: number): void;
	setTemplates(channelId: number, templates: any[]): void;
	sends(path?: string): RecordedRequest[];
}

export declare function startFakeService(options?: FakeServiceOptions): Promise<FakeService>;
export declare const PREFIX: string;
