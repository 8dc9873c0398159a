/*
 * The answer link's token (answerLinks/token.ts): what it seals comes back only with the same API
 * key and trigger, unchanged and before it expires; a person reads it, so its length has a bound.
 * Every time is given: the clock is the test's.
 */
import { randomBytes } from 'node:crypto';

import {
	LINK_PARAMETER,
	MAX_REFERENCE_BYTES,
	isWellFormedToken,
	linkKey,
	openLink,
	sealLink,
} from '../../../nodes/OmnichannelMessaging/answerLinks/token';
import type { LinkFacts } from '../../../nodes/OmnichannelMessaging/answerLinks/token';

const API_KEY = 'sk-live-omni-7f3a9c2e5b1d4e8f';
const TRIGGER = '4f7c1a52-9a0e-4d43-8c55-0f1e2d3c4b5a';
const KEY = linkKey(API_KEY, TRIGGER);
const SENT = new Date('2026-11-28T09:00:00Z');
const WEEK = 7 * 86_400_000;
const at = (ms: number) => new Date(SENT.getTime() + ms);

const PHONE: LinkFacts = {
	recipient: { phone: '+491512345678901' },
	reference: 'x'.repeat(MAX_REFERENCE_BYTES),
	sentAt: SENT,
	expiresAt: at(WEEK),
};

/** base64url's alphabet: a changed character is another one of it. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Tokens sealed by the version 1 code (0.2.0's, as it was before version 2) under KEY, sent at
 * SENT and valid for a WEEK: the links already in customers' messages, which must still open.
 */
const V1_TOKENS: [string, string, LinkFacts, string][] = [
	[
		'a 15-digit phone and a 64-character reference',
		'AYxZDb8ducKQP7Hk59jRmm6OAUWrCQKMTqzubfx5pFT9eec7gl1aV3eMIXzmeJx-gDFz5UlFlwn2IiBAcF-mLIEq2XhsD8D2xc' +
			'v0FvqixXNqNB2jnh_EG911eZj0LOxPjhMatxexCn0VEdIDPhM',
		PHONE,
		'Kv7ukO3ISN-vjTdymMbaUI',
	],
	[
		'a customer ID with leading zeros and a reference in UTF-8',
		'AbRPQdxhue_DOc-JbznfRdvHu1t6XJT7J46baxoLOQapD4moyflWW_fizYYU7tPWR43dbn0P8xuW6A',
		{ ...PHONE, recipient: { customerId: '007' }, reference: 'Müller-Termin #42' },
		'xOBLv4_Qrg2lICUZbEpTe7',
	],
	[
		'a 30-digit customer ID and a 64-character reference, the longest',
		'AeNXryIE5auXaVlXlSONLQqTe_i8iG9UPgrEOll2NcbbGtrZuEDxpZodsqHsU0zIuxkA1V94kDQrJ4WlCjby8HgqIKGctOr7gn' +
			'96X3X7lZSdFAP7n2prwz24XO-yTXzTcpdtg4jGO968Gafn7lMELyfAz4u6',
		{ ...PHONE, recipient: { customerId: '9'.repeat(30) }, reference: 'y'.repeat(64) },
		'42rjzbHvdUQDJ7cHQwE8Qw',
	],
	[
		'a one-digit customer ID and no reference, the shortest',
		'AY8JI12COGHsTMXEMoxIX3CLecPSAn5iakw5MKkSVc0R6pS1RxKT',
		{ ...PHONE, recipient: { customerId: '1' }, reference: '' },
		'DwCVZTaYvj3-KCHQRiQegw',
	],
];

const bytesOf = (token: string) => Buffer.from(token, 'base64url');

/** The token with its byte at `index` changed by one bit, as base64url again. */
function withByteChanged(token: string, index: number): string {
	const bytes = bytesOf(token);
	bytes[index] ^= 0x01;
	return bytes.toString('base64url');
}

