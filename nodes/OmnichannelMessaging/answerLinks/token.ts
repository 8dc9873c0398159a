import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The answer link's token: who was asked (a customer ID or a phone number), the builder's
 * reference, when it was sent and until when it may be answered, encrypted and authenticated
 * with AES-256-GCM under a key derived (HKDF-SHA256) from the credential's API key. Nothing is
 * stored per recipient: the link itself carries what the answer needs, readable only by a trigger
 * whose credential has the same API key, and answerable only at the trigger it was sent for.
 *
 * A person reads the link, so it is packed tight: digits as BCD, times as whole seconds (uint32),
 * the reference as its UTF-8 bytes, the version byte outside the ciphertext; base64url. With a
 * 64-character reference and a 15-digit phone number it is 147 characters, 150 with `?a=`; with
 * the longest customer ID taken (30 digits), 159.
 *
 * Layout: version (1) | IV (12) | ciphertext | tag (16). Plaintext: sentAt (4) | expiresAt (4) |
 * recipient header (1: bit 7 customer ID, bits 0–5 the digit count) | BCD digits | reference.
 * The additional authenticated data is the version byte and the trigger's path segment, so that
 * a link answers the trigger it was sent for and no other trigger of the same credential.
 */

/** The query parameter that carries the token after the trigger's URL. */
export const LINK_PARAMETER = 'a';

/** The reference's limit, in UTF-8 bytes: 64 characters of ASCII. */
export const MAX_REFERENCE_BYTES = 64;

/** E.164 numbers have at most 15 digits; the service's customer IDs are integers. */
export const MAX_PHONE_DIGITS = 15;
export const MAX_CUSTOMER_ID_DIGITS = 30;

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FIXED_BYTES = 9;
/** A token longer than any this code writes is refused before any work is done for it. */
const MAX_TOKEN_CHARACTERS = 200;
const CUSTOMER_BIT = 0x80;
const SALT = 'n8n-nodes-omnichannel-messaging answer link';
/** The most seconds uint32 holds: links expire by 2106. */
const MAX_SECONDS = 0xffffffff;

/** Who the link was sent to: the customer of a text message, or the phone of a template. */
export type Recipient = { customerId: string } | { phone: string };

/** What a link says, sealed in its token. Times are whole seconds. */
export interface LinkFacts {
	recipient: Recipient;
	reference: string;
	sentAt: Date;
	expiresAt: Date;
}

/** The key of one credential and one trigger, derived once for many links. */
export interface LinkKey {
	key: Buffer;
	aad: Buffer;
}

/** A token read back: its facts and a key that is the same for every answer through it, or why not. */
export type ReadLink =
	| { ok: true; facts: LinkFacts; answerKey: string }
	| { ok: false; reason: 'invalid' | 'expired' };

/**
 * The key for links to the trigger whose path ends with `trigger` (its last segment), under
 * the credential's API key. HKDF turns the API key, which the service also knows, into a key
 * used for nothing else.
 */
export function linkKey(apiKey: string, trigger: string): LinkKey {
	const info = `answer link v${VERSION}`;
	const key = Buffer.from(hkdfSync('sha256', Buffer.from(apiKey, 'utf8'), SALT, info, 32));
	return { key, aad: Buffer.concat([Buffer.from([VERSION]), Buffer.from(trigger, 'utf8')]) };
}

/** Digits two to a byte, high nibble first; an odd count ends with the nibble F. */
function packDigits(digits: string): Buffer {
	const packed = Buffer.alloc(Math.ceil(digits.length / 2), 0xff);
	for (let index = 0; index < digits.length; index++) {
		const digit = digits.charCodeAt(index) - 48;
		const byte = index >> 1;
		packed[byte] = index % 2 === 0 ? (digit << 4) | 0x0f : (packed[byte] & 0xf0) | digit;
	}
	return packed;
}

function unpackDigits(packed: Buffer, count: number): string | undefined {
	let digits = '';
	for (let index = 0; index < count; index++) {
		const byte = packed[index >> 1];
		const digit = index % 2 === 0 ? byte >> 4 : byte & 0x0f;
		if (digit > 9) return undefined;
		digits += String(digit);
	}
	return digits;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The recipient's header byte and digits. The sends check their input before they seal it (and
 * name the field); this throw is the contract they check against, never a person's input.
 */
function recipientBytes(recipient: Recipient): Buffer {
	const customer = 'customerId' in recipient;
	const digits = customer ? recipient.customerId : recipient.phone.replace(/^\+/, '');
	const max = customer ? MAX_CUSTOMER_ID_DIGITS : MAX_PHONE_DIGITS;
	if (!/^\d+$/.test(digits) || digits.length > max)
		throw new RangeError(`a recipient of 1 to ${max} digits is packed, not this one`);
	const header = (customer ? CUSTOMER_BIT : 0) | digits.length;
	return Buffer.concat([Buffer.from([header]), packDigits(digits)]);
}

/** The token of one link: random IV, so that two links never share a token. */
export function sealLink(facts: LinkFacts, { key, aad }: LinkKey): string {
	const reference = Buffer.from(facts.reference, 'utf8');
	if (reference.length > MAX_REFERENCE_BYTES)
		throw new RangeError(`a reference of up to ${MAX_REFERENCE_BYTES} bytes is sealed`);
	const times = Buffer.alloc(8);
	const [sentAt, expiresAt] = [seconds(facts.sentAt), Math.ceil(facts.expiresAt.getTime() / 1000)];
	if (!(sentAt >= 0 && expiresAt > sentAt && expiresAt <= MAX_SECONDS))
		throw new RangeError('the link must expire after it was sent, and before 2106');
	times.writeUInt32BE(sentAt, 0);
	times.writeUInt32BE(expiresAt, 4);
	const plain = Buffer.concat([times, recipientBytes(facts.recipient), reference]);
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
	cipher.setAAD(aad);
	const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
	return Buffer.concat([Buffer.from([VERSION]), iv, sealed]).toString('base64url');
}

