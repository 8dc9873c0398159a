/** fast-check arbitraries for what a workflow can hand a node parameter. */
import fc from 'fast-check';

const ODD_STRINGS = [
	'',
	' ',
	'\t\n ',
	'\u200B',
	'\u200B\u200D\uFEFF\u2060',
	'😀',
	'👩‍👩‍👧‍👦🏳️‍🌈',
	'\u202Eevil.exe',
	'مرحبا بالعالم',
	'שלום',
	'null',
	'undefined',
	'[object Object]',
	'NaN',
	'Infinity',
	'true',
	'0',
	'-1',
	'1.5',
	'1e3',
	' 12 ',
	'007',
	'{{1}}',
	'{{ $json.x }}',
	'<script>alert(1)</script>',
	'../../etc/passwd',
	"'; DROP TABLE customers;--",
	'\u0000',
	'\uD800',
];

const ODD_NUMBERS = [
	0,
	-0,
	-1,
	1.5,
	12.0,
	101,
	Number.NaN,
	Number.POSITIVE_INFINITY,
	Number.NEGATIVE_INFINITY,
	2 ** 53 + 2,
	Number.MAX_SAFE_INTEGER,
	Number.MIN_SAFE_INTEGER,
	1e21,
	5e-324,
];

/** Arbitrary strings, including 100 KB ones. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
	{ weight: 2, arbitrary: fc.string() },
	{ weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
	{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom('a'.repeat(100_000), '😀'.repeat(30_000), `+${'1'.repeat(100_000)}`),
	},
);

export const oddNumber: fc.Arbitrary<number> = fc.oneof(
	fc.constantFrom(...ODD_NUMBERS),
	fc.integer(),
	fc.double(),
);

/** Everything but strings and numbers: null, undefined, booleans, objects, arrays, dates, big ints. */
export const oddOther: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(
		null,
		undefined,
		true,
		false,
		{},
		[],
		[1, 2],
		['101'],
		{ value: '101' },
		{ toString: 'x' },
		new Date(0),
		new Date(Number.NaN),
	),
	fc.date(),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
	fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

/** Phone numbers: very long, separators, double plus, letters, 00 prefix, zero-width characters. */
export const oddPhone: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(
		'+4915123456789',
		'0049 (151) 234-56.78',
		'+49\u200B151\u00A023456789',
		'++4915123456789',
		'+0015123456789',
		'015123456789',
		'+49151234567890123',
		'+123456',
		'+1234567',
		'+' + '9'.repeat(1000),
		'00' + '1'.repeat(40),
		'+49 151 CALL NOW',
		'+٤٩١٥١٢٣٤٥٦٧٨٩',
		4915123456789,
		-4915123456789,
	),
	fc.stringMatching(/^(\+|00)?[0-9 ()\-.]{0,40}$/),
	fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
);

/** URLs with odd schemes or shapes; `mediaUrl` is served by a test server that must never be called. */
export function oddUrl(mediaUrl: string): fc.Arbitrary<unknown> {
	return fc.oneof(
		fc.constantFrom(
			'javascript:alert(1)',
			'JAVASCRIPT:alert(1)',
			'file:///etc/passwd',
			'ftp://example.com/a.png',
			'data:image/png;base64,iVBORw0KGgo=',
			'mailto:someone@example.com',
			'/relative/path.png',
			'relative.png',
			'//example.com/a.png',
			'http://',
			'https://',
			'http:/example.com/a.png',
			'https://exa mple.com/a.png',
			' https://cdn.example.com/a.png ',
			'HTTPS://CDN.EXAMPLE.COM/A.PNG',
			'https://cdn.example.com/' + 'a'.repeat(100_000),
			'https://user:pass@cdn.example.com/a.png',
			'http://[::1]/a.png',
			mediaUrl,
			`${mediaUrl}?redirect=file:///etc/passwd`,
		),
		fc.webUrl(),
		fc.string({ maxLength: 30 }),
	);
}

/** Any of the above: what an expression may hand any parameter. */
export function anyHostile(mediaUrl: string): fc.Arbitrary<unknown> {
	return fc.oneof(
		{ weight: 4, arbitrary: oddString },
		{ weight: 2, arbitrary: oddNumber },
		{ weight: 3, arbitrary: oddOther },
		{ weight: 1, arbitrary: oddPhone },
		{ weight: 1, arbitrary: oddUrl(mediaUrl) },
	);
}

/** A value a workflow's JSON can hold as a literal parameter (no expression). */
export function isLiteral(value: unknown): boolean {
	if (typeof value === 'string') return !value.startsWith('=');
	if (typeof value === 'number') return Number.isFinite(value);
	return typeof value === 'boolean' || value === null;
}
