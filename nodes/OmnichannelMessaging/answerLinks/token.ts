import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The answer link's token: who was asked (a customer ID or a phone number), the builder's
 * reference, the page's language, when it was sent and until when it may be answered, encrypted
 * and authenticated with AES-256-GCM under a key derived (HKDF-SHA256) from the credential's API
 * key. Nothing is stored per recipient: the link itself carries what the answer needs, readable
 * only by a trigger whose credential has the same API key, and answerable only at the trigger it
 * was sent for.
 *
 * A person reads the link, so it is packed tight: the recipient's digits as one binary integer,
 * times as whole seconds (uint32), the reference as its UTF-8 bytes, the version byte outside the
 * ciphertext; base64url. With a 64-character reference and a 15-digit phone number the token is
 * 147 characters, 150 with `?a=`; with the longest customer ID taken (30 digits), 155 and 158
 * (test/unit/answerLinks/token.test.ts measures both).
 *
 * Layout: version (1) | IV (12) | ciphertext | tag (16). Version 2's plaintext: sentAt (4) |
 * expiresAt (4) | recipient header (1: bit 7 customer ID, bits 0–5 the digit count) | language (1)
 * | the digits as a big-endian integer in the fewest bytes that hold every number of that many
 * digits | reference. Version 1 (the links of 0.2.0) had no language byte and packed the digits
 * as BCD; its tokens still open. The additional authenticated data is the token's version byte
 * and the trigger's path segment, so that a link answers the trigger it was sent for and no
 * other trigger of the same credential.
 */

/** The query parameter that carries the token after the trigger's URL. */
export const LINK_PARAMETER = 'a';

/** The reference's limit, in UTF-8 bytes: 64 characters of ASCII. */
export const MAX_REFERENCE_BYTES = 64;

/** E.164 numbers have at most 15 digits; the service's customer IDs are integers. */
export const MAX_PHONE_DIGITS = 15;
export const MAX_CUSTOMER_ID_DIGITS = 30;

const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CUSTOMER_BIT = 0x80;
const SALT = 'n8n-nodes-omnichannel-messaging answer link';
/** Both versions use the key named for the first: a link's key does not change with its layout. */
const KEY_INFO = 'answer link v1';
/** The most seconds uint32 holds: links expire by 2106. */
const MAX_SECONDS = 0xffffffff;

/** Who the link was sent to: the customer of a text message, or the phone of a template. */
export type Recipient = { customerId: string } | { phone: string };

/**
 * What a link says, sealed in its token. Times are whole seconds. `language` is the byte the
 * sends chose (a language's link code, 1–254, or 255 for the customer's browser), which the
 * token only carries; absent for the trigger's own language, and in version 1 tokens.
 */
export interface LinkFacts {
	recipient: Recipient;
	reference: string;
	sentAt: Date;
	expiresAt: Date;
	language?: number;
}

/** The key of one credential and one trigger, derived once for many links. */
export interface LinkKey {
	key: Buffer;
	/** The trigger's path segment, which every token's additional data ends with. */
	trigger: Buffer;
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
	const key = Buffer.from(hkdfSync('sha256', Buffer.from(apiKey, 'utf8'), SALT, KEY_INFO, 32));
	return { key, trigger: Buffer.from(trigger, 'utf8') };
}

const aadOf = (version: number, { trigger }: LinkKey) =>
	Buffer.concat([Buffer.from([version]), trigger]);

/** How one version lays its plaintext out: where the digits start and how they are packed. */
interface Layout {
	digitsAt: number;
	digitBytes: (count: number) => number;
	unpack: (packed: Buffer, count: number) => string | undefined;
}

/** Version 1's digits: two to a byte, high nibble first; an odd count ends with the nibble F. */
function unpackBcd(packed: Buffer, count: number): string | undefined {
	let digits = '';
	for (let index = 0; index < count; index++) {
		const byte = packed[index >> 1];
		const digit = index % 2 === 0 ? byte >> 4 : byte & 0x0f;
		if (digit > 9) return undefined;
		digits += String(digit);
	}
	return digits;
}

