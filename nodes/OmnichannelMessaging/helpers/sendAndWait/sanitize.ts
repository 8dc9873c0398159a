/*
 * What a builder puts on the answer page themselves: Custom HTML fields and the form's custom
 * CSS. Neither may run script, load anything from elsewhere or reach outside its place on the
 * page; the page's Content-Security-Policy says the same again to the browser.
 */

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/** Text as HTML text or attribute value: nothing in it can become markup. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

/** Formatting tags kept, without attributes (table cells keep colspan and rowspan). */
const ALLOWED_TAGS = new Set([
	...['b', 'i', 'em', 'strong', 'u', 's', 'small', 'sub', 'sup', 'code', 'pre', 'blockquote'],
	...['p', 'br', 'hr', 'div', 'span', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li'],
	...['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th'],
]);

const VOID_TAGS = new Set(['br', 'hr']);

/** Elements dropped with everything inside them: their content is code, not text. */
const DROPPED_WITH_CONTENT = new Set([
	...['script', 'style', 'template', 'noscript', 'textarea', 'title', 'iframe', 'object'],
	...['embed', 'svg', 'math', 'select', 'option', 'xmp', 'noembed', 'noframes', 'plaintext'],
]);

/*
 * A comment or a tag. A tag's attributes stop at the next `<`, even inside quotes: a `<` that
 * never closes then fails at the next one, not at the end of the HTML, so reading is linear in
 * its length (a tag whose quoted value holds `<` is shown as text instead).
 */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w-]*)((?:[^<>"']|"[^<"]*"|'[^<']*')*)>/g;
const ENTITY = /&(?:#\d{1,7}|#x[\da-fA-F]{1,6}|[a-zA-Z][a-zA-Z\d]{1,31});/y;

/** Text as it is, but every `<`, `>` and quote escaped and every `&` either an entity or `&amp;`. */
function escapeText(text: string): string {
	let out = '';
	for (let index = 0; index < text.length; index++) {
		const character = text[index];
		ENTITY.lastIndex = index;
		if (character === '&') out += ENTITY.test(text) ? '&' : '&amp;';
		else if (character === '<') out += '&lt;';
		else if (character === '>') out += '&gt;';
		else if (character === '"') out += '&quot;';
		else out += character;
	}
	return out;
}

function cellSpans(attributes: string): string {
	const spans = [...attributes.matchAll(/\b(colspan|rowspan)\s*=\s*["']?(\d{1,3})\b/gi)];
	return spans.map(([, name, value]) => ` ${name.toLowerCase()}="${value}"`).join('');
}

/**
 * Custom HTML as a small allow-list of formatting tags: no attribute that could fetch or run
 * anything (no href, src, style, on…), no comment, and only end tags of elements it opened, so
 * that nothing can close the page's form or main. Badly nested lists or tables (`<li><div><li>`)
 * are re-nested by the browser and can end the field's own block early: layout only, the rest
 * stays inside the form. `h1` becomes `h2`: the page's one `h1` is its title.
 */
export function sanitizeHtml(html: string): string {
	const open: string[] = [];
	let out = '';
	let dropping: string | undefined;
	let last = 0;
	for (const match of html.matchAll(TOKEN)) {
		if (!dropping) out += escapeText(html.slice(last, match.index));
		last = match.index + match[0].length;
		const [, closing, rawName = '', attributes = ''] = match;
		const name = rawName.toLowerCase() === 'h1' ? 'h2' : rawName.toLowerCase();
		if (dropping) {
			if (closing && name === dropping) dropping = undefined;
		} else if (DROPPED_WITH_CONTENT.has(name) && !closing) {
			dropping = name;
		} else if (ALLOWED_TAGS.has(name) && !closing) {
			const spans = name === 'td' || name === 'th' ? cellSpans(attributes) : '';
			out += `<${name}${spans}>`;
			if (!VOID_TAGS.has(name)) open.push(name);
		} else if (ALLOWED_TAGS.has(name) && open.includes(name)) {
			while (open.length > 0) {
				const top = open.pop()!;
				out += `</${top}>`;
				if (top === name) break;
			}
		}
	}
	if (!dropping) out += escapeText(html.slice(last));
	return (
		out +
		open
			.reverse()
			.map((name) => `</${name}>`)
			.join('')
	);
}

/** What custom CSS may not hold: the end of its style element, a fetch, script, escapes. */
const CSS_FORBIDDEN =
	/<|\\|url\s*\(|image-set\s*\(|image\s*\(|@import|expression|behavior|-moz-binding|javascript:/gi;

/**
 * Custom CSS that can only restyle the page: no `<` (so no `</style`), no `url(`, `@import`,
 * `image-set(`, `expression`, `behavior`, no backslash escapes that could spell them. Removed
 * again until nothing is left to remove, so that removing one cannot join another.
 */
export function sanitizeCss(css: string): string {
	let previous: string;
	let current = css;
	do {
		previous = current;
		current = current.replace(CSS_FORBIDDEN, '');
	} while (current !== previous);
	return current;
}
