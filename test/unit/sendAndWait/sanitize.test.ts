import {
	sanitizeCss,
	sanitizeHtml,
} from '../../../nodes/OmnichannelMessaging/sendAndWait/sanitize';
import { testEachReturns } from '../../helpers/table';

describe('Custom HTML', () => {
	test('a tag left open again and again is read in one pass, as text', () => {
		// Before, each `<a` was tried to the end of the HTML: 32,000 of them took seconds.
		expect(sanitizeHtml('<a'.repeat(32_000))).toBe('&lt;a'.repeat(32_000));
		expect(sanitizeHtml('<a "'.repeat(32_000))).toBe('&lt;a &quot;'.repeat(32_000));
	});

	testEachReturns('%s → %s', sanitizeHtml, [
		['<p>Read <b>this</b> &amp; <em>that</em></p>', '<p>Read <b>this</b> &amp; <em>that</em></p>'],
		['<h1>Title</h1>', '<h2>Title</h2>'],
		[
			'<table><tr><td colspan="2" onclick="x">a</td></tr></table>',
			'<table><tr><td colspan="2">a</td></tr></table>',
		],
		['<script>alert(1)</script>ok', 'ok'],
		['<style>body{display:none}</style>ok', 'ok'],
		['<svg><script>alert(1)</script></svg>ok', 'ok'],
		['<img src=x onerror=alert(1)>ok', 'ok'],
		['<a href="javascript:alert(1)">link</a>', 'link'],
		['<iframe src="https://x"></iframe>ok', 'ok'],
		['<p style="background:url(https://x)">ok</p>', '<p>ok</p>'],
		['<!-- <script>alert(1)</script> -->ok', 'ok'],
		['<div>open', '<div>open</div>'],
		['</div></form></main><p>after</p>', '<p>after</p>'],
		['<b><i>x</b></i>', '<b><i>x</i></b>'],
		['a < b && c > d "q"', 'a &lt; b &amp;&amp; c &gt; d &quot;q&quot;'],
		['<p title=">">x</p>', '<p>x</p>'],
		['<p title="<b>">x</p>', '&lt;p title=&quot;<b>&quot;&gt;x</b>'],
		['<input name="field-0" value="forged">', ''],
		['<form action="https://x"><button>Go</button></form>', 'Go'],
	]);
});

describe('custom CSS', () => {
	testEachReturns('%s → %s', sanitizeCss, [
		['h1{color:#0a7d32} div > p{margin:0}', 'h1{color:#0a7d32} div > p{margin:0}'],
		['a{}</style><script>alert(1)</script>', 'a{}/style>script>alert(1)/script>'],
		['body{background:url(https://x/a.png)}', 'body{background:https://x/a.png)}'],
		['body{background:URL ( "https://x" )}', 'body{background: "https://x" )}'],
		['@import "https://x/b.css";', ' "https://x/b.css";'],
		['p{width:expression(alert(1))}', 'p{width:(alert(1))}'],
		['.a{b:u\\72l(https://x)}', '.a{b:u72l(https://x)}'],
		['.a{b:uurl(rl(x)}', '.a{b:x)}'],
		['.a{background:image-set("a.png" 1x)}', '.a{background:"a.png" 1x)}'],
	]);
});
