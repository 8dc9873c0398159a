import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { fetchChannelList } from '../channel/api';
import { connectForEditor } from '../transport';

export async function searchChannels(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
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
