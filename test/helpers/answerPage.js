'use strict';
/*
 * A person's side of Send and Wait for Response, without a browser: the links in the review
 * message, a link preview's GET, and the answer page's form submitted as its button does. Used by
 * the queue-mode and AI-agent tests; the browser tests click the real button in Chromium.
 */

// User agents of the link previews that fetch every link in a message (docs/send-and-wait.md).
const PREVIEW_USER_AGENTS = {
	whatsapp: 'WhatsApp/2.23.20.0 A',
	facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
	telegram: 'TelegramBot (like TwitterBot)',
	slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};
// An ordinary phone browser: the person who opens the link.
const BROWSER_USER_AGENT =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
	'Chrome/124.0.0.0 Mobile Safari/537.36';

/** The waiting links (n8n's signed resume URLs) in a message's text, in order. */
function waitingLinks(text) {
	return [...String(text).matchAll(/https?:\/\/[^\s<>"]+\/webhook-waiting\/[^\s<>"]+/g)].map(
		(match) => match[0].replace(/[).,;]+$/, ''),
	);
}

/** The link with the last character of its signature (the end of the link) changed. */
function withChangedSignature(link) {
	return link.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
}

/** Opens a link the way a preview fetcher does: one GET with its user agent, the page discarded. */
async function previewFetch(link, userAgent) {
	const response = await fetch(link, { headers: { 'user-agent': userAgent } });
	await response.arrayBuffer();
	return response.status;
}

/** Every link fetched by every preview fetcher above: the statuses they got, by app. */
async function previewEveryLink(links) {
	const statuses = {};
	for (const [app, userAgent] of Object.entries(PREVIEW_USER_AGENTS))
		statuses[app] = await Promise.all(links.map((link) => previewFetch(link, userAgent)));
	return statuses;
}

const attribute = (tag, name) =>
	new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag)?.slice(1).find(Boolean);

const unescapeHtml = (value = '') =>
	value
		.replace(/&quot;/g, '"')
		.replace(/&#39;|&#x27;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');

/**
 * The first form of a page: where it posts, and what pressing its `button`-th submit button
 * sends (the form's inputs and text areas, and that button's own name and value).
 */
function formOf(html, pageUrl, button = 0) {
	const match = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
	if (!match) throw new Error(`the answer page has no form:\n${html.slice(0, 2000)}`);
	const tag = match[0].slice(0, match[0].indexOf('>') + 1);
	const fields = new URLSearchParams();
	for (const [input] of match[1].matchAll(/<(?:input|textarea)\b[^>]*>/gi)) {
		const name = attribute(input, 'name');
		if (name) fields.append(unescapeHtml(name), unescapeHtml(attribute(input, 'value') ?? ''));
	}
	const buttons = [...match[1].matchAll(/<button\b[^>]*>/gi)].map(([b]) => b);
	if (!buttons[button]) throw new Error(`the answer page's form has no button ${button}`);
	const name = attribute(buttons[button], 'name');
	if (name)
		fields.append(unescapeHtml(name), unescapeHtml(attribute(buttons[button], 'value') ?? ''));
	return {
		action: new URL(unescapeHtml(attribute(tag, 'action') ?? ''), pageUrl).toString(),
		method: (attribute(tag, 'method') ?? 'get').toUpperCase(),
		fields,
	};
}

/**
 * What a person does: opens the link in a phone browser, then presses the page's first button
 * (or the `button`-th), which submits its form. `fields` adds or replaces form fields (a free-text
 * answer). Resolves with the status and text of the page shown after the press.
 */
async function answerThroughPage(link, { fields = {}, button = 0 } = {}) {
	const headers = { 'user-agent': BROWSER_USER_AGENT };
	const page = await fetch(link, { headers });
	const html = await page.text();
	if (page.status !== 200) throw new Error(`GET of the answer page answered ${page.status}`);
	const form = formOf(html, link, button);
	for (const [name, value] of Object.entries(fields)) form.fields.set(name, value);
	const response = await fetch(form.action, {
		method: form.method,
		headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
		body: form.fields.toString(),
	});
	return { status: response.status, text: await response.text() };
}

module.exports = {
	PREVIEW_USER_AGENTS,
	BROWSER_USER_AGENT,
	waitingLinks,
	previewFetch,
	previewEveryLink,
	answerThroughPage,
	withChangedSignature,
};
