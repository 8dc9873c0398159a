import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import { linkVariableField } from '../../answerLinks/linkOption';
import { sendOptionsField } from '../../delivery';
import type { SendSession } from '../../delivery';
import { showFor } from '../../helpers/displayOptions';
import type { OperationContext } from '../../helpers/values';
import {
	FORM_PAGE_OPTIONS,
	SEND_AND_WAIT_SHARED_OPTIONS,
	responseFields,
} from '../../sendAndWait/fields';
import {
	LIMIT_WAIT_TIME_OPTION,
	pageLink,
	resumeUrlSigner,
	runSendAndWait,
} from '../../sendAndWait/waiting';
import type { ReadParameter } from '../../sendAndWait/webhook';
import {
	bodyWithout,
	normalizeVariables,
	parseVariablesJson,
	positionKey,
} from '../../helpers/template';
import { connectToService, fetchTemplate } from '../../transport';
import { EDITOR_TIMEOUT_MS, SAVED_LINK_VARIABLE } from '../../constants';
import { channelIdFrom, templateIdFrom } from '../common.descriptions';
import { prepareTemplateSend, withLinkVariable } from './sendInput';
import { TEMPLATE_OPTIONS, templateMessageFields } from './sendFields';

export const description: INodeProperties[] = [
	...templateMessageFields(SEND_AND_WAIT_OPERATION, ['linkVariable']),
	{
		...linkVariableField('a page with the buttons (a text box, or the form)'),
		displayOptions: showFor('whatsappTemplate', SEND_AND_WAIT_OPERATION),
	},
	...responseFields('whatsappTemplate'),
	sendOptionsField({
		resource: 'whatsappTemplate',
		operation: SEND_AND_WAIT_OPERATION,
		shared: SEND_AND_WAIT_SHARED_OPTIONS,
		extra: [
			LIMIT_WAIT_TIME_OPTION,
			...FORM_PAGE_OPTIONS,
			...TEMPLATE_OPTIONS.filter((option) => option.name !== 'includeRenderedMessage'),
		],
	}),
];

/** The answer link goes into the Link Variable. */
function addAnswerLink(
	itemIndex: number,
	session: SendSession,
	values: Record<string, string>,
): Record<string, string> {
	const context = session.context;
	const link = pageLink(resumeUrlSigner(session.functions));
	return withLinkVariable(
		context,
		itemIndex,
		values,
		context.get('linkVariable', itemIndex, SAVED_LINK_VARIABLE),
		link,
	);
}

const prepare = prepareTemplateSend(addAnswerLink);

/** Sends the one item's template with the answer link in it, then waits for the answer. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	// The link is the same for every response type: its page shows the buttons or the form.
	return await runSendAndWait.call(this, () => prepare, context);
}

/** The variables the item mapped, as they were sent: empty ones stay, as a send allowed them. */
function mappedVariables(read: ReadParameter): Record<string, string> {
	let raw: unknown = {};
	if (read('variablesMode', 'mapper') === 'json') {
		const parsed = parseVariablesJson(read('variablesJson', '{}'));
		if (parsed.ok) raw = parsed.value;
	} else {
		const mapper = read('variables', '');
		if (typeof mapper === 'object' && mapper !== null) raw = (mapper as IDataObject).value;
	}
	const values = normalizeVariables(raw, true);
	return values.ok ? values.value : {};
}

/**
 * The page's question: the template's body as the person received it, without the link. The body
 * is the service's, so it is read from there when the page opens; the variables are the node's
 * parameters, which n8n resolves against the waiting item as it did when the template was sent.
 */
export async function readQuestion(
	this: IWebhookFunctions,
	read: ReadParameter,
): Promise<string | undefined> {
	const node = this.getNode();
	const link = positionKey(read('linkVariable', '1'));
	if (link === undefined) return undefined;
	const where = {
		channelId: channelIdFrom(read('channelId', ''), node, 0),
		templateId: templateIdFrom(read('templateId', ''), node, 0),
	};
	// Someone waits for the page: the service gets the editor's shorter limit, not a send's.
	const connection = { ...(await connectToService.call(this)), timeout: EDITOR_TIMEOUT_MS };
	const template = await fetchTemplate.call(this, connection, where);
	return bodyWithout(template, mappedVariables(read), link);
}
