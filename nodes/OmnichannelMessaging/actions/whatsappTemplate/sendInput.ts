import type { IDataObject, INode } from 'n8n-workflow';

import { carriesFile, checkMediaUrl } from '../../helpers/values';
import type { OperationContext } from '../../helpers/values';
import { FILE_UPLOAD_ADVICE, invalidInputError } from '../../helpers/errors/run';
import { templateLoadError } from '../../helpers/errors/service';
import { templateForSends, forgetTemplate } from '../../delivery';
import type { SendSession, TemplateCopy, PrepareSend } from '../../delivery';
import {
	isHeaderMediaType,
	positionKey,
	templateHeaderType,
	normalizeVariables,
	parseVariablesJson,
	checkAgainstTemplate,
	renderTemplate,
} from '../../helpers/template';
import type { HeaderMediaType, WhatsAppTemplate } from '../../helpers/template';
import { refused } from '../../helpers/checked';
import type { Checked } from '../../helpers/checked';
import { normalizePhone } from '../../helpers/phone/phone';
import type { Country } from '../../helpers/phone/phone';
import { countryForItem, countryIsSet, defaultCountryChoice } from './sendFields';
import type { CountryChoice } from './sendFields';
import { channelIdFrom, templateIdFrom } from '../common.descriptions';
import { PATHS } from '../../constants';

/** What a template send's item reads besides its template: the variables and the header media. */
export interface HeaderMedia {
	url: string | undefined;
	type: HeaderMediaType | 'auto';
}

/** Whether the item's variables come as JSON, else from Map Each Variable. */
function variablesInJson(context: OperationContext, itemIndex: number): boolean {
	return context.get('variablesMode', itemIndex, 'mapper') === 'json';
}

function readRawVariables(context: OperationContext, itemIndex: number, json: boolean): unknown {
	if (!json) return (context.get('variables', itemIndex, null) as IDataObject | null)?.value ?? {};
	const parsed = parseVariablesJson(context.get('variablesJson', itemIndex, '{}'));
	if (!parsed.ok)
		throw invalidInputError(context.node, itemIndex, 'Variables (JSON)', parsed.reason);
	return parsed.value;
}

/** The positions the mapper shows, as saved with the node: the fields a builder did not remove. */
function mapperPositions(context: OperationContext, itemIndex: number): string[] {
	const schema = (context.get('variables', itemIndex, null) as IDataObject | null)?.schema;
	if (!Array.isArray(schema)) return [];
	return schema
		.filter((field: IDataObject | null) => field?.removed !== true)
		.map((field: IDataObject | null) => positionKey(field?.id))
		.filter((position): position is string => position !== undefined);
}

/** An item's variables as mapped, and the positions it left empty. */
export interface MappedVariables {
	values: Record<string, string>;
	empty: string[];
	field: string;
}

/**
 * The item's variables as the service takes them. The mapper leaves a field left empty out of
 * its value: it is as empty as a value of "" (sent as one with Allow Empty Variables).
 */
export function readVariables(
	context: OperationContext,
	itemIndex: number,
	allowEmpty: boolean,
): MappedVariables {
	const json = variablesInJson(context, itemIndex);
	const field = json ? 'Variables (JSON)' : 'Variables';
	const empty: string[] = [];
	const checked = normalizeVariables(
		readRawVariables(context, itemIndex, json),
		allowEmpty,
		(position) => empty.push(position),
	);
	if (!checked.ok) throw invalidInputError(context.node, itemIndex, field, checked.reason);
	const values = checked.value;
	for (const position of json ? [] : mapperPositions(context, itemIndex)) {
		if (position in values) continue;
		if (allowEmpty) values[position] = '';
		else empty.push(position);
	}
	return { values, empty, field };
}

/** Without the template check nothing else notices a value left empty (`values`: with the link's). */
function reportEmpty(
	context: OperationContext,
	itemIndex: number,
	mapped: MappedVariables,
	values: Record<string, string>,
): void {
	const missing = [...new Set(mapped.empty)].filter((position) => !(position in values));
	if (missing.length === 0) return;
	const gaps = missing
		.sort((a, b) => Number(a) - Number(b))
		.map((position) => `{{${position}}}`)
		.join(', ');
	throw invalidInputError(
		context.node,
		itemIndex,
		mapped.field,
		`${gaps} has no value: map a value to it, or turn on Allow Empty Variables`,
	);
}

export function readHeaderMedia(context: OperationContext, itemIndex: number): HeaderMedia {
	const rawUrl = context.get('headerMediaUrl', itemIndex, '');
	const rawType = context.get('headerMediaType', itemIndex, 'auto');
	if (rawType !== 'auto' && !isHeaderMediaType(rawType)) {
		const problem = `${JSON.stringify(rawType)} is not one of auto, image, audio, video, document`;
		throw invalidInputError(context.node, itemIndex, 'Header Media Type', problem);
	}
	if (rawUrl === '' || rawUrl === undefined || rawUrl === null)
		return { url: undefined, type: rawType };
	const url = checkMediaUrl(rawUrl);
	if (!url.ok) throw invalidInputError(context.node, itemIndex, 'Header Media URL', url.reason);
	return { url: url.value, type: rawType };
}

