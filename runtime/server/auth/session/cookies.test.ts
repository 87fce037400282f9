import { describe, expect, it, vi } from 'vitest';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { MemoryAdapter } from '../adapters/memory.js';
import { SvelteKitAuth } from '../kit.js';
import Credentials from '../providers/credentials.js';
import { authCookie, deleteChunkedCookie, getChunkedCookie, previousCookieName, setChunkedCookie } from './cookies.js';
import { encodeToken } from './jwt.js';

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

describe('cookie names (RFC 6265bis §4.1.3)', () => {
	const https = new URL('https://app.example/signin');
	const http = new URL('http://127.0.0.1:5173/signin');

	it('prefixes a Path=/ cookie over https with __Host- (Secure, Path=/, no Domain)', () => {
		const { name, options } = authCookie(https, undefined, 'session-token');
		expect(name).toBe('__Host-auth.session-token');
		expect(options).toEqual({ path: '/', httpOnly: true, secure: true, sameSite: 'lax' });
		expect(options).not.toHaveProperty('domain');
	});

	it('keeps __Secure- for a cookie that needs another path (an OAuth flow under basePath), since __Host- requires Path=/', () => {
		expect(authCookie(https, undefined, 'oauth-flow', { path: '/base/auth' }).name).toBe('__Secure-auth.oauth-flow');
	});

	it('names cookies auth.<use> without a prefix over http, or when useSecureCookies is false', () => {
		expect(authCookie(http, undefined, 'session-token').name).toBe('auth.session-token');
		expect(authCookie(https, false, 'session-token').name).toBe('auth.session-token');
		expect(authCookie(http, true, 'session-token').name).toBe('__Host-auth.session-token');
	});

	it('knows the name a runtime before 0.2.0 gave a __Host- cookie, and no other', () => {
		expect(previousCookieName('__Host-auth.session-token')).toBe('__Secure-auth.session-token');
		expect(previousCookieName('__Secure-auth.oauth-flow')).toBeUndefined();
		expect(previousCookieName('auth.session-token')).toBeUndefined();
	});
});

/**
 * The upgrade to `__Host-`, through the real handle and actions: a browser that signed in under
 * `__Secure-auth.session-token` (a runtime before 0.2.0) stays signed in, its cookie is moved under
 * the new name at the first read, and no old cookie survives a sign-out (else it would sign the
 * user back in: OWASP ASVS 5.0 V7.4 session termination).
 */
describe('the session cookie through the upgrade to __Host-', () => {
	const secret = 's'.repeat(32);
	const OLD = '__Secure-auth.session-token';
	const NEW = '__Host-auth.session-token';
	const ada = { id: 'u1', name: 'Ada', email: 'ada@example.com', image: null };
	const provider = Credentials({ credentials: { email: {}, password: {} }, authorize: async () => ada });
	const logger = { error: vi.fn() };

	async function read(auth: ReturnType<typeof SvelteKitAuth>, jar: Jar) {
		const event = requestEvent('https://app.example/', jar);
		await auth.handle({ event, resolve: async () => new Response('ok') });
		return (event.locals as { auth: () => Promise<{ user?: { email?: string | null } } | null> }).auth();
	}
	const jwtToken = (claims: Record<string, unknown> = {}) =>
		encodeToken({ sub: 'u1', email: 'ada@example.com', ...claims }, secret, 3600, Math.floor(Date.now() / 1000));

	it('signs in under __Host-auth.session-token over https', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		await redirectOf(() => auth.signIn(requestEvent('https://app.example/signin', jar, { form: { password: 'x' } })));
		expect(jar.setSince(0)).toEqual([NEW]);
		expect(jar.writes[0]!.options).toMatchObject({ path: '/', secure: true, httpOnly: true });
	});

	it('JWT: reads the old __Secure- cookie once, sets it again as __Host- and deletes the old one', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		const token = await jwtToken();
		jar.values.set(OLD, token);
		expect((await read(auth, jar))?.user?.email).toBe('ada@example.com');
		expect([...jar.values]).toEqual([[NEW, token]]);
		expect(jar.writes).toContainEqual({ name: OLD, value: '', options: expect.objectContaining({ path: '/', maxAge: 0 }) });
		expect(jar.writes.find((write) => write.name === NEW)?.options).toMatchObject({ path: '/', secure: true, maxAge: 30 * 86_400 });
		const writes = jar.writes.length;
		expect((await read(auth, jar))?.user?.email).toBe('ada@example.com');
		expect(jar.writes.length).toBe(writes);
	});

	it('JWT: moves an old cookie split in chunks (.0, .1) and deletes every old chunk', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		const token = await jwtToken({ padding: 'p'.repeat(6000) });
		jar.values.set(`${OLD}.0`, token.slice(0, 3500));
		jar.values.set(`${OLD}.1`, token.slice(3500));
		expect((await read(auth, jar))?.user?.email).toBe('ada@example.com');
		const names = [...jar.values.keys()].sort();
		expect(names).toEqual(names.map((_, i) => `${NEW}.${i}`));
		expect(names.map((name) => jar.values.get(name)).join('')).toBe(token);
	});

	it('database: keeps a session whose cookie has the old name signed in, under the new name', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ ...ada, emailVerified: null });
		const auth = SvelteKitAuth({ secret, logger, providers: [provider], adapter, session: { strategy: 'database' } });
		const signIn = new Jar();
		await redirectOf(() => auth.signIn(requestEvent('https://app.example/signin', signIn, { form: { password: 'x' } })));
		const jar = new Jar();
		jar.values.set(OLD, signIn.values.get(NEW)!);
		expect((await read(auth, jar))?.user?.email).toBe('ada@example.com');
		expect([...jar.values]).toEqual([[NEW, signIn.values.get(NEW)]]);
		expect((await read(auth, jar))?.user?.email).toBe('ada@example.com');
	});

	it('a bad old cookie signs no one in and is deleted under both names', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		jar.values.set(OLD, 'garbage');
		expect(await read(auth, jar)).toBeNull();
		expect(jar.values.size).toBe(0);
	});

	it('sign-out deletes an old cookie left beside the new one, so it cannot sign the user back in', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		jar.values.set(OLD, await jwtToken());
		await redirectOf(() => auth.signIn(requestEvent('https://app.example/signin', jar, { form: { password: 'x' } })));
		await redirectOf(() => auth.signOut(requestEvent('https://app.example/signout', jar, { form: {} })));
		expect(jar.values.size).toBe(0);
		expect(await read(auth, jar)).toBeNull();
	});

	it('over http the cookie keeps its name auth.session-token, and nothing else is read', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [provider] });
		const jar = new Jar();
		jar.values.set(OLD, await jwtToken());
		const event = requestEvent('http://127.0.0.1/', jar);
		await auth.handle({ event, resolve: async () => new Response('ok') });
		expect(await (event.locals as { auth: () => Promise<unknown> }).auth()).toBeNull();
		jar.values.set('auth.session-token', await jwtToken());
		expect(await (event.locals as { auth: () => Promise<unknown> }).auth()).toBeNull(); // memoized per request
	});
});
