import type { IDataObject, INode } from 'n8n-workflow';

import { channelIdFrom, templateIdFrom } from '../common.descriptions';
import { PATHS } from '../../constants';
import { forgetTemplate } from '../../delivery';
import type { PrepareSend, SendSession } from '../../delivery';
import { renderTemplate } from '../../helpers/template/placeholders';
import { countryForItem, countryIsSet, defaultCountryChoice } from './countryField';
import {
	headerMediaKey,
	readHeaderMedia,
	readPhone,
	readVariables,
	templateIfNeeded,
} from './sendInput';
import type { HeaderMedia, TemplateOptions } from './sendInput';

/** Variables an operation adds to the ones the item maps (Send and Wait: the answer link). */
export type AddVariables = (
	itemIndex: number,
	session: SendSession,
	values: Record<string, string>,
) => Record<string, string>;

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

function readTemplateItem(
	itemIndex: number,
	session: SendSession,
	options: TemplateOptions,
	addVariables: AddVariables | undefined,
): TemplateItemInput {
	const context = session.context;
	const channelId = channelIdFrom(context.get('channelId', itemIndex), context.node, itemIndex);
	const templateId = templateIdFrom(context.get('templateId', itemIndex), context.node, itemIndex);
	const phone = readPhone(context, itemIndex, () =>
		countryForItem(context, itemIndex, options.defaultCountry),
	);
	const mapped = readVariables(context, itemIndex, {
		allowEmpty: options.allowEmptyVariables,
		reportEmpty: !options.validateTemplate && !options.allowEmptyVariables,
	});
	const values = addVariables ? addVariables(itemIndex, session, mapped) : mapped;
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
		const item = readTemplateItem(itemIndex, session, options, addVariables);
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
