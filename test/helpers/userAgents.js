'use strict';
/* Who fetches a link: the link previews of messengers, and a person's browser. No test framework needed. */

/** The link previews of WhatsApp, Facebook/Messenger, Telegram and Slack. */
const PREVIEW_AGENTS = [
	'WhatsApp/2.23.20.0 A',
	'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
	'TelegramBot (like TwitterBot)',
	'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
];

/** A person's browser: isbot-style filters call "HeadlessChrome" a bot. */
const BROWSER_AGENT =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
	'Chrome/131.0.0.0 Mobile Safari/537.36';

module.exports = { PREVIEW_AGENTS, BROWSER_AGENT };
