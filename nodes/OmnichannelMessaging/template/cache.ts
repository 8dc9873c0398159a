import type { IExecuteFunctions } from 'n8n-workflow';

import { TEMPLATE_CACHE } from '../constants';
import { dropTemplateRead, serviceKey, shareTemplateRead, sharedTemplateRead, templateReadKey } from '../send/processState';
import type { SharedRead } from '../send/processState';
import type { ServiceConnection } from '../transport';
import { fetchTemplate } from './api';
import type { WhatsAppTemplate } from './types';

interface TemplatePlace {
	channelId: number;
	templateId: number;
}

function keyOf(connection: ServiceConnection, where: TemplatePlace): string {
	const service = serviceKey(connection.baseUrl, connection.credentialsDecrypted.data?.apiKey);
	return templateReadKey(service, where.channelId, where.templateId);
}

/** A template as a send checks against it; `held`: an answer this process had before it was asked for. */
export interface TemplateCopy {
	template: WhatsAppTemplate;
	held: boolean;
}

/**
 * The template the sends check against, shared by every execution of this n8n process: one read
 * serves them all for TEMPLATE_CACHE.freshMs from the moment it started, and executions that need
 * it while it is in flight await that read instead of making their own. A failed read is held by
 * no one: each execution waiting on it gets the failure (and words it for its own item), the next
 * one reads again. `fresh` passes over a held answer (a read in flight is newer, and is joined).
 * The editor's lists and mapper read fresh (template/api.ts directly).
 */
export async function templateForSends(
	this: IExecuteFunctions,
	connection: ServiceConnection,
	where: TemplatePlace,
	fresh = false,
): Promise<TemplateCopy> {
	const key = keyOf(connection, where);
	const now = Date.now();
	const held = sharedTemplateRead(key);
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
			entry.freshUntil = entry.startedAt + TEMPLATE_CACHE.freshMs;
		},
		() => dropTemplateRead(key, entry),
	);
	return { template: (await entry.read) as WhatsAppTemplate, held: false };
}

/** The service refused a send of this template: it may have changed since it was read. */
export function forgetTemplate(connection: ServiceConnection, where: TemplatePlace): void {
	dropTemplateRead(keyOf(connection, where));
}
