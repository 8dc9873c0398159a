import type { INodeProperties } from 'n8n-workflow';

import { showFor } from '../../helpers/displayOptions';
import { readRequiredText } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import { PATHS } from '../../constants';
import { sendOptionsField } from '../../delivery';
import type { PreparedSend } from '../../delivery';

export function customerIdField(operation: string): INodeProperties {
	return {
		displayName: 'Customer ID',
		name: 'customerId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 123456',
		description:
			"The service's numeric identifier of the customer to message, for example 123456, as shown " +
			"on the customer's page in the service or stored in your CRM. A number from an expression " +
			'is sent as text.',
		builderHint: {
			propertyHint:
				"The service's customer ID as text, for example 123456, not a phone number; usually from " +
				'an expression such as {{ $json.customerId }}',
		},
		displayOptions: showFor('message', operation),
	};
}

/** customer_id is a string in every request, even when the CRM hands over a number. */
export function readCustomerId(context: OperationContext, itemIndex: number): string {
	return readRequiredText(context, itemIndex, {
		parameter: 'customerId',
		field: 'Customer ID',
		what: 'a customer ID',
		advice: "give the customer's ID as text or a number, for example 123456",
	});
}

/** A message send's fields: the Customer ID, the operation's own, then the Options (with `extra`). */
export function messageSendFields(
	operation: string,
	fields: INodeProperties[],
	extra: INodeProperties[] = [],
): INodeProperties[] {
	return [
		customerIdField(operation),
		...fields,
		sendOptionsField({ resource: 'message', operation, extra }),
	];
}

/** The service's text message to a customer: what Send Text and Send and Wait send. */
export function textRequest(customerId: string, text: string): PreparedSend {
	return {
		method: 'POST',
		path: PATHS.sendText,
		body: { customer_id: customerId, text },
		rendered: { body: text },
	};
}
