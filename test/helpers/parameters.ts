/*
 * The node's parameters as the editor stores them, one builder per operation. Nothing here starts
 * or mocks anything, so any test (the robustness suites included) may build its parameters here.
 */
import type { INodeParameters, NodeParameterValue } from 'n8n-workflow';

/** A field's value: a literal or an expression (`={{ … }}`). */
type Value = NodeParameterValue;

/** A resource locator's value ("By ID" unless `mode` says "From List"). */
export const locator = (value: Value, mode: 'list' | 'id' = 'id') => ({
	__rl: true,
	mode,
	value: String(value),
});

/** Message → Send Text to `customerId`, as the editor stores it; `extra` adds or overrides fields. */
export const sendTextTo = (
	customerId: Value,
	text: Value,
	extra: INodeParameters = {},
): INodeParameters => ({ resource: 'message', operation: 'sendText', customerId, text, ...extra });

/** Message → Send Attachment of `attachmentType` at `attachmentUrl` to `customerId`. */
export const sendAttachmentTo = (
	customerId: Value,
	attachmentType: Value,
	attachmentUrl: Value,
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'message',
	operation: 'sendAttachment',
	customerId,
	attachmentType,
	attachmentUrl,
	...extra,
});

/** WhatsApp Template → Get of `templateId` on `channelId` (by ID). */
export const getTemplate = (
	channelId: Value,
	templateId: Value,
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'get',
	channelId,
	templateId: locator(templateId),
	...extra,
});

/** WhatsApp Template → Get Many on `channelId`. */
export const getTemplates = (channelId: Value, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'getAll',
	channelId,
	...extra,
});

/** WhatsApp Template → Send of `templateId` on `channelId`, without recipient or variables yet. */
export const templateOn = (channelId: Value, templateId: Value): INodeParameters => ({
	resource: 'whatsappTemplate',
	operation: 'send',
	channelId,
	templateId: locator(templateId),
});
