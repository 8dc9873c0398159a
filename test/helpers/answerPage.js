'use strict';
/*
 * A person's side of Send and Wait for Response, without a browser: the links in the review
 * message, a link preview's GET, and the answer page's form submitted as its button does. Used by
 * the queue-mode and AI-agent tests; the browser tests click the real button in Chromium.
 */

const { PREVIEW_AGENTS, BROWSER_AGENT } = require('../e2e/sendAndWait.support');

/** The waiting links (n8n's signed resume URLs) in a message's text, in order. */
function waitingLinks(text) {
	return [...String(text).matchAll(/https?:\/\/[^\s<>"]+\/webhook-waiting\/[^\s<>"]+/g)].map(
		(match) => match[0].replace(/[).,;]+$/, ''),
	);
}

/** Opens a link the way a preview fetcher does: one GET with its user agent, the page discarded. */
async function previewFetch(link, userAgent) {
	const response = await fetch(link, { headers: { 'user-agent': userAgent } });
	await response.arrayBuffer();
	return response.status;
}

/** Every link fetched by the link previews of WhatsApp, Messenger, Telegram and Slack: the statuses they got. */
async function previewEveryLink(links) {
	const statuses = [];
	for (const userAgent of PREVIEW_AGENTS)
		statuses.push(...(await Promise.all(links.map((link) => previewFetch(link, userAgent)))));
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
	const headers = { 'user-agent': BROWSER_AGENT };
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

/** The hidden inputs of a page's first form, in order, as [name, value]. */
function hiddenInputs(html) {
	const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html)?.[1] ?? '';
	return [...form.matchAll(/<input\b[^>]*>/gi)]
		.map(([input]) => input)
		.filter((input) => attribute(input, 'type') === 'hidden')
		.map((input) => [
			unescapeHtml(attribute(input, 'name')),
			unescapeHtml(attribute(input, 'value')),
		]);
}

/**
 * A custom form's answer as a crafted request, without a browser's checks: `answer` by field label
 * (text, a list for checkboxes, a file as { name, type, content }) sent as the page's inputs
 * `field-<index>`, in the order of `fields` (the node's Form Fields), then the page's own hidden
 * inputs, as a browser sends them (a GET of the page records nothing). Resolves with the status
 * and text of the page shown after the POST.
 */
async function postCustomForm(link, fields, answer) {
	const headers = { 'user-agent': BROWSER_AGENT };
	const shown = await (await fetch(link, { headers })).text();
	const body = new FormData();
	fields.forEach((field, index) => {
		for (const one of [answer[field.fieldLabel] ?? []].flat()) {
			if (typeof one === 'string') body.append(`field-${index}`, one);
			else body.append(`field-${index}`, new Blob([one.content], { type: one.type }), one.name);
		}
	});
	for (const [name, value] of hiddenInputs(shown)) body.append(name, value);
	const response = await fetch(link, { method: 'POST', headers, body });
	return { status: response.status, text: await response.text() };
}

module.exports = {
	postCustomForm,
	unescapeHtml,
	waitingLinks,
	previewFetch,
	previewEveryLink,
	answerThroughPage,
};
