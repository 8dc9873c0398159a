import {
	checkMediaUrl,
	normalizeBaseUrl,
} from '../../../nodes/OmnichannelMessaging/helpers/values';
import { testEachAccepted, testEachRefused, testRefusesAll } from '../../helpers/table';

describe('checkMediaUrl', () => {
	test.each(['https://cdn.example.com/a.jpg', 'http://10.0.0.5:8080/file.pdf?x=1'])(
		'accepts %s',
		(url) => {
			expect(checkMediaUrl(url)).toEqual({ ok: true, value: url });
		},
	);
	testEachRefused('refuses %j', checkMediaUrl, [
		['javascript:alert(1)', 'scheme "javascript:"'],
		['file:///etc/passwd', 'scheme "file:"'],
		['ftp://example.com/a', 'scheme "ftp:"'],
		['/relative/path.png', 'not an absolute URL'],
		['example.com/a.png', 'not an absolute URL'],
		['', 'empty'],
	]);
	testRefusesAll('refuses values that are not text', checkMediaUrl, [42, undefined]);
});

describe('normalizeBaseUrl', () => {
	testEachAccepted('%j -> %s', normalizeBaseUrl, [
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['https://api.example.com/stable/open', 'https://api.example.com'],
		['https://api.example.com/stable/open/', 'https://api.example.com'],
		['http://127.0.0.1:4010/proxy/stable/open', 'http://127.0.0.1:4010/proxy'],
		[' https://api.example.com ', 'https://api.example.com'],
	]);
	test.each(['ftp://api.example.com', 'javascript:alert(1)', 'api.example.com', ''])(
		'refuses %j',
		(raw) => {
			expect(normalizeBaseUrl(raw).ok).toBe(false);
		},
	);
});
