/*
 * A trigger's kept keys (LinkKeys in answerLinks/token.ts): how often a credential is read for the links
 * that reach one trigger, valid, forged, junk or expired, and when a rotated API key applies.
 * Every time is given: the clock is the test's.
 */
import { randomBytes } from 'node:crypto';

import {
	LINK_KEY_KEPT_MS,
	LINK_KEY_REREAD_MS,
	LinkKeys,
	linkKey,
	openWithKeptKey,
	sealLink,
} from '../../../nodes/OmnichannelMessaging/answerLinks/token';
import type {
	LinkFacts,
	LinkKeySource,
} from '../../../nodes/OmnichannelMessaging/answerLinks/token';

const API_KEY = 'sk-live-omni-7f3a9c2e5b1d4e8f';
const ROTATED = 'sk-live-omni-rotated-0000';
const TRIGGER = '4f7c1a52-9a0e-4d43-8c55-0f1e2d3c4b5a';
const KEY = linkKey(API_KEY, TRIGGER);
const SENT = new Date('2026-11-28T09:00:00Z');
const at = (ms: number) => new Date(SENT.getTime() + ms);

const FACTS: LinkFacts = {
	recipient: { phone: '+491512345678901' },
	reference: 'appointment-981',
	sentAt: SENT,
	expiresAt: at(7 * 86_400_000),
};

const INVALID = { ok: false, reason: 'invalid' };

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

/**
 * A trigger's kept keys and a credential holding `apiKey`: `open(token, ms)` opens a link `ms`
 * after SENT with them, `from` another credential.
 */
function keptKeys(apiKey: string | undefined) {
	const keys = new LinkKeys();
	const source = credential(apiKey);
	const open = (token: unknown, ms: number, from: LinkKeySource = source) =>
		openWithKeptKey(token, from, keys, at(ms));
	return { source, open };
}

/** A token of a version and length a link has, of random bytes: well formed, sealed by no one. */
const forged = () => Buffer.concat([Buffer.from([2]), randomBytes(80)]).toString('base64url');

