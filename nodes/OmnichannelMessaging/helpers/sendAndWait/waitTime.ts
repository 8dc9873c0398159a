import { WAIT_INDEFINITELY } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

const UNIT_MS: Record<string, number> = {
	minutes: 60_000,
	hours: 3_600_000,
	days: 86_400_000,
};

export type WaitTill = { ok: true; waitTill: Date } | { ok: false; reason: string };

function afterInterval(limit: IDataObject, now: Date): WaitTill {
	const amount = Number(limit.resumeAmount ?? 1);
	const unit = String(limit.resumeUnit ?? 'hours');
	if (!(unit in UNIT_MS))
		return { ok: false, reason: `the unit ${JSON.stringify(unit)} is not minutes, hours or days` };
	if (!Number.isFinite(amount) || amount <= 0)
		return { ok: false, reason: 'the amount must be a number above 0' };
	return { ok: true, waitTill: new Date(now.getTime() + amount * UNIT_MS[unit]) };
}

function atDate(limit: IDataObject, now: Date): WaitTill {
	const raw = limit.maxDateAndTime;
	const date =
		raw instanceof Date
			? raw
			: new Date(typeof raw === 'string' || typeof raw === 'number' ? raw : NaN);
	if (Number.isNaN(date.getTime()))
		return { ok: false, reason: 'the max date and time is not a date' };
	if (date.getTime() <= now.getTime())
		return { ok: false, reason: 'the max date and time has passed' };
	return { ok: true, waitTill: date };
}

/**
 * When the wait ends without an answer (n8n's configureWaitTillDate, with the same names): never
 * without a limit, else after the interval from `now`, or at the date. A limit that cannot be kept
 * (no amount, a date gone by) is refused, so that the message is not sent for a wait that would
 * end at once.
 */
export function waitTillFor(limit: IDataObject | undefined, now: Date): WaitTill {
	if (!limit || Object.keys(limit).length === 0) return { ok: true, waitTill: WAIT_INDEFINITELY };
	const limitType = limit.limitType ?? 'afterTimeInterval';
	if (limitType === 'afterTimeInterval') return afterInterval(limit, now);
	if (limitType === 'atSpecifiedTime') return atDate(limit, now);
	return { ok: false, reason: `the limit type ${JSON.stringify(limitType)} is not known` };
}
