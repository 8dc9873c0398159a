import { getVariablePositions } from './placeholders';
import { isHeaderMediaType, templateHeaderType } from './types';
import type { HeaderMediaType, WhatsAppTemplate } from './types';

export interface TemplateProblem {
	field: string;
	problem: string;
	/** What to do, when the problem alone does not say. */
	hint?: string;
}

/**
 * The checks WhatsApp would otherwise make after the service queued the message, where the
 * failure never reaches the user (test/fixtures/spec/field-notes.md, Send WhatsApp template
 * message: error 132000). Returns the first problem.
 */
export function checkAgainstTemplate(
	template: WhatsAppTemplate,
	values: Record<string, string>,
	mediaUrl: string | undefined,
	mediaType: HeaderMediaType | 'auto',
): TemplateProblem | undefined {
	const name = `"${typeof template.name === 'string' ? template.name : String(template.id)}"`;
	return (
		variablesProblem(name, template, values) ?? headerProblem(name, template, mediaUrl, mediaType)
	);
}

/** Positions as the template writes them: {{1}}, {{2}}. */
function placeholders(positions: string[]): string {
	return positions.map((position) => `{{${position}}}`).join(', ');
}

function variablesProblem(
	name: string,
	template: WhatsAppTemplate,
	values: Record<string, string>,
): TemplateProblem | undefined {
	const positions = getVariablePositions(template);
	const missing = positions.filter(
		(position) => !Object.prototype.hasOwnProperty.call(values, position),
	);
	if (missing.length > 0) {
		return {
			field: 'Variables',
			problem: `template ${name} needs a value for ${placeholders(missing)}`,
		};
	}
	const extra = Object.keys(values).filter((key) => !positions.includes(key));
	if (extra.length > 0) {
		return {
			field: 'Variables',
			problem: `template ${name} has no variable ${placeholders(extra)} (it has ${placeholders(positions) || 'none'})`,
		};
	}
	return undefined;
}

function headerProblem(
	name: string,
	template: WhatsAppTemplate,
	mediaUrl: string | undefined,
	mediaType: HeaderMediaType | 'auto',
): TemplateProblem | undefined {
	const headerType = templateHeaderType(template);
	if (isHeaderMediaType(headerType) && !mediaUrl) {
		return {
			field: 'Header Media URL',
			problem: `template ${name} has a ${headerType} header: give the URL of the ${headerType} to show`,
		};
	}
	if (mediaUrl && !isHeaderMediaType(headerType)) {
		return {
			field: 'Header Media URL',
			problem:
				`template ${name} has ${headerType ? `a ${headerType}` : 'no'} header, so it takes no ` +
				`header media: leave the field empty`,
		};
	}
	if (mediaUrl && mediaType !== 'auto' && mediaType !== headerType) {
		return {
			field: 'Header Media Type',
			problem:
				`template ${name} has a ${headerType} header, not ${mediaType}: choose ${headerType} or ` +
				`Same as Template`,
		};
	}
	return undefined;
}
