import type { IBuilderHint, NodeHint } from 'n8n-workflow';

/*
 * What n8n shows before a run, and what n8n's AI Workflow Builder reads. Older n8n versions
 * ignore description fields they do not know, so the node loads there unchanged.
 */

/**
 * An editor hint's condition: an n8n expression over the node's saved parameters. JSON of
 * $parameter gives them as saved (an expression stays its text); $parameter.x would evaluate it.
 */
function whenSaved(test: string): string {
	return `={{ (p => ${test})(JSON.parse(JSON.stringify($parameter))) }}`;
}

/** A saved value, or a locator's value, that is an expression. */
const IS_EXPRESSION = '(v => String(v && v.__rl ? v.value : (v ?? "")).startsWith("="))';

export const editorHints: NodeHint[] = [
	{
		message:
			'The channel or the template comes from an expression, so Map Each Variable cannot know ' +
			'their placeholders. Set <b>Variables Input</b> to <b>JSON</b> and key the values by ' +
			'position, for example <code>{"1": "Anna", "2": "1042"}</code>.',
		type: 'warning',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: whenSaved(
			`p.resource === "whatsappTemplate" && p.variablesMode === "mapper" && ` +
				`[p.channelId, p.templateId].some(${IS_EXPRESSION})`,
		),
	},
	{
		message:
			'Customer Phone has no country code: start it with + or 00 (for example +49 151 2345 6789), ' +
			'or set <b>Options → Default Country</b>. Otherwise the item stops before sending.',
		type: 'warning',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: whenSaved(
			`p.resource === "whatsappTemplate" && typeof p.customerPhone === "string" && ` +
				`/^\\s*[^\\s=+0]|^\\s*0(?!0)/.test(p.customerPhone) && !(p.options && p.options.defaultCountry)`,
		),
	},
];

export const nodeBuilderHint: IBuilderHint = {
	searchHint:
		'Send WhatsApp template messages, texts and attachments (by public URL) to customers through ' +
		'the Omnichannel Messaging service: notifications, CRM follow-ups, broadcasts. WhatsApp ' +
		'Template → Get Many lists a channel’s templates and their IDs.',
};
