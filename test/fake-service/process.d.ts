import type { FakeServiceOptions } from './index';

/** What process.child.js tells of a request. */
export interface CompactRequest {
	method: string;
	/** Without the service's /stable/open prefix. */
	path: string;
	status: number | string | null;
	time: number;
	inFlight: number | null;
	phone: string | null;
	customerId: string | null;
	text: string | null;
	attributes: unknown;
	apiKeyMatches: boolean;
}

export interface FakeServiceChild {
	url: string;
	pid: number;
	snapshot(): Promise<{
		requests: CompactRequest[];
		inFlight: number;
		peakInFlight: number;
		idleClosedAt: number[];
	}>;
	reset(): Promise<unknown>;
	stop(): Promise<void>;
}

export function startFakeServiceChild(
	options: FakeServiceOptions,
	timeouts?: { timeoutMs?: number; pidDir?: string },
): Promise<FakeServiceChild>;
