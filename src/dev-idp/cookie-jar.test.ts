import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookie-jar.js';

function response(...setCookies: string[]): Response {
	const headers = new Headers();
	for (const cookie of setCookies) headers.append('set-cookie', cookie);
	return new Response(null, { headers });
}

const at = (path: string) => new URL(`http://127.0.0.1:9400${path}`);

describe('CookieJar', () => {
	it('sends a cookie to its path and below it, not to other paths', () => {
		const jar = new CookieJar();
		jar.store(response('_interaction=abc; path=/interaction/abc; samesite=lax; httponly', '_session=s1; path=/'));
		expect(jar.header(at('/interaction/abc'))).toBe('_interaction=abc; _session=s1');
		expect(jar.header(at('/interaction/abc/x'))).toBe('_interaction=abc; _session=s1');
		expect(jar.header(at('/interaction/abcd'))).toBe('_session=s1');
		expect(jar.header(at('/oauth2/authorize'))).toBe('_session=s1');
	});

	it('defaults to path / and replaces a cookie of the same name and path', () => {
		const jar = new CookieJar();
		jar.store(response('a=1'));
		jar.store(response('a=2; Path=/'));
		expect(jar.header(at('/anything'))).toBe('a=2');
	});

	it.each([
		['an empty value', 'a=; path=/'],
		['an Expires in the past', 'a=1; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT'],
		['Max-Age=0', 'a=1; path=/; max-age=0']
	])('deletes a cookie set with %s', (_, clearing) => {
		const jar = new CookieJar();
		jar.store(response('a=1; path=/', 'b=2; path=/'));
		jar.store(response(clearing));
		expect(jar.header(at('/'))).toBe('b=2');
	});

	it('has no header when no cookie applies', () => {
		const jar = new CookieJar();
		expect(jar.header(at('/'))).toBeUndefined();
		jar.store(response('a=1; path=/only'));
		expect(jar.header(at('/'))).toBeUndefined();
	});
});
