import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { waitTillFor } from '../../../nodes/OmnichannelMessaging/sendAndWait/waiting';

const NOW = new Date('2026-11-26T06:00:00.000Z');

describe('when the wait ends without an answer', () => {
	test('without a limit: never (n8n WAIT_INDEFINITELY)', () => {
		expect(waitTillFor(undefined, NOW)).toEqual({ ok: true, value: WAIT_INDEFINITELY });
		expect(waitTillFor({}, NOW)).toEqual({ ok: true, value: WAIT_INDEFINITELY });
	});

	test.each([
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' },
			'2026-11-26T06:45:00.000Z',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 1.5, resumeUnit: 'hours' },
			'2026-11-26T07:30:00.000Z',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'days' },
			'2026-11-28T06:00:00.000Z',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
			'2026-11-26T06:00:03.000Z',
		],
		// n8n's defaults for values left out: 1 hour.
		[{ limitType: 'afterTimeInterval' }, '2026-11-26T07:00:00.000Z'],
		[
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-12-01T09:30:00.000Z' },
			'2026-12-01T09:30:00.000Z',
		],
		[
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-12-01T10:30:00+01:00' },
			'2026-12-01T09:30:00.000Z',
		],
	])('%j ends at %s', (limit, expected) => {
		expect(waitTillFor(limit, NOW)).toEqual({ ok: true, value: new Date(expected) });
	});

	test.each([
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'hours' },
			'the amount must be a number above 0',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: -3, resumeUnit: 'hours' },
			'the amount must be a number above 0',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 'soon', resumeUnit: 'hours' },
			'the amount must be a number above 0',
		],
		[
			{ limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'weeks' },
			'the unit "weeks" is not minutes, hours or days',
		],
		[
			{ limitType: 'atSpecifiedTime', maxDateAndTime: 'next Friday' },
			'the max date and time is not a date',
		],
		[{ limitType: 'atSpecifiedTime', maxDateAndTime: '' }, 'the max date and time is not a date'],
		[
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-11-26T05:59:59.000Z' },
			'the max date and time has passed',
		],
		[{ limitType: 'whenever' }, 'the limit type "whenever" is not known'],
	])('%j is refused: %s', (limit, reason) => {
		expect(waitTillFor(limit, NOW)).toEqual({ ok: false, reason });
	});
});
