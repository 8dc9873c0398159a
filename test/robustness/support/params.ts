import type { IDataObject, INodeParameters } from 'n8n-workflow';

/** A send of template 101 ({{1}} {{2}} {{3}}) on channel 12; `fields` gives the phone and the variables. */
export function templateSendParameters(fields: IDataObject, options: IDataObject): INodeParameters {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: 12,
		templateId: { __rl: true, mode: 'id', value: '101' },
		...fields,
		options,
	} as INodeParameters;
}