describe('an answer link token', () => {
	test.each([
		['a 15-digit phone and a 64-character reference', PHONE],
		[
			'a customer ID and no reference',
			{ ...PHONE, recipient: { customerId: '123456' }, reference: '' },
		],
		['a customer ID with leading zeros', { ...PHONE, recipient: { customerId: '007' } }],
		['a customer ID of zeros only', { ...PHONE, recipient: { customerId: '0'.repeat(30) } }],
		['a 30-digit customer ID', { ...PHONE, recipient: { customerId: '9'.repeat(30) } }],
		['a one-digit phone', { ...PHONE, recipient: { phone: '+0' } }],
		[
			'an odd phone and a reference in UTF-8',
			{ ...PHONE, recipient: { phone: '+4930123' }, reference: 'Müller-Termin #42' },
		],
		['a language code', { ...PHONE, language: 3 }],
		["the customer's browser's language", { ...PHONE, language: 255 }],
		['the highest language code', { ...PHONE, language: 254 }],
	])('opens with the same key and trigger to what was sealed: %s', (_name, facts) => {
		const token = sealLink(facts, KEY);
		expect(bytesOf(token)[0]).toBe(2);
		const opened = openLink(token, linkKey(API_KEY, TRIGGER), at(60_000));
		expect(opened).toEqual({ ok: true, facts, answerKey: expect.stringMatching(/^[\w-]{22}$/) });
	});

	test("a language of 0 is the trigger's own: it opens as if none was given", () => {
		const opened = openLink(sealLink({ ...PHONE, language: 0 }, KEY), KEY, at(1000));
		expect(opened.ok && opened.facts).toEqual(PHONE);
		expect(opened.ok && 'language' in opened.facts).toBe(false);
	});

	test.each(V1_TOKENS)(
		'sealed by version 1, still opens, without a language, to its answer key: %s',
		(_name, token, facts, answerKey) => {
			expect(bytesOf(token)[0]).toBe(1);
			const opened = openLink(token, linkKey(API_KEY, TRIGGER), at(1000));
			expect(opened).toEqual({ ok: true, facts, answerKey });
			expect(opened.ok && opened.facts.language).toBeUndefined();
			expect(openLink(token, KEY, at(WEEK))).toEqual({ ok: false, reason: 'expired' });
			expect(openLink(token, linkKey(API_KEY, 'another-trigger'), at(1000)).ok).toBe(false);
		},
	);

	test.each([
		...V1_TOKENS.map(([name, token]): [string, string] => [`version 1, ${name}`, token]),
		['version 2, a 15-digit phone', sealLink({ ...PHONE, language: 3 }, KEY)],
		['version 2, a 30-digit customer ID', sealLink(V1_TOKENS[2][2], KEY)],
	])(
		'with any one byte changed, the version byte too, is refused as invalid: %s',
		(_name, token) => {
			const refusals = new Set<string>();
			for (let index = 0; index < bytesOf(token).length; index++) {
				const opened = openLink(withByteChanged(token, index), KEY, at(1000));
				refusals.add(opened.ok ? 'opened' : opened.reason);
			}
			expect([...refusals]).toEqual(['invalid']);
		},
	);

	test('holds none of what it seals in a readable form', () => {
		const token = sealLink(PHONE, KEY);
		const decoded = bytesOf(token);
		for (const secret of ['491512345678901', 'x'.repeat(16), API_KEY, TRIGGER]) {
			expect(token).not.toContain(secret);
			expect(decoded.includes(Buffer.from(secret))).toBe(false);
		}
	});

	test.each([undefined, 3, 255])(
		`with ?${LINK_PARAMETER}= and language %s, is 150 characters for a 64-character reference and a 15-digit phone`,
		(language) => {
			const suffix = `?${LINK_PARAMETER}=${sealLink({ ...PHONE, language }, KEY)}`;
			expect(suffix.length).toBe(150);
		},
	);

	test('is 158 characters with ?a= for a 30-digit customer ID, the longest a link takes', () => {
		const facts = { ...PHONE, recipient: { customerId: '9'.repeat(30) }, language: 255 };
		const suffix = `?${LINK_PARAMETER}=${sealLink(facts, KEY)}`;
		expect(suffix.length).toBe(158);
		expect(suffix.length).toBeLessThanOrEqual(160);
	});

	test('differs for every link, and so does its answer key, which stays the same for one link', () => {
		const [first, second] = [sealLink(PHONE, KEY), sealLink(PHONE, KEY)];
		expect(first).not.toBe(second);
		const keyOf = (token: string, now: Date) => {
			const opened = openLink(token, KEY, now);
			if (!opened.ok) throw new Error(opened.reason);
			return opened.answerKey;
		};
		expect(keyOf(first, at(1000))).toBe(keyOf(first, at(WEEK - 1000)));
		expect(keyOf(first, at(1000))).not.toBe(keyOf(second, at(1000)));
	});

	test('with any one character changed, is refused as invalid', () => {
		const token = sealLink(PHONE, KEY);
		const refusals = new Set<string>();
		for (let index = 0; index < token.length; index++) {
			// The next character of the alphabet: for the last one, its spare bits alone change too.
			const next = ALPHABET[(ALPHABET.indexOf(token[index]) + 1) % ALPHABET.length];
			const changed = token.slice(0, index) + next + token.slice(index + 1);
			const opened = openLink(changed, KEY, at(1000));
			refusals.add(opened.ok ? 'opened' : opened.reason);
		}
		expect([...refusals]).toEqual(['invalid']);
	});

	test('cut short, lengthened, padded or not text, is refused as invalid', () => {
		const token = sealLink(PHONE, KEY);
		for (const bad of [
			token.slice(0, -1),
			`${token}A`,
			`${token}=`,
			` ${token}`,
			'',
			undefined,
			42,
			[token],
		])
			expect(openLink(bad, KEY, at(1000))).toEqual({ ok: false, reason: 'invalid' });
	});

	test('sealed under another API key, or for another trigger, is refused as invalid', () => {
		const token = sealLink(PHONE, KEY);
		expect(openLink(token, linkKey('sk-live-other-key', TRIGGER), at(1000))).toEqual({
			ok: false,
			reason: 'invalid',
		});
		expect(openLink(token, linkKey(API_KEY, 'another-trigger'), at(1000))).toEqual({
			ok: false,
			reason: 'invalid',
		});
	});

	test('is refused as expired from its expiry on, and opens until then', () => {
		const facts = { ...PHONE, expiresAt: at(3_000) };
		const token = sealLink(facts, KEY);
		expect(openLink(token, KEY, at(2_999)).ok).toBe(true);
		expect(openLink(token, KEY, at(3_000))).toEqual({ ok: false, reason: 'expired' });
		expect(openLink(token, KEY, at(WEEK))).toEqual({ ok: false, reason: 'expired' });
	});

	test('keeps whole seconds: a send at .5 s is sealed at its second, its expiry at the next', () => {
		const facts = { ...PHONE, sentAt: at(500), expiresAt: at(500 + 60_000) };
		const opened = openLink(sealLink(facts, KEY), KEY, at(1000));
		expect(opened.ok && opened.facts.sentAt).toEqual(SENT);
		expect(opened.ok && opened.facts.expiresAt).toEqual(at(61_000));
	});

	test.each([
		['a reference over 64 bytes', { ...PHONE, reference: 'ä'.repeat(33) }],
		['a phone of 16 digits', { ...PHONE, recipient: { phone: '+4915123456789012' } }],
		['a customer ID of 31 digits', { ...PHONE, recipient: { customerId: '1'.repeat(31) } }],
		['a customer ID that is not digits', { ...PHONE, recipient: { customerId: 'abc' } }],
		['an expiry before the send', { ...PHONE, expiresAt: at(-1000) }],
		['a language byte of 256', { ...PHONE, language: 256 }],
		['a language byte of -1', { ...PHONE, language: -1 }],
		['a language byte that is not whole', { ...PHONE, language: 1.5 }],
	])('is never sealed with %s: the sends check their input first', (_name, facts) => {
		expect(() => sealLink(facts, KEY)).toThrow(RangeError);
	});
});

