import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { SendSession } from '../delivery';
import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import { invalidInputError } from '../helpers/errors/run';
import { toServiceString } from '../helpers/values';
import { ANSWER_LINK_VARIABLE, SAVED_LINK_VARIABLE } from '../constants';
import type { OperationContext } from '../helpers/values';
import { languageSetting, linkCodeOf } from '../helpers/pageLanguages';
import {
	LINK_PARAMETER,
	MAX_CUSTOMER_ID_DIGITS,
	MAX_REFERENCE_BYTES,
	linkKey,
	sealLink,
} from './token';
import type { LinkKey, Recipient } from './token';

/*
 * The Answer Link option of Message → Send Text and WhatsApp Template → Send: each item's message
 * carries a link to an Omnichannel Messaging Trigger, sealed for its recipient (token.ts). The
 * send goes out at the broadcast's own pace and nothing waits: the trigger starts one execution
 * per answer. Every input is checked before the item is sent; a problem stops that item only,
 * naming the field, and never quotes the reference or the recipient.
 */

const OPTION = 'answerLink';
const VALUES = `options.${OPTION}.values`;
const DEFAULT_LINK_LABEL = 'Answer here:';
/** A link lives at most a year: long enough for any campaign, short enough to be forgotten. */
const MAX_VALID_MS = 365 * 86_400_000;

const UNIT_MS: Record<string, number> = {
	minutes: 60_000,
	hours: 3_600_000,
	days: 86_400_000,
};

/**
 * The template body variable that receives a link: this option's answer link, or Send and Wait's
 * link to its page, which `opens` names.
 */
export function linkVariableField(opens?: string): INodeProperties {
	const leaveOut = opens === undefined ? 'Leave' : `The link opens ${opens}; leave`;
	return {
		displayName: 'Link Variable',
		name: 'linkVariable',
		type: 'number',
		required: true,
		default: SAVED_LINK_VARIABLE,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'The template body variable that receives the answer link: 3 puts it into {{3}}. ' +
			`${leaveOut} it out of Variables (JSON); Map Each Variable leaves it out itself.`,
	};
}

/**
 * A template's Answer Link comes with an empty Link Variable, so the builder picks the one the
 * link fills: {{1}} is usually a name. The field's default stays 1, which saved Answer Links that
 * left it at 1 hold (n8n leaves a default out of the saved workflow).
 */
const NEW_LINK_VALUES: Record<LinkPlace, IDataObject> = {
	text: {},
	template: { linkVariable: null },
};

/** Where the link goes: under a label at the end of a text, or into a template's variable. */
export type LinkPlace = 'text' | 'template';

const PLACE_FIELDS: Record<LinkPlace, INodeProperties> = {
	text: {
		displayName: 'Link Label',
		name: 'linkLabel',
		type: 'string',
		default: DEFAULT_LINK_LABEL,
		description:
			'The line above the link, at the end of the text. Leave it empty for the link alone.',
	},
	template: linkVariableField(),
};

function linkValues(place: LinkPlace): INodeProperties[] {
	return [
		{
			displayName: 'Trigger URL',
			name: 'triggerUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/4f7c…',
			description:
				'The Production URL of the Omnichannel Messaging Trigger that receives the answers, as its ' +
				'panel shows it. It must use this credential.',
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.appointmentId }}',
			description:
				'What the answer is about, such as a contact or appointment ID, returned with the answer. ' +
				`Up to ${MAX_REFERENCE_BYTES} characters; no one can read it in the link.`,
		},
		{
			displayName: 'Valid for',
			name: 'validFor',
			type: 'number',
			default: 7,
			// Whole units in the editor; a decimal saved before (1.5 days) still lives as long.
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description: 'How long the link can be answered, from when it is sent (up to 365 days)',
		},
		{
			displayName: 'Unit',
			name: 'validForUnit',
			type: 'options',
			default: 'days',
			options: [
				{ name: 'Minutes', value: 'minutes' },
				{ name: 'Hours', value: 'hours' },
				{ name: 'Days', value: 'days' },
			],
			description: 'The unit of Valid for',
		},
		{
			displayName: 'Page Language',
			name: 'pageLanguage',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.contact.locale }}',
			description:
				'The language of the page the link opens, for this recipient: a code such as pt-BR or ' +
				"pt_BR, or a name such as Portuguese; browser for the customer's browser's. Empty or " +
				"not a page language: the trigger's Page Language.",
		},
		PLACE_FIELDS[place],
	];
}

/** The option a send offers in its Options: a link to the trigger, one per item. */
export function answerLinkOption(place: LinkPlace): INodeProperties {
	return {
		displayName: 'Answer Link',
		name: OPTION,
		type: 'fixedCollection',
		description:
			"Whether to add a link to the message where the person answers. Each answer starts the trigger's " +
			'workflow; nothing waits here.',
		default: {
			values: {
				triggerUrl: '',
				reference: '',
				validFor: 7,
				validForUnit: 'days',
				...NEW_LINK_VALUES[place],
			},
		},
		options: [{ displayName: 'Values', name: 'values', values: linkValues(place) }],
	};
}

/** Whether the node's Options hold an Answer Link, as saved: nothing is evaluated to tell. */
export function hasAnswerLink(context: OperationContext): boolean {
	const options = context.node.parameters.options as IDataObject | undefined;
	return typeof options?.[OPTION] === 'object' && options[OPTION] !== null;
}

