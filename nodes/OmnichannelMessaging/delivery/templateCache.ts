import type { IExecuteFunctions } from 'n8n-workflow';

import { serviceKey } from '../helpers/serviceKey';
import { tuning } from '../tuning';
import type { ServiceConnection } from '../transport';
import { fetchTemplate } from '../transport/templates';
import type { WhatsAppTemplate } from '../helpers/template/types';

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

/** By service (never the API key in clear), channel and template. */
const templateReads = new Map<string, SharedRead>();

function keyOf(connection: ServiceConnection, where: TemplatePlace): string {
	const service = serviceKey(connection.baseUrl, connection.credentialsDecrypted.data?.apiKey);
	return `${service}\n${where.channelId}\n${where.templateId}`;
}

/** Holds `read` for `key`, and lets go of answers no longer fresh (templates an expression picked once). */
function shareTemplateRead(key: string, read: SharedRead, now: number): void {
	for (const [heldKey, held] of templateReads) if (held.freshUntil <= now) templateReads.delete(heldKey);
	templateReads.set(key, read);
}

/** Forgets the read for `key`; with `only`, just when that read is still the one held. */
function dropTemplateRead(key: string, only?: SharedRead): void {
	if (only === undefined || templateReads.get(key) === only) templateReads.delete(key);
}

/** For tests (testing.ts): a restart's clean slate. */
export function forgetTemplateReads(): void {
	templateReads.clear();
}

/** A template as a send checks against it; `held`: an answer this process had before it was asked for. */
export interface TemplateCopy {
	template: WhatsAppTemplate;
	held: boolean;
}

/**
 * The template the sends check against, shared by every execution of this n8n process: one read
 * serves them all for TEMPLATE_CACHE.freshMs (constants.ts) from the moment it started, and executions that need
 * it while it is in flight await that read instead of making their own. A failed read is held by
 * no one: each execution waiting on it gets the failure (and words it for its own item), the next
 * one reads again. `fresh` passes over a held answer (a read in flight is newer, and is joined).
 * The editor's lists and mapper read fresh (transport/templates.ts directly).
 */
export async function templateForSends(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	where: TemplatePlace,
	fresh = false,
): Promise<TemplateCopy> {
	const key = keyOf(connection, where);
	const now = Date.now();
	const held = templateReads.get(key);
	const answered = held !== undefined && held.freshUntil !== Number.POSITIVE_INFINITY;
	if (held && now < held.freshUntil && !(fresh && answered)) {
		return { template: (await held.read) as WhatsAppTemplate, held: answered };
	}
	const entry: SharedRead = {
		read: fetchTemplate.call(this, connection, where),
		startedAt: now,
		freshUntil: Number.POSITIVE_INFINITY,
	};
	shareTemplateRead(key, entry, now);
	// Registered before any caller awaits the read: nobody resumes to find a failed read still held.
	void entry.read.then(
		() => {
			entry.freshUntil = entry.startedAt + tuning().templateCache.freshMs;
		},
		() => dropTemplateRead(key, entry),
	);
	return { template: (await entry.read) as WhatsAppTemplate, held: false };
}

/** The service refused a send of this template: it may have changed since it was read. */
export function forgetTemplate(connection: ServiceConnection, where: TemplatePlace): void {
	dropTemplateRead(keyOf(connection, where));
}
