/**
 * The sandbox's templates (also the tests' and the examples') are ones WhatsApp would approve:
 * WhatsApp refuses a template whose body starts or ends with a variable, and a variable followed
 * (or preceded) only by punctuation counts as one at the end (or start).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { testEachReturns } from '../helpers/table';
import { sandboxTemplates } from './seed';

const VARIABLE = String.raw`\{\{\s*\d+\s*\}\}`;
/** Spaces, punctuation and symbols: what may stand between a variable and the body's end. */
const EDGE = String.raw`[\s\p{P}\p{S}]*`;
const STARTS_WITH_VARIABLE = new RegExp(`^${EDGE}${VARIABLE}`, 'u');
const ENDS_WITH_VARIABLE = new RegExp(`${VARIABLE}${EDGE}$`, 'u');

/** Why WhatsApp would refuse the body, or undefined. */
function bodyProblem(body: string): string | undefined {
	if (STARTS_WITH_VARIABLE.test(body)) return 'starts with a variable';
	if (ENDS_WITH_VARIABLE.test(body)) return 'ends with a variable';
	return undefined;
}

describe("WhatsApp's rule on a template body's variables", () => {
	testEachReturns('%j: %s', bodyProblem, [
		['Hi {{1}}, please confirm on {{2}}: {{3}}', 'ends with a variable'],
		['Your order arrives on {{3}}.', 'ends with a variable'],
		['See you, {{1}} !  ', 'ends with a variable'],
		['{{1}}, your order has shipped.', 'starts with a variable'],
		['  ¡{{1}} hola, gracias.', 'starts with a variable'],
		['Hi {{1}}, confirm here: {{2}} See you soon!', undefined],
		['We are open Monday to Friday.', undefined],
	]);
});

describe('the seed', () => {
	const templates = Object.values(sandboxTemplates()).flat();

	it('has only bodies WhatsApp would approve', () => {
		const refused = templates
			.map((template) => [template.name, template.body, bodyProblem(String(template.body))])
			.filter(([, , problem]) => problem !== undefined);
		expect(refused).toEqual([]);
	});

	it('has every template an example workflow picks from the list', () => {
		const examplesDir = path.resolve(__dirname, '..', '..', 'examples');
		const picked = readdirSync(examplesDir)
			.filter((name) => name.endsWith('.json'))
			.flatMap((name) =>
				JSON.parse(readFileSync(path.join(examplesDir, name), 'utf8')).nodes.flatMap(
					(node: { parameters?: { templateId?: { mode?: string; value?: unknown } } }) =>
						node.parameters?.templateId?.mode === 'list'
							? [[name, String(node.parameters.templateId.value)]]
							: [],
				),
			);
		expect(picked.length).toBeGreaterThan(0);
		const ids = new Set(templates.map((template) => String(template.id)));
		expect(picked.filter(([, id]) => !ids.has(id))).toEqual([]);
	});
});
