import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { locatorValue, toPositiveInteger, editorParameter } from '../helpers/values';
import { fetchTemplate, connectForEditor } from '../transport';
import { describePosition, getVariablePositions, positionKey } from '../helpers/template';

const CANNOT_LOAD =
	'Choose a channel and a template first. If the template comes from an expression, set Variables Input to JSON.';

/** Send and Wait fills its Link Variable itself: the mapper does not ask for it. */
function linkPosition(functions: ILoadOptionsFunctions): string | undefined {
	if (editorParameter(functions, 'operation') !== SEND_AND_WAIT_OPERATION) return undefined;
	return positionKey(editorParameter(functions, 'linkVariable'));
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
