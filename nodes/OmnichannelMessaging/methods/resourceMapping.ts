import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { locatorValue, toPositiveInteger } from '../helpers/values';
import { fetchTemplate } from '../transport/templates';
import { describePosition, getVariablePositions } from '../helpers/template/placeholders';
import { connectForEditor } from '../transport';
import { editorParameter } from '../helpers/operationContext';

const CANNOT_LOAD =
	'Choose a channel and a template first. If the template comes from an expression, set Variables Input to JSON.';

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
	const positions = getVariablePositions(template);
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
			positions.length === 0 ? 'This template has no variables: nothing to fill in' : undefined,
	};
}
