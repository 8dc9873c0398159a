'use strict';

/**
 * A Variables (resourceMapper) value as n8n's editor stores it after loading the template's
 * fields: one string field per position, each value possibly an expression.
 * Shared by the engine tests, the benchmark and the real-n8n tests.
 */
function mapperValue(value) {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: Object.keys(value).map((id) => ({
			id,
			displayName: `{{${id}}}`,
			required: true,
			defaultMatch: false,
			display: true,
			type: 'string',
			canBeUsedToMatch: false,
		})),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

module.exports = { mapperValue };
