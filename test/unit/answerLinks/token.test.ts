/*
 * The answer link's token (answerLinks/token.ts): what it seals comes back only with the same API
 * key and trigger, unchanged and before it expires; a person reads it, so its length has a bound.
 * Every time is given: the clock is the test's.
 */
import {
	LINK_KEY_KEPT_MS,
	LINK_PARAMETER,
	LinkKeys,
	MAX_REFERENCE_BYTES,
	linkKey,
	openLink,
	openWithKeptKey,
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

describe('an answer link token', () => {
	test.each([
		['a 15-digit phone and a 64-character reference', PHONE],
		[
			'a customer ID and no reference',
			{ ...PHONE, recipient: { customerId: '123456' }, reference: '' },
		],
		['a customer ID with leading zeros', { ...PHONE, recipient: { customerId: '007' } }],
		[
			'an odd phone and a reference in UTF-8',
			{ ...PHONE, recipient: { phone: '+4930123' }, reference: 'Müller-Termin #42' },
		],
	])('opens with the same key and trigger to what was sealed: %s', (_name, facts) => {
		const token = sealLink(facts, KEY);
		const opened = openLink(token, linkKey(API_KEY, TRIGGER), at(60_000));
		expect(opened).toEqual({ ok: true, facts, answerKey: expect.stringMatching(/^[\w-]{22}$/) });
	});

	test('holds none of what it seals in a readable form', () => {
		const token = sealLink(PHONE, KEY);
		const decoded = Buffer.from(token, 'base64url');
		for (const secret of ['491512345678901', 'x'.repeat(16), API_KEY, TRIGGER]) {
			expect(token).not.toContain(secret);
			expect(decoded.includes(Buffer.from(secret))).toBe(false);
		}
	});

	test(`with ?${LINK_PARAMETER}=, is 150 characters for a 64-character reference and a 15-digit phone`, () => {
		const suffix = `?${LINK_PARAMETER}=${sealLink(PHONE, KEY)}`;
		expect(suffix.length).toBe(150);
		expect(suffix.length).toBeLessThanOrEqual(160);
	});

	test('is at most 160 characters for a 30-digit customer ID, the longest a link takes', () => {
		const facts = { ...PHONE, recipient: { customerId: '9'.repeat(30) } };
		expect(`?${LINK_PARAMETER}=${sealLink(facts, KEY)}`.length).toBe(159);
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
		['a customer ID that is not digits', { ...PHONE, recipient: { customerId: 'abc' } }],
		['an expiry before the send', { ...PHONE, expiresAt: at(-1000) }],
	])('is never sealed with %s: the sends check their input first', (_name, facts) => {
		expect(() => sealLink(facts, KEY)).toThrow(RangeError);
	});
});

describe("a trigger's kept keys", () => {
	/** A credential whose API key the test changes; it counts how often it is read. */
	function credential(apiKey: string | undefined) {
		const source = {
			apiKey,
			reads: 0,
			credential: 'cred-1' as string | undefined,
			trigger: TRIGGER,
			readApiKey: async () => {
				source.reads += 1;
				return source.apiKey;
			},
		};
		return source;
	}

	test('reads the credential once for many answers within a minute, then again', async () => {
		const keys = new LinkKeys();
		const source = credential(API_KEY);
		const token = sealLink(PHONE, KEY);
		for (const ms of [0, 1_000, LINK_KEY_KEPT_MS - 1])
			expect(await openWithKeptKey(token, source, keys, at(ms))).toMatchObject({ ok: true });
		expect(source.reads).toBe(1);
		expect(await openWithKeptKey(token, source, keys, at(LINK_KEY_KEPT_MS))).toMatchObject({
			ok: true,
		});
		expect(source.reads).toBe(2);
	});

	test('a changed API key applies to the next answer; the replaced key opens at most a minute longer', async () => {
		const keys = new LinkKeys();
		const source = credential(API_KEY);
		const before = sealLink(PHONE, KEY);
		expect(await openWithKeptKey(before, source, keys, at(0))).toMatchObject({ ok: true });
		source.apiKey = 'sk-live-omni-rotated-0000';
		const after = sealLink(PHONE, linkKey(source.apiKey, TRIGGER));
		expect(await openWithKeptKey(after, source, keys, at(1_000))).toMatchObject({ ok: true });
		expect(source.reads).toBe(2);
		expect(await openWithKeptKey(before, source, keys, at(2_000))).toEqual({
			ok: false,
			reason: 'invalid',
		});
	});

	test('a link that does not open reads the credential again; an expired one does not', async () => {
		const keys = new LinkKeys();
		const source = credential(API_KEY);
		expect(await openWithKeptKey(sealLink(PHONE, KEY), source, keys, at(0))).toMatchObject({
			ok: true,
		});
		const forged = sealLink(PHONE, linkKey('sk-live-another-key', TRIGGER));
		expect(await openWithKeptKey(forged, source, keys, at(1))).toEqual({
			ok: false,
			reason: 'invalid',
		});
		expect(source.reads).toBe(2);
		const short = sealLink({ ...PHONE, expiresAt: at(2_000) }, KEY);
		expect(await openWithKeptKey(short, source, keys, at(3_000))).toEqual({
			ok: false,
			reason: 'expired',
		});
		expect(source.reads).toBe(2);
	});

	test('keys are kept per credential and trigger; a credential that cannot be read opens nothing', async () => {
		const keys = new LinkKeys();
		const source = credential(API_KEY);
		const token = sealLink(PHONE, KEY);
		await openWithKeptKey(token, source, keys, at(0));
		const other = Object.assign(credential(undefined), { credential: 'cred-2' });
		expect(await openWithKeptKey(token, other, keys, at(1))).toBeUndefined();
		const elsewhere = Object.assign(credential(API_KEY), { trigger: 'another-trigger' });
		expect(await openWithKeptKey(token, elsewhere, keys, at(2))).toEqual({
			ok: false,
			reason: 'invalid',
		});
		const unnamed = Object.assign(credential(API_KEY), { credential: undefined });
		await openWithKeptKey(token, unnamed, keys, at(3));
		await openWithKeptKey(token, unnamed, keys, at(4));
		expect(unnamed.reads).toBe(2);
	});

	test('keeps at most the given number of keys, dropping the oldest first', () => {
		const keys = new LinkKeys(LINK_KEY_KEPT_MS, 2);
		for (const id of ['a', 'b', 'c']) keys.keep(id, TRIGGER, KEY, at(0));
		expect(keys.get('a', TRIGGER, at(1))).toBeUndefined();
		expect(keys.get('b', TRIGGER, at(1))).toBe(KEY);
		expect(keys.get('c', TRIGGER, at(1))).toBe(KEY);
	});
});
