/**
 * The builder's docs read as the editor and the errors do: a builder meets on-screen names and
 * error texts, not the node's internal parameter names. The names and the texts come from the
 * node's own source, so the check follows the node.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import * as templateOperation from '../../nodes/OmnichannelMessaging/actions/whatsappTemplate/sendAndWait.operation';
import {
	sendAndWaitCliError,
	sendAndWaitItemsError,
	sendAndWaitSettingError,
	sendAndWaitToolError,
} from '../../nodes/OmnichannelMessaging/helpers/errors';
import {
	FORM_PAGE_OPTIONS,
	MESSAGE_BUTTON_LABEL_OPTION,
	responseFields,
} from '../../nodes/OmnichannelMessaging/sendAndWait/fields';
import { readForm } from '../../nodes/OmnichannelMessaging/sendAndWait/formDefinition';
import { readAnswerConfig } from '../../nodes/OmnichannelMessaging/sendAndWait/webhook';
import {
	LIMIT_WAIT_TIME_OPTION,
	waitTillFor,
} from '../../nodes/OmnichannelMessaging/sendAndWait/waiting';
import { checkAgainstTemplate } from '../../nodes/OmnichannelMessaging/helpers/template';
import { bareNode } from '../helpers/node';
import { README_WORD_LIMIT } from './docsCheck';
import { markdownCodeSpans, markdownSection, wordCount } from './markdown';

const repoDir = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(repoDir, file), 'utf8');

/** The pages a workflow builder reads; the maintainers' pages may name parameters as the code does. */
const BUILDER_DOCS = [
	'README.md',
	'docs/send-and-wait.md',
	'docs/ai-agents.md',
	'docs/send-once.md',
	'docs/whatsapp-templates.md',
	'docs/phone-numbers.md',
	'docs/sending-at-scale.md',
	'docs/queue-mode.md',
];

const SEND_AND_WAIT_PROPERTIES: INodeProperties[] = [
	...templateOperation.description.filter((property) => property.name === 'linkVariable'),
	...responseFields('message'),
	LIMIT_WAIT_TIME_OPTION,
	MESSAGE_BUTTON_LABEL_OPTION,
	...FORM_PAGE_OPTIONS,
];

/** Two names a builder reads as one: `message` and Message, `html` and HTML. */
const sameWord = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Every parameter name (and fixed collection path, `formFields.values`) the editor shows under
 * another name, and every camelCase option value (`customForm`) it shows as words.
 */
function internalNames(properties: INodeProperties[], parent = ''): Map<string, string> {
	const names = new Map<string, string>();
	for (const property of properties) {
		const own = parent ? `${parent}.${property.name}` : property.name;
		if (!sameWord(property.name, property.displayName) && property.type !== 'notice') {
			names.set(property.name, property.displayName);
			if (parent) names.set(own, property.displayName);
		}
		for (const option of property.options ?? []) {
			if ('values' in option && Array.isArray(option.values)) {
				names.set(`${property.name}.${option.name}`, property.displayName);
				internalNames(option.values, '').forEach((shown, name) => names.set(name, shown));
			} else if ('value' in option && typeof option.value === 'string') {
				if (/[a-z][A-Z]/.test(option.value)) names.set(option.value, option.name);
			} else if ('displayName' in option) {
				internalNames([option as INodeProperties]).forEach((shown, name) => names.set(name, shown));
			}
		}
	}
	return names;
}

const INTERNAL = internalNames(SEND_AND_WAIT_PROPERTIES);
const onScreen = (name: string) => INTERNAL.get(name) ?? INTERNAL.get(name.split('.').pop() ?? '');

/** A code span that is an internal name, or a path of them (`options.responseFormCustomCss`). */
function internalNameIn(span: string): string | undefined {
	if (INTERNAL.has(span)) return span;
	const parts = span.split('.');
	if (parts.length < 2 || !parts.every((part) => /^\w+$/.test(part))) return undefined;
	const named = parts.filter((part) => INTERNAL.has(part));
	const generic = parts.filter((part) => part === 'options' || part === 'values');
	return named.length > 0 && named.length + generic.length === parts.length ? span : undefined;
}

