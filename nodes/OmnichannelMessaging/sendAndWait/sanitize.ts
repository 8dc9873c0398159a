/*
 * What a builder puts on the answer page themselves: Custom HTML fields and the form's custom
 * CSS. Neither may run script, load anything from elsewhere or reach outside its place on the
 * page; the page's Content-Security-Policy says the same again to the browser. Both are read in
 * one pass, each character looked at a bounded number of times: they run on every page view, in
 * n8n's event loop.
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

/** A tag read at a `<`: its name, whether it closes, its attributes, and where it ends. */
interface Tag {
	closing: boolean;
	name: string;
	attributes: string;
	end: number;
}

const isLetter = (character: string) => /^[a-zA-Z]$/.test(character);
const isNameCharacter = (character: string) => /^[\w-]$/.test(character);

/**
 * The index just after a tag's attributes and its `>`, or -1. Attributes stop at the next `<`,
 * even inside quotes: a tag that never closes fails there, and the text up to that `<` is not
 * read again as a tag.
 */
function tagEnd(html: string, from: number): number {
	const next = html.indexOf('<', from);
	const stop = next < 0 ? html.length : next;
	let quote = '';
	for (let index = from; index < stop; index++) {
		const character = html[index];
		if (quote) quote = character === quote ? '' : quote;
		else if (character === '"' || character === "'") quote = character;
		else if (character === '>') return index + 1;
	}
	return -1;
}

/** The tag starting at the `<` at `start`, or undefined when it is text. */
function readTag(html: string, start: number): Tag | undefined {
	let index = start + 1;
	const closing = html[index] === '/';
	if (closing) index++;
	if (!isLetter(html[index] ?? '')) return undefined;
	const nameStart = index;
	while (index < html.length && isNameCharacter(html[index])) index++;
	const end = tagEnd(html, index);
	if (end < 0) return undefined;
	const name = html.slice(nameStart, index).toLowerCase();
	return { closing, name, attributes: html.slice(index, end - 1), end };
}

/** The elements opened and not yet closed, with a count per name so that a lookup is constant. */
class OpenElements {
	private readonly stack: string[] = [];
	private readonly counts = new Map<string, number>();

	push(name: string): void {
		this.stack.push(name);
		this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
	}

	has(name: string): boolean {
		return (this.counts.get(name) ?? 0) > 0;
	}

	/** The end tags up to and including the innermost `name`. */
	closeTo(name: string): string {
		let out = '';
		for (let top = this.pop(); top !== undefined; top = this.pop()) {
			out += `</${top}>`;
			if (top === name) break;
		}
		return out;
	}

	private pop(): string | undefined {
		const top = this.stack.pop();
		if (top !== undefined) this.counts.set(top, this.counts.get(top)! - 1);
		return top;
	}

	closeAll(): string {
		return this.stack
			.reverse()
			.map((name) => `</${name}>`)
			.join('');
	}
}

/** What a tag becomes outside a dropped element: itself without attributes, end tags, or nothing. */
function keptTag(tag: Tag, open: OpenElements): string {
	const name = tag.name === 'h1' ? 'h2' : tag.name;
	if (!ALLOWED_TAGS.has(name)) return '';
	if (tag.closing) return open.has(name) ? open.closeTo(name) : '';
	if (!VOID_TAGS.has(name)) open.push(name);
	return `<${name}${name === 'td' || name === 'th' ? cellSpans(tag.attributes) : ''}>`;
}

/**
 * Custom HTML as a small allow-list of formatting tags: no attribute that could fetch or run
 * anything (no href, src, style, on…), no comment, and only end tags of elements it opened, so
 * that nothing can close the page's form or main. Badly nested lists or tables (`<li><div><li>`)
 * are re-nested by the browser and can end the field's own block early: layout only, the rest
 * stays inside the form. `h1` becomes `h2`: the page's one `h1` is its title. A `<` that starts
 * no tag is text.
 */
export function sanitizeHtml(html: string): string {
	const open = new OpenElements();
	let out = '';
	let dropping: string | undefined;
	let index = 0;
	while (index < html.length) {
		const start = html.indexOf('<', index);
		const textEnd = start < 0 ? html.length : start;
		if (!dropping) out += escapeText(html.slice(index, textEnd));
		if (start < 0) break;
		if (html.startsWith('<!--', start)) {
			const close = html.indexOf('-->', start + 4);
			index = close < 0 ? html.length : close + 3;
			continue;
		}
		const tag = readTag(html, start);
		if (!tag) {
			if (!dropping) out += '&lt;';
			index = start + 1;
		} else {
			index = tag.end;
			if (dropping) dropping = tag.closing && tag.name === dropping ? undefined : dropping;
			else if (DROPPED_WITH_CONTENT.has(tag.name) && !tag.closing) dropping = tag.name;
			else out += keptTag(tag, open);
		}
	}
	return out + open.closeAll();
}

/** The longest custom CSS a form may have, in characters: it is sanitised on every page view. */
export const MAX_CSS_LENGTH = 20_000;

/**
 * What custom CSS may not hold: the end of its style element, a fetch, script, escapes. `(` marks
 * a function whose name may be followed by white space before it.
 */
const CSS_FORBIDDEN = [
	'<',
	'\\',
	'url(',
	'image-set(',
	'image(',
	'@import',
	'expression',
	'behavior',
	'-moz-binding',
	'javascript:',
];

const lower = (character: string) =>
	character >= 'A' && character <= 'Z' ? character.toLowerCase() : character;

/** The index in `out` where `token` ends at its tail (white space allowed before `(`), or -1. */
function tokenAtTail(out: string[], spaces: number[], token: string): number {
	let index = out.length - 1;
	let at = token.length - 1;
	if (token.endsWith('(')) {
		if (out[index] !== '(') return -1;
		index -= 1 + (spaces[index - 1] ?? 0);
		at--;
	}
	for (; at >= 0; at--, index--) if (index < 0 || lower(out[index]) !== token[at]) return -1;
	return index + 1;
}

/**
 * Custom CSS that can only restyle the page: no `<` (so no `</style`), no `url(`, `@import`,
 * `image-set(`, `expression`, `behavior`, no backslash escapes that could spell them. Read once,
 * left to right: the text kept so far never holds a forbidden token, so one can only appear at
 * its end, where it is removed at once; removing it cannot join another one that is not checked.
 */
export function sanitizeCss(css: string): string {
	const out: string[] = [];
	// spaces[i]: how many white-space characters end at out[i], so that `url   (` is found at once.
	const spaces: number[] = [];
	for (const character of css) {
		const previous = spaces.length > 0 ? spaces[spaces.length - 1] : 0;
		out.push(character);
		spaces.push(/^\s$/.test(character) ? previous + 1 : 0);
		for (const token of CSS_FORBIDDEN) {
			const start = tokenAtTail(out, spaces, token);
			if (start < 0) continue;
			out.length = start;
			spaces.length = start;
			break;
		}
	}
	return out.join('');
}
