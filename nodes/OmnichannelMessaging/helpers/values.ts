import type {
	IDataObject,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { accepted, refused } from './checked';
import type { Checked, Refused } from './checked';
import { invalidInputError } from './errors/run';
import { DEFAULT_API_KEY_HEADER, API_PREFIX, PATHS } from '../constants';

/**
 * Expressions hand over numbers, dates, Luxon DateTimes and objects; undefined where no honest
 * string exists, so the caller names the field instead of sending "[object Object]".
 */
export function toServiceString(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (isDateTimeLike(value)) return value.toISO() ?? undefined;
	return undefined;
}

function isDateTimeLike(value: unknown): value is { toISO(): string | null } {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISO?: unknown }).toISO === 'function' &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true
	);
}

/** A whole number of 1 or more: "12" and 12 pass, "12a" and 1.5 do not. */
export function toPositiveInteger(value: unknown): number | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value > 0 ? value : undefined;
	if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
		const parsed = Number(value.trim());
		return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
	}
	return undefined;
}

export function excerpt(text: string, max: number): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** A plain value where a workflow saved one before the field became a locator. */
export function locatorValue(raw: unknown): unknown {
	return typeof raw === 'object' && raw !== null && 'value' in raw
		? (raw as { value: unknown }).value
		: raw;
}

/** An n8n item must be an object: null or text entries are left out. */
export function objectsOf(list: unknown): IDataObject[] {
	return (Array.isArray(list) ? (list as unknown[]) : []).filter(
		(entry): entry is IDataObject =>
			typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
}

/** A number from an expression counts as text. */
export interface RequiredText {
	parameter: string;
	field: string;
	/** "a customer ID": said of a value that is not text. */
	what: string;
	advice: string;
}

export function readRequiredText(
	context: OperationContext,
	itemIndex: number,
	text: RequiredText,
): string {
	const raw = context.get(text.parameter, itemIndex, '');
	const value = toServiceString(raw)?.trim();
	if (!value) {
		const problem =
			raw === '' || raw === undefined || raw === null
				? 'it is empty'
				: `${JSON.stringify(raw)} is not ${text.what}`;
		throw invalidInputError(context.node, itemIndex, text.field, `${problem}: ${text.advice}`);
	}
	return value;
}

/** The service downloads media URLs, so they must be absolute and public; the node never fetches them. */
export function checkMediaUrl(raw: unknown): Checked<string> {
	if (typeof raw !== 'string') return refused('it must be text (a URL)');
	const value = raw.trim();
	if (value === '') return refused('it is empty');
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return refused('it is not an absolute URL, for example https://example.com/file.pdf');
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return refused(
			`the scheme "${parsed.protocol}" is not allowed: use an http:// or https:// URL`,
		);
	}
	if (parsed.hostname === '') return refused('it has no host name');
	return accepted(value);
}

/** Every path starts with API_PREFIX, so a base URL ending in it (or "/") loses it here once. */
export function normalizeBaseUrl(raw: unknown): Checked<string> {
	if (typeof raw !== 'string' || raw.trim() === '') {
		return refused('the credential has no base URL');
	}
	let parsed: URL;
	try {
		parsed = new URL(raw.trim());
	} catch {
		return refused(`the credential's base URL is not a URL: use the form https://api.example.com`);
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return refused(
			`the credential's base URL must start with https:// (or http://), not "${parsed.protocol}"`,
		);
	}
	const path = parsed.pathname.replace(/\/+$/, '').replace(/\/stable\/open$/i, '');
	return accepted(`${parsed.protocol}//${parsed.host}${path}`);
}

/** What a request needs from the credential, once every field is known to be sendable. */
export interface CredentialUse {
	baseUrl: string;
	header: string;
	apiKey: string;
}

// RFC 9110 §5.6.2: a header name is a token; anything else Node refuses to send.
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters (line breaks, tabs, NUL…) and what Node cannot put in a header value.
const UNSENDABLE_IN_VALUE = /[^\x20-\x7E\x80-\xFF]/;

