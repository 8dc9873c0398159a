/*
 * Markdown as GitHub reads it, for the docs check (docsCheck.ts) and the package test's
 * documentation links: headings, the anchors GitHub makes of them (github-slugger), and links.
 */

export interface Located<T> {
	value: T;
	/** 1-based line number. */
	line: number;
}

/** Each line of a document outside fenced code blocks, with its line number. */
function proseLines(markdown: string): Array<Located<string>> {
	const lines: Array<Located<string>> = [];
	let fence: string | undefined;
	markdown.split(/\r?\n/).forEach((text, index) => {
		const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
		if (fenceMatch) {
			if (!fence) fence = fenceMatch[1][0];
			else if (fenceMatch[1][0] === fence) fence = undefined;
			return;
		}
		if (!fence) lines.push({ value: text, line: index + 1 });
	});
	return lines;
}

/** The heading texts of a Markdown document, outside fenced code blocks. */
export function markdownHeadings(markdown: string): string[] {
	return proseLines(markdown).flatMap(({ value }) => {
		const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(value);
		return atx ? [atx[1]] : [];
	});
}

/** GitHub's anchor for a heading: inline markup dropped, lowercased, punctuation removed, spaces to "-". */
export function githubSlug(heading: string): string {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** All anchors of a document; repeated headings get "-1", "-2", … as on GitHub. */
export function markdownAnchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const heading of markdownHeadings(markdown)) {
		const base = githubSlug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/**
 * The targets of inline links and images (`[text](target)`, `![alt](target "title")`) and of
 * reference definitions (`[label]: target`), outside code blocks and code spans.
 */
export function markdownLinks(markdown: string): Array<Located<string>> {
	return proseLines(markdown).flatMap(({ value, line }) => {
		const text = value.replace(/(`+)[\s\S]*?\1/g, '');
		const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(text);
		if (definition) return [{ value: definition[1], line }];
		return [...text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map(
			(match) => ({
				value: match[1],
				line,
			}),
		);
	});
}

/** Words as `wc -w` counts them: runs of characters between whitespace. */
export function wordCount(text: string): number {
	return text.split(/\s+/).filter(Boolean).length;
}

/** The code spans of a document (`name`), outside fenced code blocks, each with its line. */
export function markdownCodeSpans(markdown: string): Array<Located<string>> {
	return proseLines(markdown).flatMap(({ value, line }) =>
		[...value.matchAll(/(`+)([\s\S]*?)\1/g)].map((match) => ({ value: match[2].trim(), line })),
	);
}

/** The text under a heading, up to the next heading of the same or a higher level; '' without it. */
export function markdownSection(markdown: string, heading: string): string {
	const lines = markdown.split(/\r?\n/);
	const start = lines.findIndex(
		(text) => /^#{1,6}\s/.test(text) && text.replace(/^#+\s+/, '').trim() === heading,
	);
	if (start === -1) return '';
	const level = /^#+/.exec(lines[start])?.[0].length ?? 1;
	const end = lines.findIndex(
		(text, index) => index > start && (/^#+/.exec(text)?.[0].length ?? 99) <= level,
	);
	return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}
