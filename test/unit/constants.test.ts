/*
 * The node's timings and limits are frozen: no code path, and no test, can change them in a
 * running n8n. Tests that need other timings mock the constants module (test/helpers/process.ts).
 */
import * as constants from '../../nodes/OmnichannelMessaging/constants';

test('every exported object of constants.ts is frozen', () => {
	const objects = Object.entries({ ...constants }).filter(([, value]) => typeof value === 'object');
	expect(objects.map(([name]) => name).sort()).toEqual([
		'PACING',
		'PATHS',
		'RATE_LIMIT',
		'SEND_LIMITS',
		'SEND_ONCE',
		'TEMPLATE_CACHE',
	]);
	expect(objects.filter(([, value]) => !Object.isFrozen(value)).map(([name]) => name)).toEqual([]);
});