/** The trigger's URL, without a trailing "/", and its last path segment, or what is wrong with it. */
function triggerOf(raw: unknown): Checked<{ url: string; trigger: string }> {
	const text = toServiceString(raw)?.trim() ?? '';
	if (text === '') return refused("it is empty: copy the trigger's Production URL from its panel");
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return refused(
			"it is not a URL: copy the trigger's Production URL, for example " +
				'https://n8n.example.com/webhook/…',
		);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return refused('it must start with https:// (or http://)');
	if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
		return refused(
			"it has a query, fragment or user name: copy the trigger's Production URL as it is",
		);
	const path = url.pathname.replace(/\/+$/, '');
	if (/\/webhook-(test|waiting)\//.test(`${path}/`))
		return refused(
			"it is a test or waiting URL, which stops answering: use the trigger's Production URL",
		);
	let trigger: string;
	try {
		trigger = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
	} catch {
		return refused("its path is not valid: copy the trigger's Production URL as it is");
	}
	if (trigger === '') return refused("it has no path: copy the trigger's Production URL");
	return accepted({ url: `${url.origin}${path}`, trigger });
}

/** How long the link lives, in ms, or what is wrong with Valid for. */
function lifetimeOf(amount: unknown, unit: unknown): Checked<number> {
	const unitMs = typeof unit === 'string' && Object.hasOwn(UNIT_MS, unit) ? UNIT_MS[unit] : 0;
	if (unitMs === 0) return refused('the unit must be minutes, hours or days');
	const value =
		typeof amount === 'number' ? amount : typeof amount === 'string' ? Number(amount) : NaN;
	if (!Number.isFinite(value) || value <= 0) return refused('it must be a number above 0');
	// A link must live at least a second: its times are whole seconds.
	if (value * unitMs < 1000) return refused('it must be at least a second');
	if (value * unitMs > MAX_VALID_MS) return refused('it must be at most 365 days');
	return accepted(value * unitMs);
}

/** The reference as text, or what is wrong with it: never quoted, as it may be a customer's data. */
function referenceOf(raw: unknown): Checked<string> {
	if (raw === undefined || raw === null || raw === '') return accepted('');
	const text = toServiceString(raw);
	if (text === undefined) return refused('it is not text or a number');
	const bytes = Buffer.byteLength(text, 'utf8');
	if (bytes <= MAX_REFERENCE_BYTES) return accepted(text);
	const wide = bytes === text.length ? '' : ' (letters such as ä or é count as 2)';
	return refused(`it is ${bytes} characters long${wide}: keep it to ${MAX_REFERENCE_BYTES}`);
}

/** The link's recipient as the token packs it; a customer ID must be the service's number. */
function recipientOf(recipient: Recipient): Checked<Recipient> {
	if (!('customerId' in recipient)) return accepted(recipient);
	const digits = recipient.customerId.trim();
	if (/^\d+$/.test(digits) && digits.length <= MAX_CUSTOMER_ID_DIGITS)
		return accepted({ customerId: digits });
	return refused(
		"an answer link names the customer by the service's numeric customer ID (up to " +
			`${MAX_CUSTOMER_ID_DIGITS} digits), and this one is not`,
	);
}

/**
 * The item's answer link, sealed for `recipient` when it is sent (`now`); or the item's error,
 * naming the field. The key is derived once per trigger for the whole execution.
 */
export async function answerLinkFor(
	session: SendSession,
	itemIndex: number,
	recipient: Recipient,
	now: Date = new Date(),
): Promise<string> {
	const { context } = session;
	const stop = (field: string, problem: string) =>
		invalidInputError(context.node, itemIndex, field, problem);
	const target = triggerOf(context.get(`${VALUES}.triggerUrl`, itemIndex, ''));
	if (!target.ok) throw stop('Trigger URL', target.reason);
	const reference = referenceOf(context.get(`${VALUES}.reference`, itemIndex, ''));
	if (!reference.ok) throw stop('Reference', reference.reason);
	const lifetime = lifetimeOf(
		context.get(`${VALUES}.validFor`, itemIndex, 7),
		context.get(`${VALUES}.validForUnit`, itemIndex, 'days'),
	);
	if (!lifetime.ok) throw stop('Valid for', lifetime.reason);
	const sealedFor = recipientOf(recipient);
	if (!sealedFor.ok) throw stop('Customer ID', sealedFor.reason);
	const keys = await session.once('answerLinkKeys', async () => new Map<string, LinkKey>());
	let key = keys.get(target.value.trigger);
	if (!key) {
		const apiKey = (await session.connect()).credentialsDecrypted.data?.apiKey;
		key = linkKey(String(apiKey ?? ''), target.value.trigger);
		keys.set(target.value.trigger, key);
	}
	// Read once per item, and never refused: a language the page lacks is the trigger's.
	const language = linkCodeOf(
		languageSetting(context.get(`${VALUES}.pageLanguage`, itemIndex, '')),
	);
	const facts = {
		recipient: sealedFor.value,
		reference: reference.value,
		sentAt: now,
		expiresAt: new Date(now.getTime() + lifetime.value),
		...(language === undefined ? {} : { language }),
	};
	return `${target.value.url}?${LINK_PARAMETER}=${sealLink(facts, key)}`;
}

/** The text with the link on its own line at the end, under the item's Link Label. */
export function textWithLink(
	context: OperationContext,
	itemIndex: number,
	text: string,
	link: string,
): string {
	const raw = context.get(`${VALUES}.linkLabel`, itemIndex, DEFAULT_LINK_LABEL);
	const label = toServiceString(raw)?.trim() ?? '';
	return `${text.trimEnd()}\n\n${label === '' ? '' : `${label}\n`}${link}`;
}

/** The template variable the link goes into, as given (sendInput.ts checks it). */
export function linkVariableOf(context: OperationContext, itemIndex: number): unknown {
	return context.get(ANSWER_LINK_VARIABLE, itemIndex, SAVED_LINK_VARIABLE);
}