/** The header's media key: the chosen type, or the template's own header type. */
export function headerMediaKey(
	context: OperationContext,
	itemIndex: number,
	media: HeaderMedia,
	template: WhatsAppTemplate | undefined,
): HeaderMediaType {
	if (media.type !== 'auto') return media.type;
	const headerType = template ? templateHeaderType(template) : undefined;
	if (isHeaderMediaType(headerType)) return headerType;
	throw invalidInputError(
		context.node,
		itemIndex,
		'Header Media Type',
		`the template's header is ${headerType ? `"${headerType}"` : 'missing'}, so the media type cannot be taken from it`,
		'Choose the media type (Image, Video, Audio or Document) or clear the header media URL.',
	);
}

/** Where an item's template is: channel and template, and the item, for its errors. */
export interface TemplateItem {
	channelId: number;
	templateId: number;
	itemIndex: number;
}

/** One execution's copy of a template, and the one read again if the copy held from before stops an item. */
interface ExecutionTemplate {
	copy: TemplateCopy;
	reread?: Promise<TemplateCopy>;
}

/** A read of the template fails as the item's error, naming the template and the channel. */
async function loading<T>(
	loads: SendSession,
	where: TemplateItem,
	load: () => Promise<T>,
): Promise<T> {
	try {
		return await load();
	} catch (error) {
		throw templateLoadError(loads.context.node, error, where);
	}
}

/**
 * The template with the item checked against it, loaded once per execution however many items
 * use it, and shared between executions (delivery/templateCache.ts). A copy the process held from before
 * is read again (once per execution) before it stops an item: an item is never stopped for a
 * template that has since changed.
 */
export async function checkedTemplate(
	loads: SendSession,
	where: TemplateItem,
	check: ((template: WhatsAppTemplate) => Checked<true>) | undefined,
): Promise<WhatsAppTemplate> {
	const place = { channelId: where.channelId, templateId: where.templateId };
	const read = async (fresh: boolean) =>
		await templateForSends.call(loads.functions, await loads.connect(), place, fresh);
	const key = `template:${place.channelId}:${place.templateId}`;
	const entry = await loading(
		loads,
		where,
		async () => await loads.once<ExecutionTemplate>(key, async () => ({ copy: await read(false) })),
	);
	let { copy } = entry;
	if (check && copy.held && !check(copy.template).ok)
		copy = await loading(loads, where, async () => await (entry.reread ??= read(true)));
	const checked = check?.(copy.template);
	if (checked && !checked.ok) {
		// Every template refusal names its field (helpers/template.ts, checkAgainstTemplate).
		const field = checked.field ?? 'Template';
		const { node } = loads.context;
		throw invalidInputError(node, where.itemIndex, field, checked.reason, checked.hint);
	}
	return copy.template;
}

/** The template send's own options; the shared ones are read by the send pipeline. */
export interface TemplateOptions {
	validateTemplate: boolean;
	includeRenderedMessage: boolean;
	allowEmptyVariables: boolean;
	defaultCountry: CountryChoice;
}

export function readPhone(
	context: OperationContext,
	itemIndex: number,
	country: () => Country | undefined,
): string {
	const rawPhone = context.get('customerPhone', itemIndex, '');
	const phone = normalizePhone(rawPhone, country);
	if (!phone.ok) {
		throw invalidInputError(
			context.node,
			itemIndex,
			'Customer Phone',
			rawPhone === undefined || rawPhone === null
				? 'it is empty: give the number with country code, for example +4915123456789'
				: `${JSON.stringify(rawPhone)} is not a valid phone number: ${phone.reason}`,
		);
	}
	return phone.value;
}

/** A header that needs media, with no URL but a file on the item: say that a public link is needed. */
function fileForHeader(checked: Checked<true>, itemCarriesFile: boolean): Checked<true> {
	if (checked.ok || !itemCarriesFile || checked.field !== 'Header Media URL') return checked;
	return refused(
		`${checked.reason}. The item carries a file (binary data), but the service takes a ` +
			'public link to the file, not the file itself',
		checked.field,
		FILE_UPLOAD_ADVICE,
	);
}

/**
 * The item's template, read only when something needs it: the check against it, the rendered
 * message, a dry run, or a header media URL whose type comes from the template.
 */
export async function templateIfNeeded(
	session: SendSession,
	where: TemplateItem,
	options: Pick<TemplateOptions, 'validateTemplate' | 'includeRenderedMessage'>,
	input: { values: Record<string, string>; media: HeaderMedia },
): Promise<WhatsAppTemplate | undefined> {
	const { values, media } = input;
	const needsTemplate =
		options.validateTemplate ||
		options.includeRenderedMessage ||
		session.options.dryRun ||
		(media.url !== undefined && media.type === 'auto');
	if (!needsTemplate) return undefined;
	const file = media.url === undefined && carriesFile(session.functions, where.itemIndex);
	const check = options.validateTemplate
		? (template: WhatsAppTemplate) =>
				fileForHeader(checkAgainstTemplate(template, values, media.url, media.type), file)
		: undefined;
	return await checkedTemplate(session, where, check);
}

