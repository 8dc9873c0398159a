/**
 * n8n's node picker lists a trigger without an Event parameter under a name of its own making
 * (editor-ui's node creator: "On new <display name without Trigger> event"). The docs send the
 * builder to that entry by that name, so the check follows the trigger's display name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { OmnichannelMessagingTrigger } from '../../nodes/OmnichannelMessaging/OmnichannelMessagingTrigger.node';
import { markdownSection } from './markdown';

const repoDir = path.resolve(__dirname, '..', '..');

test('the docs name the trigger as the node picker shows it', () => {
	const { description } = new OmnichannelMessagingTrigger();
	const events = ['event', 'events', 'trigger on'];
	// With such a parameter, the picker would list its options instead.
	expect(
		description.properties.filter((p) => events.includes(p.displayName.toLowerCase())),
	).toEqual([]);
	const picked = `On new ${description.displayName.replace('Trigger', '').trimEnd()} event`;
	const page = readFileSync(path.join(repoDir, 'docs', 'send-and-wait.md'), 'utf8');
	const section = markdownSection(page, 'Asking many people without waiting');
	expect(section).toContain(`*${picked}*`);
	expect(section).toContain(`**${description.displayName}**`);
});
