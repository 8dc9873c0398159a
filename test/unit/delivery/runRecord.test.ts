/**
 * The run summary's words (delivery/runRecord.ts): the figures that are not zero, the time as a
 * builder reads it, and, after the service slowed the node, the pace and the option that starts
 * there. The figures come from the engine tests (test/engine/runSummary.test.ts).
 */
import { duration, summaryMessage } from '../../../nodes/OmnichannelMessaging/delivery/runRecord';
import type { RunFigures } from '../../../nodes/OmnichannelMessaging/delivery/runRecord';

const figures = (change: Partial<RunFigures> = {}): RunFigures => ({
	items: 10,
	sent: 10,
	failed: 0,
	failedTo: 'errorOutput',
	skipped: { alreadySent: 0, duplicateInRun: 0, outcomeUnknown: 0 },
	notStarted: 0,
	wallMs: 1234,
	pace: { slowDowns: 0, byStatus: {}, pauses: 0 },
	...change,
});

test('the time: tenths of a second below a minute, minutes and seconds above', () => {
	expect(duration(0)).toBe('0.0 s');
	expect(duration(59_949)).toBe('59.9 s');
	expect(duration(60_000)).toBe('1 min 0 s');
	expect(duration(185_400)).toBe('3 min 5 s');
});

test('only the figures that are not zero, sent always', () => {
	expect(summaryMessage(figures())).toBe('10 item(s): 10 sent, in 1.2 s.');
	expect(
		summaryMessage(
			figures({
				sent: 2,
				failed: 1,
				failedTo: 'regularOutput',
				skipped: { alreadySent: 3, duplicateInRun: 1, outcomeUnknown: 1 },
				notStarted: 2,
			}),
		),
	).toBe(
		'10 item(s): 2 sent, 1 failed (on the output, each with an "error" field), 5 skipped by Send ' +
			'Once (3 sent before, 1 repeated in this run, 1 outcome of an earlier send unknown), 2 not ' +
			'started, in 1.2 s.',
	);
});

describe('after the service asked the node to slow down', () => {
	const slowed = (settled: { atOnce: number; perSecond: number }, maxPerSecond = 0) =>
		summaryMessage(
			figures({
				pace: {
					slowDowns: 7,
					byStatus: { '429': 6, '503': 1 },
					pauses: 2,
					settled,
					limits: { ceiling: 20, maxPerSecond },
				},
			}),
		);

	test('a limit on messages at once: the pace, and Concurrency to start there', () => {
		expect(slowed({ atOnce: 4, perSecond: 0 })).toBe(
			'10 item(s): 10 sent, in 1.2 s. The service asked the node to slow down 7 time(s) (6× 429 ' +
				'Too Many Requests, 1× 503 Service Unavailable); sending paused 2 time(s) and settled at ' +
				'4 message(s) at once. Messages refused this way were sent again, not failed. To start ' +
				'at that pace, set Options → Concurrency to 4.',
		);
	});

	test('a rate learned: Max Messages per Second, unless the one set is as low already', () => {
		expect(slowed({ atOnce: 20, perSecond: 9.56 })).toMatch(
			/at once, at most 9\.6 a second\. .* set Options → Max Messages per Second to 9\.$/,
		);
		expect(slowed({ atOnce: 20, perSecond: 9 }, 9)).toMatch(/sent again, not failed\.$/);
	});
});
