import { PAGE_HEADERS, renderPage } from '../../../nodes/OmnichannelMessaging/sendAndWait/page';
import { escapeHtml } from '../../../nodes/OmnichannelMessaging/sendAndWait/sanitize';
import { ENGLISH } from '../../../nodes/OmnichannelMessaging/sendAndWait/texts';

const HOSTILE = `<script>alert("x")</script><img src=x onerror='y'>&amp;`;

describe('the answer page', () => {
	test('escapes every character that could start markup or leave an attribute', () => {
		expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
			'&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
		);
	});

	test('hostile labels and question appear as text only, never as markup', () => {
		const html = renderPage({
			kind: 'buttons',
			question: HOSTILE,
			name: 'approved',
			buttons: [
				{ label: HOSTILE, value: 'true', output: {}, primary: true },
				{ label: `"><button name="approved" value="true">`, value: 'false', output: {} },
			],
		});
		expect(html).not.toContain('<script');
		expect(html).not.toContain('<img');
		expect(html).not.toContain("onerror='");
		expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
		expect(html).toContain('&amp;amp;');
		// Exactly the two buttons rendered, each with its own value: the label could not add one.
		expect(html.match(/<button /g)).toHaveLength(2);
		expect(html).toContain(
			'name="approved" value="true" class="primary" dir="auto">&lt;script&gt;',
		);
		expect(html).toContain('name="approved" value="false" dir="auto">&quot;&gt;&lt;button');
	});

	test('an approval page is one form posting back to its own address, a button per answer', () => {
		const html = renderPage({
			kind: 'buttons',
			name: 'approved',
			buttons: [{ label: 'Yes', value: 'true', output: { approved: true }, primary: true }],
		});
		expect(html).toContain('<form method="post">');
		expect(html).not.toMatch(/action=/);
		expect(html).toContain(
			'<button type="submit" name="approved" value="true" class="primary" dir="auto">Yes',
		);
		expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
	});

	test('a Choice page: one button per option, none primary, each posting its index', () => {
		const html = renderPage({
			kind: 'buttons',
			question: 'When can we come?',
			name: 'choice',
			buttons: ['Monday', 'Tuesday <b>am</b>'].map((label, index) => ({
				label,
				value: String(index),
				output: { choice: label },
			})),
		});
		expect(html).toContain(
			'<h1 dir="auto">Your answer</h1><p dir="auto">When can we come?</p><form method="post">' +
				'<button type="submit" name="choice" value="0" dir="auto">Monday</button>' +
				'<button type="submit" name="choice" value="1" dir="auto">Tuesday &lt;b&gt;am&lt;/b&gt;</button></form>',
		);
	});

	test('buttons shown again after an answer that is none of them: the alert above them', () => {
		const html = renderPage({
			kind: 'buttons',
			question: 'When?',
			name: 'choice',
			buttons: [{ label: 'Monday', value: '0', output: {} }],
			alert: 'Nothing was recorded: <tap>.',
		});
		expect(html).toContain(
			'<p dir="auto">When?</p><p class="alert" role="alert">Nothing was recorded: &lt;tap&gt;.</p><form',
		);
	});

	test("a long label wraps within a phone's width", () => {
		expect(renderPage({ kind: 'refused', reason: 'x' })).toMatch(
			/button\{[^}]*width:100%[^}]*overflow-wrap:anywhere/,
		);
	});

	/** The page's style sheet: the built-in style, then the builder's. */
	const styleOf = (html: string) => /<style>(.*)<\/style>/s.exec(html)?.[1] ?? '';

	test("a dark scheme where the phone asks for one, before the builder's CSS, which comes last", () => {
		const builder = 'h1{color:#0a7d32}@media (prefers-color-scheme:dark){h1{color:#6fdc8c}}';
		const style = styleOf(
			renderPage(
				{ kind: 'form', question: 'Why?', fields: [] },
				{ language: ENGLISH, buttonLabel: 'Send', css: builder },
			),
		);
		expect(style).toMatch(/^:root\{color-scheme:light dark\}/);
		const dark = style.indexOf('@media (prefers-color-scheme:dark){');
		expect(dark).toBeGreaterThan(0);
		expect(style.endsWith(builder)).toBe(true);
		expect(style.indexOf(builder)).toBeGreaterThan(dark);
	});

	test('a focus ring on what the keyboard reaches; sides by the text direction, for right to left', () => {
		const style = styleOf(renderPage({ kind: 'refused', reason: 'x' }));
		expect(style).toMatch(/:focus-visible[^{]*\{outline:3px solid/);
		expect(style).toMatch(
			/\.alert\{border-inline-start:4px solid [^;]+;padding-inline-start:10px\}/,
		);
		expect(style).not.toMatch(/left|right/);
	});

	test('nothing on the page loads from anywhere: no script, link, image or frame', () => {
		for (const html of [
			renderPage({ kind: 'form', question: 'Why?', fields: [] }),
			renderPage({ kind: 'buttons', name: 'choice', buttons: [], alert: 'Tap' }),
			renderPage({ kind: 'recorded', recorded: 'Recorded: Yes' }),
			renderPage({ kind: 'refused', reason: 'No' }),
		]) {
			expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b/i);
			expect(html).not.toMatch(/https?:/);
		}
	});

	test('the recorded page says what was recorded, a typed answer escaped', () => {
		const html = renderPage({
			kind: 'recorded',
			recorded: 'Recorded your answer:',
			answers: [['Your answer', '<b>ok</b>']],
		});
		expect(html).toContain('<h1 dir="auto">Answer recorded</h1>');
		expect(html).toContain(
			'<dt><bdi>Your answer</bdi></dt><dd><bdi>&lt;b&gt;ok&lt;/b&gt;</bdi></dd>',
		);
	});

	const HEADERS: Array<[string, string, string]> = [
		['HTML in UTF-8', 'Content-Type', 'text/html; charset=utf-8'],
		['never cached', 'Cache-Control', 'no-store'],
		['no referrer', 'Referrer-Policy', 'no-referrer'],
		[
			'no script, no other site',
			'Content-Security-Policy',
			"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; " +
				"frame-ancestors 'none'",
		],
		['not indexed', 'X-Robots-Tag', 'noindex, nofollow'],
		['no type guessed', 'X-Content-Type-Options', 'nosniff'],
	];
	test.each(HEADERS)('headers: %s (%s)', (_, name, value) => {
		expect(PAGE_HEADERS[name]).toBe(value);
	});
	test('headers: those, and no others', () => {
		expect(Object.keys(PAGE_HEADERS).sort()).toEqual(HEADERS.map(([, name]) => name).sort());
	});
});
