import type { INodeProperties } from 'n8n-workflow';

import { CHANNEL_DEPENDENCY } from '../common.descriptions';
import type { showFor } from '../../helpers/displayOptions';

type Show = ReturnType<typeof showFor>;

/** How the placeholder values are given. */
function variablesModeField(show: Show): INodeProperties {
	return {
		displayName: 'Variables Input',
		name: 'variablesMode',
		type: 'options',
		noDataExpression: true,
		default: 'mapper',
		options: [
			{
				name: 'Map Each Variable',
				value: 'mapper',
				description: 'One field per placeholder of the chosen template ({{1}}, {{2}}, …)',
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'One object keyed by position, for example {"1": "Anna"}. Use this when the template comes ' +
					'from an expression.',
			},
		],
		description: 'How to give the values of the template body placeholders',
		builderHint: {
			propertyHint:
				'Use "json" with variablesJson when building a workflow: "mapper" needs the template ' +
				'picked in the editor, and cannot follow a template chosen by an expression',
		},
		displayOptions: show,
	};
}

/** One field per placeholder of the template picked in the editor. */
function variablesMapperField(show: Show, mapperDependsOn: string[]): INodeProperties {
	return {
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		description: 'The value of each placeholder of the template body, in order: {{1}}, {{2}}, …',
		typeOptions: {
			loadOptionsDependsOn: [...CHANNEL_DEPENDENCY, 'templateId.value', ...mapperDependsOn],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				mode: 'add',
				valuesLabel: 'Template Variables',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'This template has no variables: nothing to fill in',
				// A workflow saved with other labels for the same placeholders (0.1.0's) gets today's.
				refreshStaleSchemaOnOpen: true,
			},
		},
		displayOptions: { show: { ...show.show, variablesMode: ['mapper'] } },
	};
}

/** An object keyed by position, for a template chosen by an expression. */
function variablesJsonField(show: Show): INodeProperties {
	return {
		displayName: 'Variables (JSON)',
		name: 'variablesJson',
		type: 'json',
		default: '{}',
		description: 'An object keyed by placeholder position, for example {"1": "Anna", "2": "1042"}',
		hint: 'Keys are positions: "1" fills {{1}}. Values may come from expressions.',
		builderHint: {
			propertyHint:
				'Template variables as JSON keyed by position: {"1": "Anna", "2": "1042"} fills {{1}} and ' +
				'{{2}} of the template body; values may be expressions',
		},
		displayOptions: { show: { ...show.show, variablesMode: ['json'] } },
	};
}

/**
 * Variables Input and its two forms: one mapper field per placeholder, or JSON keyed by position.
 * `mapperDependsOn`: more fields the mapper reloads after (Send and Wait's link variable).
 */
export function variablesFields(show: Show, mapperDependsOn: string[] = []): INodeProperties[] {
	return [
		variablesModeField(show),
		variablesMapperField(show, mapperDependsOn),
		variablesJsonField(show),
	];
}
