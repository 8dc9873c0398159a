import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { PATHS } from '../constants';
import { channelListMissingError, serviceResponseError } from '../helpers/errors';
import { toPositiveInteger } from '../helpers/values';
import { serviceRequest } from './index';
import type { ServiceConnection } from './index';

export interface Channel {
	id: number;
	title: string;
	number: string;
}

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/** Deployments name it `platform_id` or `id` (field-notes.md, Channels); entries without one cannot be picked. */
function toChannel(entry: unknown): Channel | undefined {
	if (typeof entry !== 'object' || entry === null) return undefined;
	const record = entry as Record<string, unknown>;
	const id = toPositiveInteger(record.platform_id) ?? toPositiveInteger(record.id);
	if (id === undefined) return undefined;
	return { id, title: text(record.title) || `Channel ${id}`, number: text(record.number) };
}

/** Not in the spec: a deployment without it answers 404, and the picker says to give the channel by ID. */
export async function fetchChannelList(
	this: ILoadOptionsFunctions,
	connection: ServiceConnection,
): Promise<Channel[]> {
	const response = await serviceRequest.call(this, connection, {
		method: 'GET',
		path: PATHS.channelList,
	});
	if (response.statusCode === 404) throw channelListMissingError(this.getNode());
	const error = serviceResponseError(this, response, { expect: 'channelList' });
	if (error) throw error;
	return (response.body as unknown[])
		.map(toChannel)
		.filter((channel): channel is Channel => channel !== undefined);
}
