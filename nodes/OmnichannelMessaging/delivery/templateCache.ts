import type { IExecuteFunctions } from 'n8n-workflow';

import { TEMPLATE_CACHE } from '../constants';
import { fetchTemplate } from '../transport';
import type { ServiceConnection } from '../transport';
import type { WhatsAppTemplate } from '../helpers/template';
import { REAL_CLOCK } from './clock';
import type { Clock } from './clock';

interface TemplatePlace {
	channelId: number;
	templateId: number;
}

/** A template read that serves the sends of every execution of this process. */
interface SharedRead {
	/** In flight or answered: whoever needs the template meanwhile awaits this same read. */
	readonly read: Promise<unknown>;
	readonly startedAt: number;
	/** Until when the answer serves; infinite while the read is in flight. */
	freshUntil: number;
}

/** The cache's timings (constants.ts, TEMPLATE_CACHE). */
export type TemplateCacheTimings = { readonly [K in keyof typeof TEMPLATE_CACHE]: number };

/** An answer as the cache gives it; `held`: an answer it had before it was asked for. */
export interface CachedRead<T> {
	value: T;
	held: boolean;
}

/**
 * Reads shared by every execution of this process, by key: one read serves them all for `freshMs`
 * from the moment it started, and whoever needs it while it is in flight awaits that read instead
 * of making their own. A failed read is held by no one: each caller waiting on it gets the failure,
 * the next one reads again. `fresh` passes over a held answer (a read in flight is newer, and is
 * joined).
 */
export class TemplateCache {
	private readonly reads = new Map<string, SharedRead>();

	constructor(
		private readonly timings: TemplateCacheTimings,
		private readonly clock: Pick<Clock, 'now'>,
	) {}

	async get<T>(key: string, read: () => Promise<T>, fresh = false): Promise<CachedRead<T>> {
		const now = this.clock.now();
		const held = this.reads.get(key);
		const answered = held !== undefined && held.freshUntil !== Number.POSITIVE_INFINITY;
		if (held && now < held.freshUntil && !(fresh && answered)) {
			return { value: (await held.read) as T, held: answered };
		}
		const entry: SharedRead = {
			read: read(),
			startedAt: now,
			freshUntil: Number.POSITIVE_INFINITY,
		};
		this.share(key, entry, now);
		// Registered before any caller awaits the read: nobody resumes to find a failed read still held.
		void entry.read.then(
			() => {
				entry.freshUntil = entry.startedAt + this.timings.freshMs;
			},
			() => {
				if (this.reads.get(key) === entry) this.reads.delete(key);
			},
		);
		return { value: (await entry.read) as T, held: false };
	}

	/** Forgets the read for `key`: the next caller reads again. */
	drop(key: string): void {
		this.reads.delete(key);
	}

	/** Holds `read` for `key`, and lets go of answers no longer fresh (templates an expression picked once). */
	private share(key: string, read: SharedRead, now: number): void {
		for (const [heldKey, held] of this.reads)
			if (held.freshUntil <= now) this.reads.delete(heldKey);
		this.reads.set(key, read);
	}
}

/** This process's templates, by service (never the API key in clear), channel and template. */
const templates = new TemplateCache(TEMPLATE_CACHE, REAL_CLOCK);

function keyOf(connection: ServiceConnection, where: TemplatePlace): string {
	const service = serviceKey(connection.baseUrl, connection.credentialsDecrypted.data?.apiKey);
	return `${service}\n${where.channelId}\n${where.templateId}`;
}

/** A template as a send checks against it; `held`: an answer this process had before it was asked for. */
export interface TemplateCopy {
	template: WhatsAppTemplate;
	held: boolean;
}

/**
 * The template the sends check against, shared by every execution of this n8n process for
 * TEMPLATE_CACHE.freshMs (constants.ts). A failed read is worded by each execution for its own item.
 * The editor's lists and mapper read fresh (transport/index.ts directly).
 */
export async function templateForSends(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	where: TemplatePlace,
	fresh = false,
): Promise<TemplateCopy> {
	const read = async () => await fetchTemplate.call(this, connection, where);
	const { value, held } = await templates.get(keyOf(connection, where), read, fresh);
	return { template: value, held };
}

/** The service refused a send of this template: it may have changed since it was read. */
export function forgetTemplate(connection: ServiceConnection, where: TemplatePlace): void {
	templates.drop(keyOf(connection, where));
}

/** FNV-1a, 64 bits: tells API keys apart without keeping them (this code may import nothing but n8n-workflow). */
function fingerprint(text: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const char of text) {
		hash ^= BigInt(char.codePointAt(0) ?? 0);
		hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
	}
	return hash.toString(16).padStart(16, '0');
}

/** What the pacers and the template cache key a service by: its base URL and a hash of the API key, never the key. */
export function serviceKey(baseUrl: string, apiKey: unknown): string {
	return `${baseUrl} ${fingerprint(typeof apiKey === 'string' ? apiKey : '')}`;
}