describe("a token's shape, read without a key", () => {
	/** Random bytes of a length behind a version byte, as base64url: well formed, never sealed. */
	const forged = (version: number, length: number) =>
		Buffer.concat([Buffer.from([version]), randomBytes(length - 1)]).toString('base64url');

	test.each([
		[1, 39, 117],
		[2, 40, 116],
	])(
		'version %i: from %i to %i bytes is well formed, one byte fewer or more is not',
		(version, least, most) => {
			expect(isWellFormedToken(forged(version, least))).toBe(true);
			expect(isWellFormedToken(forged(version, most))).toBe(true);
			expect(isWellFormedToken(forged(version, least - 1))).toBe(false);
			expect(isWellFormedToken(forged(version, most + 1))).toBe(false);
		},
	);

	test('the shortest and the longest tokens sealed are those lengths', () => {
		const shortest = { ...PHONE, recipient: { customerId: '1' }, reference: '' };
		const longest = V1_TOKENS[2][2];
		expect(bytesOf(sealLink(shortest, KEY))).toHaveLength(40);
		expect(bytesOf(sealLink(longest, KEY))).toHaveLength(116);
		expect(bytesOf(V1_TOKENS[3][1])).toHaveLength(39);
		expect(bytesOf(V1_TOKENS[2][1])).toHaveLength(117);
	});

	test('another version byte, padding, spare bits, other characters or no text are not', () => {
		const token = sealLink(PHONE, KEY);
		const last = ALPHABET[(ALPHABET.indexOf(token.at(-1)!) + 1) % ALPHABET.length];
		for (const bad of [
			forged(0, 60),
			forged(3, 60),
			forged(255, 60),
			`${token}=`,
			token.slice(0, -1) + last,
			token.replace(/.$/, '+'),
			`${token.slice(0, 40)}.${token.slice(41)}`,
			'',
			'x'.repeat(10_000),
			undefined,
			[token],
		])
			expect(isWellFormedToken(bad)).toBe(false);
		expect(isWellFormedToken(token)).toBe(true);
	});
});
