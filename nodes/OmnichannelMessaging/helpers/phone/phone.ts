import { nationalToE164 } from './nationalPhone';
import type { Country } from './phonePlans';

export type PhoneCheck = { ok: true; phone: string } | { ok: false; reason: string };

// Separators people type or CRMs export; anything else (letters, '#', a second '+') is a real error.
const SEPARATORS = /[\s\-.()\u00a0\u200b-\u200d\u2060\ufeff]/g;
const E164 = /^\+[1-9]\d{6,14}$/;
const DIGITS = /^\d+$/;

function fromNational(phone: string, country: Country): PhoneCheck {
	const converted = DIGITS.test(phone) ? nationalToE164(phone, country.code) : undefined;
	if (converted && E164.test(converted)) return { ok: true, phone: converted };
	const { name, callingCode, example } = country;
	if (converted) {
		// A valid number of the plan (a pager, a short service number) that E.164 has no room for.
		return {
			ok: false,
			reason: `as a number of ${name} it is ${converted}, but after the + a phone number has 7 to 15 digits`,
		};
	}
	const dialled = example.e164 ? `, for example ${example.national}` : '';
	const international = example.e164 ? `, for example ${example.e164}` : '';
	return {
		ok: false,
		reason:
			`it is not a number of ${name} (${country.code}, +${callingCode}) by its numbering plan: ` +
			`give it as dialled in ${name}${dialled}, or with + and the country code${international}`,
	};
}

/**
 * "0049 (170) 123-45.67" becomes "+491701234567"; with a default country a number without + or 00
 * is read as dialled there, the way libphonenumber reads it.
 */
export function normalizePhone(
	raw: unknown,
	country?: Country | (() => Country | undefined),
): PhoneCheck {
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		return { ok: false, reason: 'it must be text, for example +4915123456789' };
	}
	let phone = String(raw).replace(SEPARATORS, '');
	if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
	if (phone === '') return { ok: false, reason: 'it is empty' };
	if (!phone.startsWith('+')) {
		// The country is looked up only here: an international number is sent whatever the option says.
		const plan = typeof country === 'function' ? country() : country;
		if (plan) return fromNational(phone, plan);
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
