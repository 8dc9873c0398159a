import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { excerpt, locatorValue, toPositiveInteger, editorParameter } from '../helpers/values';
import { fetchChannelList, fetchTemplateList, connectForEditor } from '../transport';
import type { WhatsAppTemplate } from '../helpers/template';

const PAGE_SIZE = 100;

function nameOf(template: WhatsAppTemplate): string {
	return typeof template.name === 'string' || typeof template.name === 'number'
		? String(template.name)
		: String(template.id);
}

/** The service has no paging or search of its own, so both happen here. */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const channelId = toPositiveInteger(locatorValue(editorParameter(this, 'channelId')));
	if (channelId === undefined) return { results: [] };
	const needle = (filter ?? '').trim().toLowerCase();
	const offset = Math.max(0, Number(paginationToken) || 0);

	// Only entries with an id can be picked; names that are not text are shown by id (no String() of objects).
	const templates = (
		await fetchTemplateList.call(this, await connectForEditor.call(this), channelId)
	).filter(
		(template) =>
			typeof template?.id === 'number' || (typeof template?.id === 'string' && template.id !== ''),
	);
	const matching = templates.filter(
		(template) => needle === '' || nameOf(template).toLowerCase().includes(needle),
	);
	const page = matching.slice(offset, offset + PAGE_SIZE);
	return {
		results: page.map((template) => {
			const preview = typeof template.body === 'string' ? excerpt(template.body, 60) : '';
			// n8n's list draws only the name, so the body preview goes into it.
			return {
				name: preview ? `${nameOf(template)} — ${preview}` : nameOf(template),
				value: String(template.id),
				description: preview || undefined,
			};
		}),
		paginationToken: offset + PAGE_SIZE < matching.length ? String(offset + PAGE_SIZE) : undefined,
	};
}

export async function searchChannels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const channels = await fetchChannelList.call(this, await connectForEditor.call(this));
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: channels
			.map((channel) => ({
				name: channel.number ? `${channel.title} (${channel.number})` : channel.title,
				value: String(channel.id),
				description: `Channel ${channel.id}`,
			}))
			.filter(
				(entry) => needle === '' || `${entry.name} ${entry.value}`.toLowerCase().includes(needle),
			),
	};
}
