import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { PATHS } from '../../constants';
import { showFor } from '../../helpers/displayOptions';
import { carriesFile, checkMediaUrl } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import { fileInsteadOfLinkError, invalidInputError } from '../../helpers/errors/run';
import { runSendPipeline } from '../../delivery';
import type { PrepareSend } from '../../delivery';
import { messageSendFields, readCustomerId } from './customer';

const ATTACHMENT_TYPES = ['image', 'video', 'document'];

export const description: INodeProperties[] = messageSendFields('sendAttachment', [
	{
		displayName: 'Attachment Type',
		name: 'attachmentType',
		type: 'options',
		required: true,
		default: 'image',
		options: [
			{ name: 'Document', value: 'document', description: 'A file such as a PDF' },
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
		],
		description: 'What kind of file the attachment is',
		displayOptions: showFor('message', 'sendAttachment'),
	},
	{
		displayName: 'Attachment URL',
		name: 'attachmentUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/invoices/1042.pdf',
		description:
			'Public http(s) address of the file. The service downloads it from there, ' +
			'so it must be reachable without a login.',
		hint: 'Must start with https:// (or http://) and be publicly reachable',
		displayOptions: showFor('message', 'sendAttachment'),
	},
]);

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** One item becomes one attachment message to its customer, or the item's input error. */
const prepare: PrepareSend = async function (itemIndex, { context }) {
	const customerId = readCustomerId(context, itemIndex);
	const attachmentType = context.get('attachmentType', itemIndex, '');
	if (typeof attachmentType !== 'string' || !ATTACHMENT_TYPES.includes(attachmentType)) {
		throw invalidInputError(
			context.node,
			itemIndex,
			'Attachment Type',
			`${JSON.stringify(attachmentType) ?? 'nothing'} is not one of image, video, document`,
		);
	}
	const rawUrl = context.get('attachmentUrl', itemIndex, '');
	const url = checkMediaUrl(rawUrl);
	if (!url.ok && isEmpty(rawUrl) && carriesFile(this, itemIndex))
		throw fileInsteadOfLinkError(context.node, itemIndex, 'Attachment URL');
	if (!url.ok) {
		throw invalidInputError(context.node, itemIndex, 'Attachment URL', url.reason);
	}
	return {
		method: 'POST',
		path: PATHS.sendAttachment,
		body: { customer_id: customerId, attachment_type: attachmentType, attachment_url: url.value },
		rendered: { attachment: { type: attachmentType, url: url.value } },
	};
};

/** Each item is sent as one attachment message through the delivery engine. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	return await runSendPipeline.call(this, prepare, context);
}