/**
 * The token's bytes, or undefined for anything but canonical base64url: Node's decoder skips
 * characters it does not know and ignores a last character's spare bits, so that a changed
 * character could otherwise decode to the same bytes.
 */
function tokenBytes(token: unknown): Buffer | undefined {
	if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARACTERS) return undefined;
	if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
	const bytes = Buffer.from(token, 'base64url');
	return bytes.toString('base64url') === token ? bytes : undefined;
}

function openBytes(bytes: Buffer, { key, aad }: LinkKey): Buffer | undefined {
	if (bytes.length < 1 + IV_BYTES + FIXED_BYTES + 1 + TAG_BYTES || bytes[0] !== VERSION)
		return undefined;
	const iv = bytes.subarray(1, 1 + IV_BYTES);
	const tag = bytes.subarray(bytes.length - TAG_BYTES);
	const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
	decipher.setAAD(aad);
	decipher.setAuthTag(tag);
	try {
		return Buffer.concat([
			decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
			decipher.final(),
		]);
	} catch {
		// A tag that does not match: the link was changed, or sealed under another key or trigger.
		return undefined;
	}
}

/** The plaintext's facts; undefined for a layout this version does not write. */
function readFacts(plain: Buffer): LinkFacts | undefined {
	const header = plain[8];
	const count = header & 0x3f;
	const customer = (header & CUSTOMER_BIT) !== 0;
	const packedLength = Math.ceil(count / 2);
	if (count === 0 || plain.length < FIXED_BYTES + packedLength) return undefined;
	const digits = unpackDigits(plain.subarray(FIXED_BYTES, FIXED_BYTES + packedLength), count);
	if (digits === undefined) return undefined;
	return {
		recipient: customer ? { customerId: digits } : { phone: `+${digits}` },
		reference: plain.subarray(FIXED_BYTES + packedLength).toString('utf8'),
		sentAt: new Date(plain.readUInt32BE(0) * 1000),
		expiresAt: new Date(plain.readUInt32BE(4) * 1000),
	};
}

/**
 * A token read at `now`: its facts, or why it is refused. A token that does not open says
 * nothing of why (changed, cut short, another credential or trigger): they are one refusal. A
 * link expires at its second: an answer then is too late.
 */
export function openLink(token: unknown, linkKeyOf: LinkKey, now: Date): ReadLink {
	const bytes = tokenBytes(token);
	const plain = bytes && openBytes(bytes, linkKeyOf);
	const facts = plain && readFacts(plain);
	if (!bytes || !facts) return { ok: false, reason: 'invalid' };
	if (now.getTime() >= facts.expiresAt.getTime()) return { ok: false, reason: 'expired' };
	// The tag is fixed by the whole token, which only the key's holder can make: one per link.
	const answerKey = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
	return { ok: true, facts, answerKey };
}

/** How long a trigger keeps a credential's derived key after reading the credential. */
export const LINK_KEY_KEPT_MS = 60_000;

/** The most keys kept at once: one per credential and trigger in use. */
const MOST_KEPT_KEYS = 1000;

/**
 * The derived keys a process's triggers use, by credential ID and trigger, each kept for a
 * minute after it was read: reading the credential costs n8n a database read, a decryption and
 * an expression sandbox on every answer, which made answering half again as costly as n8n's Form
 * Trigger. Only derived keys are kept, never an API key. Time is given on every call.
 */
export class LinkKeys {
	private readonly kept = new Map<string, { key: LinkKey; until: number }>();

	constructor(
		private readonly keptMs = LINK_KEY_KEPT_MS,
		private readonly most = MOST_KEPT_KEYS,
	) {}

	get(credential: string, trigger: string, now: Date): LinkKey | undefined {
		const id = `${credential} ${trigger}`;
		const entry = this.kept.get(id);
		if (entry && entry.until > now.getTime()) return entry.key;
		this.kept.delete(id);
		return undefined;
	}

	keep(credential: string, trigger: string, key: LinkKey, now: Date): void {
		const id = `${credential} ${trigger}`;
		this.kept.delete(id);
		this.kept.set(id, { key, until: now.getTime() + this.keptMs });
		// The oldest entry goes first: a Map keeps the order of insertion.
		if (this.kept.size > this.most) this.kept.delete(this.kept.keys().next().value as string);
	}
}

/** Where a trigger's key comes from: its credential's ID, its path's last segment, the API key. */
export interface LinkKeySource {
	credential: string | undefined;
	trigger: string;
	readApiKey: () => Promise<string | undefined>;
}

/**
 * Opens `token` at `now` with the key kept for the source, or, when none is kept or the kept one
 * does not open it, with the key of the credential read now: a changed API key applies to the
 * next answer, and a link sealed under the replaced key opens at most a minute longer. Undefined
 * when the credential cannot be read.
 */
export async function openWithKeptKey(
	token: unknown,
	source: LinkKeySource,
	keys: LinkKeys,
	now: Date,
): Promise<ReadLink | undefined> {
	const { credential, trigger } = source;
	const kept = credential === undefined ? undefined : keys.get(credential, trigger, now);
	const first = kept && openLink(token, kept, now);
	// An expired link opened: the kept key is the credential's.
	if (first && (first.ok || first.reason === 'expired')) return first;
	const apiKey = await source.readApiKey();
	if (apiKey === undefined || apiKey === '') return undefined;
	const key = linkKey(apiKey, trigger);
	if (credential !== undefined) keys.keep(credential, trigger, key, now);
	if (first && kept.key.equals(key.key)) return first;
	return openLink(token, key, now);
}
