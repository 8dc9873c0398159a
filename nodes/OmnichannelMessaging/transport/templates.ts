import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import { PATHS } from '../constants';
import { readJson } from './index';
import type { RequestPlace, ServiceConnection } from './index';
import type { WhatsAppTemplate } from '../helpers/template/types';

type ReadFunctions = IExecuteFunctions | ILoadOptionsFunctions;

/** One template with its body, header and variables: for Get, the sends' check and the variables mapper. */
export async function fetchTemplate(
	this: ReadFunctions,
	connection: ServiceConnection,
	where: { channelId: number; templateId: number },
	place?: RequestPlace,
): Promise<WhatsAppTemplate> {
	return (await readJson.call(
		this,
		connection,
		{
			method: 'GET',
			path: PATHS.templateDetail,
			qs: { platform_id: where.channelId, template_id: where.templateId },
		},
		'template',
		place,
	)) as WhatsAppTemplate;
}

/** A channel's approved templates: for Get Many and the template dropdown. */
export async function fetchTemplateList(
	this: ReadFunctions,
	connection: ServiceConnection,
	channelId: number,
	place?: RequestPlace,
): Promise<WhatsAppTemplate[]> {
	return (await readJson.call(
		this,
		connection,
		{ method: 'GET', path: PATHS.templateList, qs: { platform_id: channelId } },
		'templateList',
		place,
	)) as WhatsAppTemplate[];
}
