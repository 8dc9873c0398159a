import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { sendOptionsField } from '../../delivery';
import type { SendSession } from '../../delivery';
import { invalidInputError } from '../../helpers/errors';
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
import { positionKey } from '../../helpers/template';
import { prepareTemplateSend } from './sendInput';
import { TEMPLATE_OPTIONS, templateMessageFields } from './sendFields';

const LINK_FIELD = 'Link Variable';

export const description: INodeProperties[] = [
	...templateMessageFields(SEND_AND_WAIT_OPERATION, ['linkVariable']),
	{
		displayName: LINK_FIELD,
		name: 'linkVariable',
		type: 'number',
		required: true,
		default: 1,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'The template body variable that receives the answer link: 2 puts it into {{2}}. The link ' +
			'opens a page with the choices (a text box, or the form); leave this variable out of Variables.',
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

/** The answer link goes into the Link Variable; a value mapped there too is a mistake, not a guess. */
function addAnswerLink(
	itemIndex: number,
	session: SendSession,
	values: Record<string, string>,
): Record<string, string> {
	const context = session.context;
	const raw = context.get('linkVariable', itemIndex, 1);
	const position = positionKey(raw);
	if (position === undefined) {
		const problem = `${JSON.stringify(raw)} is not a variable position: use 2 for {{2}}`;
		throw invalidInputError(context.node, itemIndex, LINK_FIELD, problem);
	}
	if (values[position]?.trim()) {
		const problem = `{{${position}}} receives the answer link (${LINK_FIELD}): leave it empty`;
		throw invalidInputError(context.node, itemIndex, 'Variables', problem);
	}
	const link = pageLink(resumeUrlSigner(session.functions));
	return { ...values, [position]: link };
}

const prepare = prepareTemplateSend(addAnswerLink);

/** Sends the one item's template with the answer link in it, then waits for the answer. */
export async function execute(
	this: IExecuteFunctions,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	// The link is the same for every response type: its page shows the choices or the form.
	return await runSendAndWait.call(this, () => prepare, context);
}