describe('the names a builder reads', () => {
	it('come from the node: the editor shows these under other names', () => {
		for (const name of [
			'formFields.values',
			'jsonOutput',
			'responseFormCustomCss',
			'multipleFiles',
			'linkVariable',
			'limitWaitTime',
			'customForm',
			'choiceOptions',
			'choiceOptions.values',
		])
			expect([name, INTERNAL.has(name)]).toEqual([name, true]);
		expect(INTERNAL.has('message')).toBe(false);
		expect(internalNameIn('options.responseFormCustomCss')).toBe('options.responseFormCustomCss');
		expect(internalNameIn('$json.data.approved')).toBeUndefined();
	});

	it.each(BUILDER_DOCS)('%s uses the names the editor shows', (file) => {
		const found = markdownCodeSpans(read(file)).flatMap(({ value, line }) => {
			const name = internalNameIn(value);
			return name ? [`${file}:${line}: \`${name}\` is "${onScreen(name)}" in the editor`] : [];
		});
		expect(found).toEqual([]);
	});
});

const NODE = bareNode('Ask', { id: 'node', typeVersion: 2 });

/** The text before a value the error fills in: the part every such error shares. */
const before = (message: string, value: string) => message.slice(0, message.indexOf(value)).trim();

function formProblem(defineForm: string, json: string, values: unknown[]): string {
	const form = readForm(defineForm, json, values);
	if (form.ok) throw new Error('the form was built');
	return form.reason;
}

/** The error of a Choice without options, as the node stops with it. */
function choiceProblem(): string {
	const config = readAnswerConfig((name, fallback) =>
		name === 'responseType' ? 'choice' : fallback,
	);
	if (config.ok || config.field === undefined) throw new Error('the choices were taken');
	return sendAndWaitSettingError(NODE, config.field, config.reason).message;
}

function waitProblem(): string {
	const wait = waitTillFor(
		{ limitType: 'atSpecifiedTime', maxDateAndTime: '2000-01-01' },
		new Date(),
	);
	if (wait.ok) throw new Error('the limit was taken');
	return wait.reason;
}

function linkVariableProblem(): string {
	const template = { id: 1, name: 'x', body: 'Hi {{1}}, answer: {{2}} thanks', attributes: [] };
	const checked = checkAgainstTemplate(
		template,
		{ 1: 'Anna', 2: 'Friday', 3: 'https://…' },
		undefined,
		'auto',
	);
	if (checked.ok) throw new Error('the template took the variable');
	return before(checked.reason, '{{3}}').replace(/^template "x" /, '');
}

/** In the source, the Link Variable's own problems (Send and Wait and Send build them in one place). */
const LINK_VARIABLE_SOURCE = read(
	'nodes/OmnichannelMessaging/actions/whatsappTemplate/sendInput.ts',
);

const ERRORS: Array<[string, string[]]> = [
	['more than one item', [before(sendAndWaitItemsError(NODE, 987654).message, '987654')]],
	[
		'the link variable',
		[
			'receives the answer link (Link Variable): leave it empty',
			'is not a variable position: use 2 for {{2}}',
			linkVariableProblem(),
		],
	],
	[
		'a form that cannot be built',
		[
			sendAndWaitSettingError(NODE, 'Form Elements', formProblem('fields', '', [])).message,
			before(
				sendAndWaitSettingError(NODE, 'Form Fields', formProblem('json', '{', [])).message,
				' at',
			),
		],
	],
	['options a Choice cannot offer', [choiceProblem(), 'Choices: …']],
	[
		'a wait limit that cannot be kept',
		[sendAndWaitSettingError(NODE, 'Limit Wait Time', waitProblem()).message],
	],
	['a tool nothing can wait for', [before(sendAndWaitToolError(NODE).message, ', so')]],
	['a run of n8n execute', [before(sendAndWaitCliError(NODE).message, ', so')]],
	['a link a phone cannot open', ['localhost', 'WEBHOOK_URL']],
];

describe('Troubleshooting in Send and Wait', () => {
	const section = markdownSection(read('docs/send-and-wait.md'), 'Troubleshooting');

	it('quotes the Link Variable problems as the source words them', () => {
		expect(LINK_VARIABLE_SOURCE).toContain("const LINK_FIELD = 'Link Variable'");
		expect(LINK_VARIABLE_SOURCE).toContain(
			'receives the answer link (${LINK_FIELD}): leave it empty',
		);
		expect(LINK_VARIABLE_SOURCE).toContain('is not a variable position: use 2 for {{2}}');
	});

	it.each(ERRORS)('has an entry for %s', (_kind, phrases) => {
		expect(section).not.toBe('');
		expect(phrases.filter((phrase) => !section.includes(phrase))).toEqual([]);
	});

	it("is linked from the README's Troubleshooting", () => {
		expect(markdownSection(read('README.md'), 'Troubleshooting')).toContain(
			'docs/send-and-wait.md#troubleshooting',
		);
	});
});

describe('the README', () => {
	it(`stays within ${README_WORD_LIMIT} words`, () => {
		expect(wordCount(read('README.md'))).toBeLessThanOrEqual(README_WORD_LIMIT);
	});
});