/** Before any request: a value no server could be sent stops here, naming the field. */
export function checkCredential(data: ICredentialDataDecryptedObject): Checked<CredentialUse> {
	const base = normalizeBaseUrl(data.baseUrl);
	if (!base.ok) return refused(base.reason, 'Base URL', 'Use the form https://api.example.com.');
	const header =
		typeof data.apiKeyHeader === 'string' && data.apiKeyHeader !== ''
			? data.apiKeyHeader
			: DEFAULT_API_KEY_HEADER;
	if (!HEADER_TOKEN.test(header)) {
		return refused(
			'the API Key Header is not a valid HTTP header name (letters, digits and - only, no spaces or line breaks)',
			'API Key Header',
			`Use a header name such as ${DEFAULT_API_KEY_HEADER}, or leave the field empty for that default.`,
		);
	}
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	if (apiKey === '' || UNSENDABLE_IN_VALUE.test(apiKey)) {
		return refused(
			apiKey === ''
				? 'the API Key is empty'
				: 'the API Key contains a line break, tab or other character a header cannot carry',
			'API Key',
			"Paste the key alone, as the service's dashboard shows it, for example sk-live-1a2b3c4d5e6f.",
		);
	}
	return accepted({ baseUrl: base.value, header, apiKey });
}

/**
 * n8n's tester only maps status codes to fixed words, so a redirect cannot name its target here; a
 * run's error does.
 */
export function credentialTestRules(): ICredentialTestRequest['rules'] {
	const redirects = [301, 302, 303, 307, 308].map((value) => ({
		type: 'responseCode' as const,
		properties: {
			value,
			message:
				`The service answered with a redirect (HTTP ${value}), which is never followed: the API ` +
				`key goes to the Base URL only. Set the Base URL to the address your service answers at (a ` +
				`workflow run's error names where it pointed).`,
		},
	}));
	return [
		{
			type: 'responseCode',
			properties: {
				value: 401,
				message:
					'The API key was rejected: the service answered 401 "Invalid api key provided.". Check the ' +
					'API key and the API key header.',
			},
		},
		{
			type: 'responseCode',
			properties: {
				value: 404,
				message:
					`The base URL answered 404 to ${API_PREFIX}${PATHS.channelList}. Check the base URL, for ` +
					`example https://api.example.com. If your deployment has no channel list, the key may ` +
					`still be right: save the credential and try an operation.`,
			},
		},
		...redirects,
	];
}

/** In the words of every place that checks it; each credential refusal names its field and a hint. */
export function credentialProblemText(refusal: Refused): string {
	const fix = `Fix the ${refusal.field ?? 'credential'}:${refusal.hint ? ` ${refusal.hint}` : ''}`;
	return `Invalid credential: ${refusal.reason}. ${fix} Nothing was sent.`;
}

/** Whether a saved parameter value holds an expression anywhere ("=…" text, n8n's mark). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value === null || typeof value !== 'object') return false;
	return Object.values(value).some(holdsExpression);
}

/** The saved value at a parameter path such as `options.sendOnceKey`. */
function savedValue(parameters: IDataObject, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.'))
		value = value !== null && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
	return value;
}

/**
 * One execution of an operation, and the one way the node reads its parameters. In a real n8n
 * every read resolves the value through the workflow data proxy and `getNode()` deep-copies the
 * node: the node is copied once, and a value without an expression, the same for every item, is
 * read once.
 */
export class OperationContext {
	private readonly sameForEveryItem = new Map<string, unknown>();

	private savedNode?: INode;

	constructor(readonly functions: IExecuteFunctions) {}

	/** The node as saved, for errors and for telling fixed values from expressions. */
	get node(): INode {
		this.savedNode ??= this.functions.getNode();
		return this.savedNode;
	}

