'use strict';

/**
 * A Variables (resourceMapper) value as n8n's editor stores it after loading the template's
 * fields: one string field per position, each value possibly an expression. `labels` are the
 * field names the editor showed (default "{{n}}"); `convertFieldsToString` as the editor saved it.
 * Shared by the engine tests, the benchmark and the real-n8n tests.
 */
function mapperValue(value, { labels = {}, convertFieldsToString = false } = {}) {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: Object.keys(value).map((id) => ({
			id,
			displayName: labels[id] ?? `{{${id}}}`,
			required: true,
			defaultMatch: false,
			display: true,
			type: 'string',
			canBeUsedToMatch: false,
		})),
		attemptToConvertTypes: false,
		convertFieldsToString,
	};
}

module.exports = { mapperValue };
