import { describe, expect, it } from 'vitest';
import { Jar } from '../../../test/event.js';
import { deleteChunkedCookie, getChunkedCookie, setChunkedCookie } from './cookies.js';

const options = { path: '/', httpOnly: true, sameSite: 'lax', secure: false } as const;
const NAME = 'auth.session-token';

describe('chunked cookies', () => {
	it('keeps a small value in one cookie', () => {
		const jar = new Jar();
		setChunkedCookie(jar.cookies(), NAME, 'small', options);
		expect([...jar.values.keys()]).toEqual([NAME]);
		expect(getChunkedCookie(jar.cookies(), NAME)).toBe('small');
	});

	it('splits a big value into chunks of at most 4096 bytes with attributes and joins them back', () => {
		const jar = new Jar();
		const value = 'v'.repeat(10_000);
		setChunkedCookie(jar.cookies(), NAME, value, { ...options, maxAge: 2_592_000 });
		expect([...jar.values.keys()]).toEqual([`${NAME}.0`, `${NAME}.1`, `${NAME}.2`]);
		for (const write of jar.writes) {
			const header = `${write.name}=${write.value}; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax`;
			expect(header.length).toBeLessThan(4096);
		}
		expect(getChunkedCookie(jar.cookies(), NAME)).toBe(value);
	});

	it('deletes the chunks a bigger earlier value left, and the plain cookie when it now needs chunks', () => {
		const jar = new Jar();
		setChunkedCookie(jar.cookies(), NAME, 'a'.repeat(10_000), options);
		setChunkedCookie(jar.cookies(), NAME, 'b'.repeat(5_000), options);
		expect([...jar.values.keys()]).toEqual([`${NAME}.0`, `${NAME}.1`]);
		expect(getChunkedCookie(jar.cookies(), NAME)).toBe('b'.repeat(5_000));

		setChunkedCookie(jar.cookies(), NAME, 'small', options);
		expect([...jar.values.keys()]).toEqual([NAME]);

		setChunkedCookie(jar.cookies(), NAME, 'c'.repeat(5_000), options);
		expect([...jar.values.keys()].sort()).toEqual([`${NAME}.0`, `${NAME}.1`]);
	});

	it('reads a cookie deleted earlier in the request (SvelteKit answers "") as absent', () => {
		const jar = new Jar();
		const cookies = jar.cookies();
		jar.values.set(NAME, '');
		jar.values.set(`${NAME}.0`, '');
		expect(getChunkedCookie(cookies, NAME)).toBeUndefined();
	});

	it('deletes the plain cookie and every chunk', () => {
		const jar = new Jar();
		setChunkedCookie(jar.cookies(), NAME, 'x'.repeat(9_000), options);
		deleteChunkedCookie(jar.cookies(), NAME, options);
		expect(jar.values.size).toBe(0);
		expect(getChunkedCookie(jar.cookies(), NAME)).toBeUndefined();
	});
});
