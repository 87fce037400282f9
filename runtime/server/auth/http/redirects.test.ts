import { describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../config.js';
import { UntrustedHost } from '../errors.js';
import { appOriginOf, matchesPathPrefix, safeRedirectTarget } from './redirects.js';

const origin = 'https://app.example';

describe('safeRedirectTarget', () => {
	it.each([
		['/account', '/account'],
		['/account?tab=1#top', '/account?tab=1#top'],
		['/a/../b', '/b']
	])('keeps the relative path %s as %s', (target, expected) => {
		expect(safeRedirectTarget(target, origin, false)).toBe(expected);
	});

	it('accepts an absolute URL on the same origin only when the host is trusted, as a path', () => {
		expect(safeRedirectTarget('https://app.example/x?y=1', origin, true)).toBe('/x?y=1');
		expect(safeRedirectTarget('https://app.example/x', origin, false)).toBe('/');
	});

	it.each([
		['another origin', 'https://evil.example/x'],
		['another scheme on the same host', 'http://app.example/x'],
		['a protocol-relative URL', '//evil.example'],
		['a backslash trick', '/\\evil.example'],
		['a tab trick', '/\t/evil.example'],
		['a newline', '/x\nSet-Cookie: a=b'],
		['javascript:', 'javascript:alert(1)'],
		['data:', 'data:text/html,hi'],
		['a bare word', 'account'],
		['an empty string', ''],
		['a non-string', 42]
	])('falls back to / for %s', (_, target) => {
		expect(safeRedirectTarget(target, origin, true)).toBe('/');
	});
});

describe('matchesPathPrefix', () => {
	const prefixes = ['/account', '/admin/'];

	it.each(['/account', '/account/', '/account/settings', '/admin', '/admin/users', '/%61ccount', '/account%2Fx', '//account/x'])(
		'matches %s',
		(pathname) => expect(matchesPathPrefix(pathname, prefixes)).toBe(true)
	);

	it.each(['/', '/accounts', '/account-x', '/public/account', '/administrator'])('does not match %s', (pathname) => {
		expect(matchesPathPrefix(pathname, prefixes)).toBe(false);
	});

	it('treats a malformed escape as a match (fail closed), but not with no prefixes', () => {
		expect(matchesPathPrefix('/%E0%A4%A', prefixes)).toBe(true);
		expect(matchesPathPrefix('/%E0%A4%A', [])).toBe(false);
	});

	it('matches everything under the prefix /', () => {
		expect(matchesPathPrefix('/anything', ['/'])).toBe(true);
	});
});

describe('safeRedirectTarget under paths.base', () => {
	it.each([
		['/base/account?tab=1', '/base/account?tab=1'],
		['/base', '/base'],
		['/base/', '/base/'],
		['https://app.example/base/x', '/base/x']
	])('keeps %s, inside the base', (target, expected) => {
		expect(safeRedirectTarget(target, origin, true, '/base')).toBe(expected);
	});

	it.each([
		['a path outside the base', '/account'],
		['the site root', '/'],
		['a path that only starts like the base', '/basement/x'],
		['dot segments out of the base', '/base/../evil'],
		['encoded dot segments out of the base', '/base/%2E%2E/evil'],
		['an encoded slash after the base', '/base%2F..%2Fevil'],
		['a protocol-relative URL', '//evil.example/base/'],
		['an absolute URL outside the base', 'https://app.example/other/'],
		['an empty string', '']
	])('gives the base home for %s', (_, target) => {
		expect(safeRedirectTarget(target, origin, true, '/base')).toBe('/base/');
	});
});

describe('matchesPathPrefix under paths.base', () => {
	it.each([
		['/base/account', true],
		['/base/account/x', true],
		['/base/%61ccount', true],
		['/b%61se/account', true],
		['/base/public', false],
		['/account', false],
		['/basement/account', false]
	])('%s: %s', (pathname, expected) => {
		expect(matchesPathPrefix(pathname, ['/account'], '/base')).toBe(expected);
	});
});

describe('appOriginOf', () => {
	const untrusted = { origin: undefined, trustHost: false } as ResolvedConfig;

	it('takes AUTH_URL whatever the request says, and the origin of the request when the host is trusted', () => {
		expect(appOriginOf(new URL('http://attacker.example/signin'), { ...untrusted, origin: 'https://app.example' })).toBe('https://app.example');
		expect(appOriginOf(new URL('https://app.example/signin'), { ...untrusted, trustHost: true })).toBe('https://app.example');
	});

	it.each(['http://localhost:4173/signin', 'http://127.0.0.1:4173/signin', 'http://127.1.2.3:3000/', 'http://[::1]:4173/', 'http://LOCALHOST:4173/', 'http://2130706433:4173/'])(
		'takes the loopback origin of %s without AUTH_URL: vite preview and a local node build work',
		(url) => {
			expect(appOriginOf(new URL(url), untrusted)).toBe(new URL(url).origin);
		}
	);

	// Host header injection (OWASP WSTG-INPV-17): a forged Host would put an emailed token or an OAuth code on the attacker's site.
	it.each(['http://attacker.example/signin', 'http://localhost.attacker.example/', 'http://127.0.0.1.nip.io/', 'http://evil.localhost/', 'http://localhost./', 'http://10.0.0.5:4173/', 'http://[::2]/'])(
		'refuses the untrusted host of %s with UntrustedHost',
		(url) => {
			expect(() => appOriginOf(new URL(url), untrusted)).toThrow(UntrustedHost);
		}
	);
});
