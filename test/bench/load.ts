/*
 * The bench's load: WhatsApp template 101 of channel 12 ({{1}} {{2}} {{3}}), one message per item,
 * each item to its own phone number.
 */
import type { INodeParameters } from 'n8n-workflow';

import { mapperValue } from '../helpers/mapperValue';

export const CHANNEL_ID = 12;
export const TEMPLATE_ID = 101;

/** The variables from each item's fields, as a CRM workflow maps them. */
export const EXPRESSION_VARIABLES = {
	'1': '={{ $json.name }}',
	'2': '={{ $json.order }}',
	'3': '={{ $json.date }}',
};

/** The phone, not the order: the warm-up's orders repeat the timed run's, its phones do not. */
export const SEND_ONCE_KEY = '={{ $json.phone }}-shipped';

export function phoneFor(index: number, prefix = '+49151'): string {
	return `${prefix}${String(index).padStart(7, '0')}`; // +49151000NNNN, unique per item
}

/** `offset` keeps the phones of the executions of one row apart, so a duplicate is a real one. */
export function itemsFor(count: number, prefix?: string, offset = 0) {
	return Array.from({ length: count }, (_, j) => offset + j).map((i) => ({
		phone: phoneFor(i, prefix),
		name: `Customer ${i}`,
		order: `ORD-${100000 + i}`,
		date: `2025-06-${String((i % 28) + 1).padStart(2, '0')}`,
	}));
}

/** The node's parameters for a template send to `$json.phone`. */
export function templateSendParameters(
	variables: Record<string, string>,
	options: INodeParameters,
): INodeParameters {
	return {
		resource: 'whatsappTemplate',
		operation: 'send',
		channelId: CHANNEL_ID,
		templateId: { __rl: true, mode: 'id', value: String(TEMPLATE_ID) },
		customerPhone: '={{ $json.phone }}',
		variablesMode: 'mapper',
		variables: mapperValue(variables),
		options,
	};
}