/**
 * Variables an operation adds to the ones the item maps (Send and Wait, and Send's Answer Link:
 * the link), knowing the number the item is sent to.
 */
export type AddVariables = (
	itemIndex: number,
	session: SendSession,
	values: Record<string, string>,
	phone: string,
) => Record<string, string> | Promise<Record<string, string>>;

/** The Link Variable's name, in the errors about it. */
const LINK_FIELD = 'Link Variable';

/**
 * The item's variables with `link` in the one at `rawPosition` (Link Variable): an empty or
 * non-numeric position, or a value the item's JSON gives there too, is a mistake to name, not to
 * guess at. Map Each Variable leaves that variable out; a value saved there before it did is not
 * shown any more, so the link takes its place.
 */
export function withLinkVariable(
	context: OperationContext,
	itemIndex: number,
	values: Record<string, string>,
	rawPosition: unknown,
	link: string,
): Record<string, string> {
	const stop = (field: string, problem: string) =>
		invalidInputError(context.node, itemIndex, field, problem);
	if (rawPosition === undefined || rawPosition === null || rawPosition === '')
		throw stop(LINK_FIELD, 'it is empty: give the variable the link goes into, 3 for {{3}}');
	const position = positionKey(rawPosition);
	if (position === undefined)
		throw stop(
			LINK_FIELD,
			`${JSON.stringify(rawPosition)} is not a variable position: use 2 for {{2}}`,
		);
	if (values[position]?.trim() && variablesInJson(context, itemIndex))
		throw stop(
			'Variables (JSON)',
			`{{${position}}} receives the answer link (${LINK_FIELD}): leave it empty`,
		);
	return { ...values, [position]: link };
}

function readTemplateOptions(node: INode, raw: IDataObject): TemplateOptions {
	return {
		validateTemplate: raw.validateTemplate !== false,
		includeRenderedMessage: raw.includeRenderedMessage === true,
		allowEmptyVariables: raw.allowEmptyVariables === true,
		defaultCountry: defaultCountryChoice(node),
	};
}

/** The service's request body for one template message, header media aside. */
function templateBody(
	to: { channelId: number; templateId: number; phone: string },
	values: Record<string, string>,
): IDataObject {
	const body: IDataObject = {
		template_id: String(to.templateId),
		channel_id: String(to.channelId),
		customer_phone: to.phone,
	};
	if (Object.keys(values).length > 0) body.attributes = values;
	return body;
}

/** What one item of a template send reads: where it goes, its variables and its header media. */
interface TemplateItemInput {
	channelId: number;
	templateId: number;
	phone: string;
	values: Record<string, string>;
	media: HeaderMedia;
}

async function readTemplateItem(
	itemIndex: number,
	session: SendSession,
	options: TemplateOptions,
	addVariables: AddVariables | undefined,
): Promise<TemplateItemInput> {
	const context = session.context;
	const channelId = channelIdFrom(context.get('channelId', itemIndex), context.node, itemIndex);
	const templateId = templateIdFrom(context.get('templateId', itemIndex), context.node, itemIndex);
	const phone = readPhone(context, itemIndex, () =>
		countryForItem(context, itemIndex, options.defaultCountry),
	);
	const mapped = readVariables(context, itemIndex, options.allowEmptyVariables);
	const values = addVariables
		? await addVariables(itemIndex, session, mapped.values, phone)
		: mapped.values;
	if (!options.validateTemplate) reportEmpty(context, itemIndex, mapped, values);
	return { channelId, templateId, phone, values, media: readHeaderMedia(context, itemIndex) };
}

/**
 * One item becomes one template message, checked against its template unless that is off.
 * `addVariables` fills variables of the operation's own before the check.
 */
export function prepareTemplateSend(addVariables?: AddVariables): PrepareSend {
	return async function prepareSendTemplate(itemIndex, session) {
		const options = await session.once('templateOptions', async () =>
			readTemplateOptions(session.context.node, session.options.collection),
		);
		const item = await readTemplateItem(itemIndex, session, options, addVariables);
		const { channelId, templateId, phone, values, media } = item;
		const where = { channelId, templateId, itemIndex };
		const template = await templateIfNeeded(session, where, options, { values, media });
		const body = templateBody({ channelId, templateId, phone }, values);
		if (media.url) {
			const key = headerMediaKey(session.context, itemIndex, media, template);
			body.attachment = { [key]: media.url };
		}
		const connection = await session.connect();
		return {
			method: 'POST',
			path: PATHS.sendTemplate,
			body,
			// With a Default Country the number sent may differ from the one typed: the rendered message names it.
			rendered: template && {
				...renderTemplate(template, values, media.url),
				...(countryIsSet(options.defaultCountry) ? { to: phone } : {}),
			},
			outputRendered: options.includeRenderedMessage,
			onRefused: () => forgetTemplate(connection, { channelId, templateId }),
		};
	};
}