/** The fewest bytes that hold every number of `count` digits: the least n with 256^n ≥ 10^count. */
function binaryBytes(count: number): number {
	const needed = 10n ** BigInt(count);
	let bytes = 0;
	for (let room = 1n; room < needed; room *= 256n) bytes++;
	return bytes;
}

/** Version 2's digits: one big-endian integer; the count in the header keeps leading zeros. */
function packBinary(digits: string): Buffer {
	const hex = BigInt(digits).toString(16);
	return Buffer.from(hex.padStart(binaryBytes(digits.length) * 2, '0'), 'hex');
}

function unpackBinary(packed: Buffer, count: number): string | undefined {
	const digits = BigInt(`0x${packed.toString('hex')}`).toString();
	return digits.length > count ? undefined : digits.padStart(count, '0');
}

const LAYOUTS: Record<number, Layout> = {
	1: { digitsAt: 9, digitBytes: (count) => Math.ceil(count / 2), unpack: unpackBcd },
	2: { digitsAt: 10, digitBytes: binaryBytes, unpack: unpackBinary },
};

/** The byte lengths a version's tokens can have: one digit and no reference, to the longest. */
function byteRange({ digitsAt, digitBytes }: Layout): [number, number] {
	const around = 1 + IV_BYTES + digitsAt + TAG_BYTES;
	const mostDigits = Math.max(digitBytes(MAX_PHONE_DIGITS), digitBytes(MAX_CUSTOMER_ID_DIGITS));
	return [around + digitBytes(1), around + mostDigits + MAX_REFERENCE_BYTES];
}

const BYTE_RANGES = new Map([1, 2].map((version) => [version, byteRange(LAYOUTS[version])]));
/** The longest token either version writes, in characters: a longer one is not even decoded. */
const MAX_TOKEN_CHARACTERS = Math.ceil(
	(Math.max(...[...BYTE_RANGES.values()].map(([, most]) => most)) * 4) / 3,
);

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The plaintext from the recipient header on: header, language and digits. The sends check their
 * input before they seal it (and name the field); these throws are the contract they check
 * against, never a person's input.
 */
function recipientBytes(recipient: Recipient, language = 0): Buffer {
	const customer = 'customerId' in recipient;
	const digits = customer ? recipient.customerId : recipient.phone.replace(/^\+/, '');
	const max = customer ? MAX_CUSTOMER_ID_DIGITS : MAX_PHONE_DIGITS;
	if (!/^\d+$/.test(digits) || digits.length > max)
		throw new RangeError(`a recipient of 1 to ${max} digits is packed, not this one`);
	if (!Number.isInteger(language) || language < 0 || language > 255)
		throw new RangeError('a language byte of 0 to 255 is sealed');
	const header = (customer ? CUSTOMER_BIT : 0) | digits.length;
	return Buffer.concat([Buffer.from([header, language]), packBinary(digits)]);
}

/** The token of one link: random IV, so that two links never share a token. */
export function sealLink(facts: LinkFacts, linkKeyOf: LinkKey): string {
	const reference = Buffer.from(facts.reference, 'utf8');
	if (reference.length > MAX_REFERENCE_BYTES)
		throw new RangeError(`a reference of up to ${MAX_REFERENCE_BYTES} bytes is sealed`);
	const times = Buffer.alloc(8);
	const [sentAt, expiresAt] = [seconds(facts.sentAt), Math.ceil(facts.expiresAt.getTime() / 1000)];
	if (!(sentAt >= 0 && expiresAt > sentAt && expiresAt <= MAX_SECONDS))
		throw new RangeError('the link must expire after it was sent, and before 2106');
	times.writeUInt32BE(sentAt, 0);
	times.writeUInt32BE(expiresAt, 4);
	const plain = Buffer.concat([times, recipientBytes(facts.recipient, facts.language), reference]);
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', linkKeyOf.key, iv, { authTagLength: TAG_BYTES });
	cipher.setAAD(aadOf(VERSION, linkKeyOf));
	const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
	return Buffer.concat([Buffer.from([VERSION]), iv, sealed]).toString('base64url');
}