describe("a trigger's kept keys", () => {
	test('reads the credential once for many answers within a minute, then again', async () => {
		const { source, open } = keptKeys(API_KEY);
		const token = sealLink(FACTS, KEY);
		for (const ms of [0, 1_000, LINK_KEY_KEPT_MS - 1])
			expect(await open(token, ms)).toMatchObject({ ok: true });
		expect(source.reads).toBe(1);
		expect(await open(token, LINK_KEY_KEPT_MS)).toMatchObject({ ok: true });
		expect(source.reads).toBe(2);
	});

	test('junk is refused without a read, with a key kept or none, and without a credential ID', async () => {
		const { source, open } = keptKeys(API_KEY);
		const unnamed = Object.assign(credential(API_KEY), { credential: undefined });
		const token = sealLink(FACTS, KEY);
		const junk = [
			undefined,
			'',
			'not-a-link',
			token.slice(0, 30),
			// A byte more than version 2 writes, a byte less than version 1 does.
			Buffer.concat([Buffer.from([2]), randomBytes(116)]).toString('base64url'),
			Buffer.concat([Buffer.from([1]), randomBytes(37)]).toString('base64url'),
			`${token}=`,
			Buffer.concat([Buffer.from([3]), randomBytes(80)]).toString('base64url'),
			randomBytes(400).toString('base64url'),
			[token],
		];
		for (const bad of junk) {
			expect(await open(bad, 0)).toEqual(INVALID);
			expect(await open(bad, 0, unnamed)).toEqual(INVALID);
		}
		expect([source.reads, unnamed.reads]).toEqual([0, 0]);
		expect(await open(token, 1)).toMatchObject({ ok: true });
		for (const bad of junk) await open(bad, LINK_KEY_REREAD_MS * 2);
		expect(source.reads).toBe(1);
	});

	test(`forged links read the credential at most once in ${LINK_KEY_REREAD_MS} ms, however many`, async () => {
		const { source, open } = keptKeys(API_KEY);
		expect(await open(sealLink(FACTS, KEY), 0)).toMatchObject({ ok: true });
		// 2,000 forged links, one every 10 ms for 20 s: reads at 5, 10, 15 and 20 s.
		for (let ms = 10; ms <= 20_000; ms += 10) expect(await open(forged(), ms)).toEqual(INVALID);
		expect(source.reads).toBe(1 + 20_000 / LINK_KEY_REREAD_MS);
		// The real links keep opening with the kept key meanwhile.
		expect(await open(sealLink(FACTS, KEY), 20_005)).toMatchObject({ ok: true });
		expect(source.reads).toBe(5);
	});

	test('answers that arrive together before any key is kept wait for one read', async () => {
		const { source, open } = keptKeys(API_KEY);
		const tokens = [...Array(20)].map(() => sealLink(FACTS, KEY));
		const opened = await Promise.all(
			[...tokens, forged(), forged()].map((token) => open(token, 0)),
		);
		expect(opened.slice(0, 20).every((link) => link?.ok)).toBe(true);
		expect(opened.slice(20)).toEqual([INVALID, INVALID]);
		expect(source.reads).toBe(1);
	});

	test(`a changed API key applies once ${LINK_KEY_REREAD_MS} ms have passed since the last read`, async () => {
		const { source, open } = keptKeys(API_KEY);
		const before = sealLink(FACTS, KEY);
		expect(await open(before, 0)).toMatchObject({ ok: true });
		source.apiKey = ROTATED;
		const after = sealLink(FACTS, linkKey(ROTATED, TRIGGER));
		expect(await open(after, 1_000)).toEqual(INVALID);
		expect(await open(after, LINK_KEY_REREAD_MS - 1)).toEqual(INVALID);
		expect(source.reads).toBe(1);
		// Within the interval the replaced key still opens its links.
		expect(await open(before, 2_000)).toMatchObject({ ok: true });
		expect(await open(after, LINK_KEY_REREAD_MS)).toMatchObject({ ok: true });
		expect(source.reads).toBe(2);
		expect(await open(before, LINK_KEY_REREAD_MS + 1)).toEqual(INVALID);
	});

	test('an expired link reads nothing again: the kept key opened it', async () => {
		const { source, open } = keptKeys(API_KEY);
		await open(sealLink(FACTS, KEY), 0);
		const short = sealLink({ ...FACTS, expiresAt: at(2_000) }, KEY);
		expect(await open(short, LINK_KEY_REREAD_MS * 3)).toEqual({
			ok: false,
			reason: 'expired',
		});
		expect(source.reads).toBe(1);
	});

	test('a credential that cannot be read opens nothing, and is read again only after the interval', async () => {
		const { source, open } = keptKeys(undefined);
		const token = sealLink(FACTS, KEY);
		for (const ms of [0, 1, LINK_KEY_REREAD_MS - 1]) expect(await open(token, ms)).toBeUndefined();
		expect(source.reads).toBe(1);
		source.apiKey = API_KEY;
		expect(await open(token, LINK_KEY_REREAD_MS)).toMatchObject({ ok: true });
		expect(source.reads).toBe(2);
	});

	test('a read that throws is one that cannot be read, and the next read is tried after the interval', async () => {
		const { source, open } = keptKeys(API_KEY);
		let fail = true;
		const flaky = {
			...source,
			readApiKey: async () => {
				source.reads += 1;
				if (fail) throw new Error('the database is away');
				return API_KEY;
			},
		};
		const token = sealLink(FACTS, KEY);
		expect(await open(token, 0, flaky)).toBeUndefined();
		fail = false;
		expect(await open(token, 1, flaky)).toBeUndefined();
		expect(await open(token, LINK_KEY_REREAD_MS, flaky)).toMatchObject({ ok: true });
		expect(source.reads).toBe(2);
	});

	test('keys are kept per credential and trigger; without a credential ID it is read each time', async () => {
		const { source, open } = keptKeys(API_KEY);
		const token = sealLink(FACTS, KEY);
		await open(token, 0);
		const other = Object.assign(credential(undefined), { credential: 'cred-2' });
		expect(await open(token, 1, other)).toBeUndefined();
		const elsewhere = Object.assign(credential(API_KEY), { trigger: 'another-trigger' });
		expect(await open(token, 2, elsewhere)).toEqual(INVALID);
		expect([source.reads, other.reads, elsewhere.reads]).toEqual([1, 1, 1]);
		const unnamed = Object.assign(credential(API_KEY), { credential: undefined });
		await open(token, 3, unnamed);
		await open(token, 4, unnamed);
		expect(unnamed.reads).toBe(2);
	});

	test('a clock set back reads again rather than wait for a time it has left behind', async () => {
		const { source, open } = keptKeys(API_KEY);
		await open(sealLink(FACTS, KEY), 60_000);
		expect(await open(forged(), 59_000)).toEqual(INVALID);
		expect(source.reads).toBe(2);
	});

	test('keeps at most the given number of keys, dropping the oldest first', () => {
		const keys = new LinkKeys(LINK_KEY_KEPT_MS, 2);
		for (const id of ['a', 'b', 'c']) keys.keep(id, TRIGGER, KEY, at(0));
		expect(keys.get('a', TRIGGER, at(1))).toBeUndefined();
		expect(keys.get('b', TRIGGER, at(1))).toBe(KEY);
		expect(keys.get('c', TRIGGER, at(1))).toBe(KEY);
	});
});