	/** Parameter `name` (a path such as `options.timeout` too) for the item; `fallback` where it is not set. */
	get(name: string, itemIndex: number, fallback?: NodeParameterValueType): unknown {
		const key = `${name}\n${JSON.stringify(fallback) ?? ''}`;
		if (this.sameForEveryItem.has(key)) return this.sameForEveryItem.get(key);
		const value = this.functions.getNodeParameter(name, itemIndex, fallback);
		if (!holdsExpression(savedValue(this.node.parameters, name)))
			this.sameForEveryItem.set(key, value);
		return value;
	}

	/**
	 * The collection `name` as given, for the whole execution (item 0), but for the options in
	 * `perItem`. Each option is read by itself: in a real n8n every expression read costs an
	 * evaluation in its sandbox, and an option read per item would be read here for nothing.
	 */
	collection(name: string, perItem: ReadonlySet<string> = new Set()): IDataObject {
		const saved = this.node.parameters[name] as IDataObject | undefined;
		const collection: IDataObject = {};
		for (const option of Object.keys(saved ?? {})) {
			if (!perItem.has(option))
				collection[option] = this.get(`${name}.${option}`, 0) as IDataObject[string];
		}
		return collection;
	}
}

/** A parameter of the node open in the editor, for its lists and mapper (methods/). */
export function editorParameter(functions: ILoadOptionsFunctions, name: string): unknown {
	return functions.getCurrentNodeParameter(name);
}

/** Whether the item carries n8n binary data: a file an earlier node produced or downloaded. */
export function carriesFile(functions: IExecuteFunctions, itemIndex: number): boolean {
	const binary = functions.getInputData()[itemIndex]?.binary;
	return binary !== undefined && binary !== null && Object.keys(binary).length > 0;
}

/*
 * How this execution runs the node: as a workflow step or as an agent's tool, and whether an
 * answer can reach it.
 */
/**
 * n8n offers a usableAsTool node to agents and the MCP Server Trigger as `<type>Tool`; every agent
 * loop runs it. `node`: the execution's copy where it has one (getNode() deep-copies).
 */
export function runsAsTool(
	functions: IExecuteFunctions,
	node: INode = functions.getNode(),
): boolean {
	return node.type.endsWith('Tool');
}

/**
 * Always in a tool call: a failed tool call would end the agent's execution (AI Agent 3.x) or reach
 * the model without the field it names (AI Agent 2.x, MCP Server Trigger).
 */
export function failuresBecomeItems(functions: IExecuteFunctions, node?: INode): boolean {
	return functions.continueOnFail() || runsAsTool(functions, node);
}

/** Why the person's answer could not reach whoever runs Send and Wait (see `whyNoAnswerCanCome`). */
export type NoAnswerReason = 'toolLoop' | 'cli';

/**
 * Why the execution cannot wait here and hand the answer to whoever called, or undefined where it
 * can. A workflow step in a running n8n can. A tool call can only where n8n's engine runs it as a step of the
 * execution (AI Agent 3 and later, a Human review; n8n-core's requests-response.ts): the engine
 * marks the node `rewireOutputLogTo: ai_tool`, keeps the agent's turn behind it and gives the agent
 * what the node outputs on resuming. An agent or MCP Server Trigger that invokes the tool in its
 * own loop (AI Agent before 3) leaves no mark, and would hand the model a result at once while the
 * execution waits. `n8n execute` (the CLI, execution mode `cli`) prints the execution as it
 * stands once it starts waiting and exits: nothing in that run receives the answer, and the
 * execution is left waiting, without a limit unless one is set. This is the one place that decides.
 */
export function whyNoAnswerCanCome(
	functions: IExecuteFunctions,
	node: INode,
): NoAnswerReason | undefined {
	if (functions.getMode() === 'cli') return 'cli';
	if (runsAsTool(functions, node) && node.rewireOutputLogTo !== NodeConnectionTypes.AiTool)
		return 'toolLoop';
	return undefined;
}
