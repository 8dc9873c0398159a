export type PhoneCheck = { ok: true; phone: string } | { ok: false; reason: string };

// Separators people type or CRMs export; anything else (letters, '#', a second '+') is a real error.
const SEPARATORS = /[\s\-.()\u00a0\u200b-\u200d\u2060\ufeff]/g;
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Turns a phone number as users type it ("0049 (170) 123-45.67") into the international
 * format the service expects ("+491701234567").
 */
export function normalizePhone(raw: unknown): PhoneCheck {
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		return { ok: false, reason: 'it must be text, for example +4915123456789' };
	}
	let phone = String(raw).replace(SEPARATORS, '');
	if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
	if (phone === '') return { ok: false, reason: 'it is empty' };
	if (!phone.startsWith('+')) {
		return {
			ok: false,
			reason: 'it must start with + and the country code (or 00), for example +4915123456789',
		};
	}
	if (!E164.test(phone)) {
		return {
			ok: false,
			reason:
				'after the + it must have 7 to 15 digits, the first not 0, and nothing else, for example +4915123456789',
		};
	}
	return { ok: true, phone };
}
