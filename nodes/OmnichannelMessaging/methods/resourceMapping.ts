import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { locatorValue, toPositiveInteger, editorParameter } from '../helpers/values';
import { fetchTemplate, connectForEditor } from '../transport';
import { describePosition, getVariablePositions, positionKey } from '../helpers/template';
import { ANSWER_LINK_VARIABLE, SAVED_LINK_VARIABLE } from '../constants';

const CANNOT_LOAD =
	'Choose a channel and a template first. If the template comes from an expression, set Variables Input to JSON.';

/** A Link Variable as saved: left out, it is the default it had when saved (null is empty). */
function savedLinkVariable(functions: ILoadOptionsFunctions, name: string): string | undefined {
	const saved = editorParameter(functions, name);
	return positionKey(saved === undefined ? SAVED_LINK_VARIABLE : saved);
}

/**
 * The variable a link fills, which the mapper does not ask for: Send and Wait's link to its page,
 * or Template Send's answer link. An Answer Link with an empty Link Variable leaves every variable
 * to map (the send then asks for one).
 */
function linkPosition(functions: ILoadOptionsFunctions): string | undefined {
	const operation = editorParameter(functions, 'operation');
	if (operation === SEND_AND_WAIT_OPERATION) return savedLinkVariable(functions, 'linkVariable');
	const link = editorParameter(functions, 'options.answerLink');
	if (operation !== 'send' || typeof link !== 'object' || link === null) return undefined;
	return savedLinkVariable(functions, ANSWER_LINK_VARIABLE);
}

export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const channelId = toPositiveInteger(locatorValue(editorParameter(this, 'channelId')));
	const templateId = toPositiveInteger(locatorValue(editorParameter(this, 'templateId')));
	if (channelId === undefined || templateId === undefined) {
		return { fields: [], emptyFieldsNotice: CANNOT_LOAD };
	}
	const template = await fetchTemplate.call(this, await connectForEditor.call(this), {
		channelId,
		templateId,
	});
	const link = linkPosition(this);
	const positions = getVariablePositions(template).filter((position) => position !== link);
	return {
		fields: positions.map((position) => {
			const context = describePosition(template.body, position);
			return {
				id: position,
				displayName: context ? `{{${position}}}: ${context}` : `{{${position}}}`,
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
			};
		}),
		emptyFieldsNotice:
			positions.length > 0
				? undefined
				: link
					? 'The answer link fills the only variable of this template: nothing to fill in'
					: 'This template has no variables: nothing to fill in',
	};
}