/**
 * The token's bytes, or undefined for anything but canonical base64url of a version and a length
 * this code writes: Node's decoder skips characters it does not know and ignores a last
 * character's spare bits, so that a changed character could otherwise decode to the same bytes.
 * It costs no key: junk is refused before the credential is read.
 */
function tokenBytes(token: unknown): Buffer | undefined {
	if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARACTERS) return undefined;
	if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
	const bytes = Buffer.from(token, 'base64url');
	const range = BYTE_RANGES.get(bytes[0]);
	if (!range || bytes.length < range[0] || bytes.length > range[1]) return undefined;
	return bytes.toString('base64url') === token ? bytes : undefined;
}

/** Whether `token` could be a link's: its shape only, read without any key. */
export const isWellFormedToken = (token: unknown): boolean => tokenBytes(token) !== undefined;

function openBytes(bytes: Buffer, linkKeyOf: LinkKey): Buffer | undefined {
	const iv = bytes.subarray(1, 1 + IV_BYTES);
	const tag = bytes.subarray(bytes.length - TAG_BYTES);
	const decipher = createDecipheriv('aes-256-gcm', linkKeyOf.key, iv, {
		authTagLength: TAG_BYTES,
	});
	decipher.setAAD(aadOf(bytes[0], linkKeyOf));
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

/** The plaintext's facts, as its version lays them out; undefined for a layout it does not write. */
function readFacts(version: number, plain: Buffer): LinkFacts | undefined {
	const { digitsAt, digitBytes, unpack } = LAYOUTS[version];
	const header = plain[8];
	const count = header & 0x3f;
	const packedLength = digitBytes(count);
	if (count === 0 || plain.length < digitsAt + packedLength) return undefined;
	const digits = unpack(plain.subarray(digitsAt, digitsAt + packedLength), count);
	if (digits === undefined) return undefined;
	const language = version >= 2 ? plain[9] : 0;
	return {
		recipient: (header & CUSTOMER_BIT) !== 0 ? { customerId: digits } : { phone: `+${digits}` },
		reference: plain.subarray(digitsAt + packedLength).toString('utf8'),
		sentAt: new Date(plain.readUInt32BE(0) * 1000),
		expiresAt: new Date(plain.readUInt32BE(4) * 1000),
		...(language === 0 ? {} : { language }),
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
	const facts = plain && readFacts(bytes[0], plain);
	if (!bytes || !facts) return { ok: false, reason: 'invalid' };
	if (now.getTime() >= facts.expiresAt.getTime()) return { ok: false, reason: 'expired' };
	// The tag is fixed by the whole token, which only the key's holder can make: one per link.
	const answerKey = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
	return { ok: true, facts, answerKey };
}

/*
 * The derived keys a process's triggers open links with, by credential ID and trigger. Reading
 * the credential costs n8n a database read, a decryption and an expression sandbox: on every
 * answer it made answering half again as costly as n8n's Form Trigger, and on every forged link
 * a flood of them cost n8n about twice a page view each. So a key is kept for a minute after it was
 * read, a link it does not open reads the credential again at most once in a few seconds, and a
 * token that is no link's shape is refused before any of it. Only derived keys are kept, never
 * an API key. Time is given on every call.
 */

/** How long a trigger keeps a credential's derived key after reading the credential. */
export const LINK_KEY_KEPT_MS = 60_000;

/**
 * The least time between two reads of one credential for one trigger: a link the kept key does
 * not open reads it again only once this long has passed since the last read. A rotated API key
 * applies to answers within this time; forged links cost one read in it, however many they are.
 */
export const LINK_KEY_REREAD_MS = 5_000;

/** The most keys kept at once: one per credential and trigger in use. */
const MOST_KEPT_KEYS = 1000;

/** One credential and trigger: the key last read while it is kept, and when it was read. */
interface Kept {
	key?: LinkKey;
	until: number;
	readAt: number;
	/** The read under way: answers that arrive meanwhile wait for it rather than read again. */
	reading?: Promise<LinkKey | undefined>;
}

/** Where a trigger's key comes from: its credential's ID, its path's last segment, the API key. */
export interface LinkKeySource {
	credential: string | undefined;
	trigger: string;
	readApiKey: () => Promise<string | undefined>;
}

/** The source's key read now; undefined when the credential cannot be read or has no API key. */
async function readKey({ trigger, readApiKey }: LinkKeySource): Promise<LinkKey | undefined> {
	const apiKey = await readApiKey().catch(() => undefined);
	return typeof apiKey === 'string' && apiKey !== '' ? linkKey(apiKey, trigger) : undefined;
}

/** A process's kept keys (one set for all its triggers), each credential and trigger apart. */
export class LinkKeys {
	private readonly kept = new Map<string, Kept>();

	constructor(
		private readonly keptMs = LINK_KEY_KEPT_MS,
		private readonly most = MOST_KEPT_KEYS,
		private readonly rereadMs = LINK_KEY_REREAD_MS,
	) {}

	get(credential: string, trigger: string, now: Date): LinkKey | undefined {
		const entry = this.kept.get(`${credential} ${trigger}`);
		return entry?.key && entry.until > now.getTime() ? entry.key : undefined;
	}

	keep(credential: string, trigger: string, key: LinkKey, now: Date): void {
		const readAt = now.getTime();
		this.set(`${credential} ${trigger}`, { key, until: readAt + this.keptMs, readAt });
	}

	/**
	 * The key to try on a link the kept key did not open: the read under way; else the credential
	 * read now, unless it was read less than the interval ago, when the kept key (or, after a
	 * read that failed, none) is all there is.
	 */
	async reread(
		source: LinkKeySource & { credential: string },
		now: Date,
	): Promise<LinkKey | undefined> {
		const { credential, trigger } = source;
		const id = `${credential} ${trigger}`;
		const entry = this.kept.get(id);
		if (entry?.reading) return await entry.reading;
		const since = entry === undefined ? Infinity : now.getTime() - entry.readAt;
		if (since >= 0 && since < this.rereadMs) return this.get(credential, trigger, now);
		const reading = readKey(source);
		const before = { key: entry?.key, until: entry?.until ?? 0, readAt: now.getTime() };
		this.set(id, { ...before, reading });
		const key = await reading;
		if (key) this.keep(credential, trigger, key, now);
		else this.set(id, before);
		return key;
	}

	private set(id: string, entry: Kept): void {
		this.kept.delete(id);
		this.kept.set(id, entry);
		// The oldest entry goes first: a Map keeps the order of insertion.
		if (this.kept.size > this.most) this.kept.delete(this.kept.keys().next().value as string);
	}
}

/**
 * Opens `token` at `now` with the key kept for the source, or, when none is kept or the kept one
 * does not open it, with the key of the credential read again (LinkKeys.reread): a changed API
 * key applies within LINK_KEY_REREAD_MS, and a link sealed under the replaced key opens at most
 * a minute longer. A token that cannot be a link is refused without a key. Undefined when the
 * credential cannot be read.
 */
export async function openWithKeptKey(
	token: unknown,
	source: LinkKeySource,
	keys: LinkKeys,
	now: Date,
): Promise<ReadLink | undefined> {
	if (!isWellFormedToken(token)) return { ok: false, reason: 'invalid' };
	const { credential, trigger } = source;
	// A node without a credential ID has nothing to keep its key by: its credential is read each time.
	if (credential === undefined) {
		const key = await readKey(source);
		return key && openLink(token, key, now);
	}
	const kept = keys.get(credential, trigger, now);
	const first = kept && openLink(token, kept, now);
	// An expired link opened: the kept key is the credential's.
	if (first && (first.ok || first.reason === 'expired')) return first;
	const key = await keys.reread({ ...source, credential }, now);
	if (!key) return undefined;
	if (first && kept.key.equals(key.key)) return first;
	return openLink(token, key, now);
}
