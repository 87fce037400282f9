import { isHttpError, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectOf } from '../../test/event.js';
import { MemoryAdapter } from './adapters/memory.js';
import type { Adapter } from './adapters/types.js';
import type { JWT, SvelteKitAuthConfig } from './config.js';
import { AdapterError, CredentialsSignin, InvalidUrl, MissingAdapter, MissingSecret } from './errors.js';
import { encodeToken } from './session/jwt.js';
import { storedSessionKey } from './session/stored-key.js';
import { SvelteKitAuth } from './kit.js';
import Credentials from './providers/credentials.js';
import GitHub from './providers/github.js';
import Idp from './providers/idp.js';

const secret = 's'.repeat(32);
const T0 = Date.parse('2025-01-01T00:00:00Z');
const DAY = 86_400;
const alice = { id: 'u1', name: 'Alice', email: 'alice@example.com', image: null };

/** A RequestEvent with an in-memory cookie jar that records every write. */
function fakeEvent(url = 'http://localhost/signin', jar: Record<string, string> = {}, form?: Record<string, string>) {
	const writes: { name: string; value: string; options: Record<string, unknown> }[] = [];
	const cookies = {
		get: vi.fn((name: string) => jar[name]),
		set: (name: string, value: string, options: Record<string, unknown>) => {
			writes.push({ name, value, options });
			jar[name] = value;
		},
		delete: (name: string, options: Record<string, unknown>) => {
			writes.push({ name, value: '', options: { ...options, maxAge: 0 } });
			delete jar[name];
		}
	};
	const body = form ? new URLSearchParams(form) : undefined;
	const request = new Request(url, { method: form ? 'POST' : 'GET', body });
	const event = { url: new URL(url), request, cookies: cookies as unknown as Cookies, locals: {} } as unknown as RequestEvent;
	const auth = () => (event.locals as unknown as { auth: () => Promise<unknown> }).auth();
	return { event, jar, writes, cookies, auth };
}

const logger = { error: vi.fn() };
const authorize = vi.fn(async (credentials: Partial<Record<string, unknown>>) =>
	credentials.password === 'right' ? alice : null
);
const config = (extra: Partial<SvelteKitAuthConfig> = {}): SvelteKitAuthConfig => ({
	secret,
	logger,
	providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })],
	...extra
});

async function runHandle(auth: ReturnType<typeof SvelteKitAuth>, event: RequestEvent) {
	await auth.handle({ event, resolve: async () => new Response('ok') });
}


beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(T0);
	logger.error.mockClear();
	authorize.mockClear();
});
afterEach(() => vi.useRealTimers());

async function signedInJar(extra: Partial<SvelteKitAuthConfig> = {}) {
	const auth = SvelteKitAuth(config(extra));
	const { event, jar } = fakeEvent('http://localhost/signin', {}, { email: 'alice@example.com', password: 'right' });
	await redirectOf(() => auth.signIn(event));
	return { auth, jar };
}

describe('SvelteKitAuth construction', () => {
	it.each([
		['no secret', { secret: undefined }],
		['a 31-character secret', { secret: 'x'.repeat(31) }],
		['a short rotated secret', { secret: [secret, 'short'] }]
	])('throws MissingSecret for %s', (_, extra) => {
		expect(() => SvelteKitAuth(config(extra))).toThrow(MissingSecret);
	});

	it('does not read AUTH_SECRET from process.env: the app hands it in', () => {
		vi.stubEnv('AUTH_SECRET', secret);
		expect(() => SvelteKitAuth(config({ secret: undefined }))).toThrow(MissingSecret);
		vi.unstubAllEnvs();
	});

	it('waits for the first request to check the config while the app is building', async () => {
		const auth = SvelteKitAuth(config({ secret: undefined }), { building: true });
		const { event, auth: read } = fakeEvent();
		await runHandle(auth, event);
		await expect(read()).rejects.toBeInstanceOf(MissingSecret);
	});

	it.each(['not a url', '/relative'])('throws InvalidUrl for url %j', (url) => {
		expect(() => SvelteKitAuth(config({ url }))).toThrow(InvalidUrl);
	});

	it('treats an empty url (AUTH_URL set but blank) as not given', () => {
		expect(() => SvelteKitAuth(config({ url: '' }))).not.toThrow();
	});

	it('throws MissingAdapter for the database strategy without an adapter', () => {
		expect(() => SvelteKitAuth(config({ session: { strategy: 'database' } }))).toThrow(MissingAdapter);
	});

	it('defers a function config to the first request, and throws MissingSecret there', async () => {
		const auth = SvelteKitAuth(() => config({ secret: 'short' }));
		const { event, auth: read } = fakeEvent();
		await runHandle(auth, event);
		await expect(read()).rejects.toBeInstanceOf(MissingSecret);
	});
});

describe('handle and locals.auth()', () => {
	it('does not touch cookies for a request that never calls locals.auth()', async () => {
		const { event, cookies } = fakeEvent();
		await runHandle(SvelteKitAuth(config()), event);
		expect(cookies.get).not.toHaveBeenCalled();
	});

	it('returns null with no cookie and sets none', async () => {
		const { event, auth, writes } = fakeEvent();
		await runHandle(SvelteKitAuth(config()), event);
		expect(await auth()).toBeNull();
		expect(writes).toEqual([]);
	});

	it('decodes the session once per request, however often it is called, without re-issuing a fresh cookie', async () => {
		const { auth, jar } = await signedInJar();
		const { event, auth: read, writes, cookies } = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, event);
		const [a, b] = await Promise.all([read(), read()]);
		expect(a).toEqual({ user: { id: 'u1', name: 'Alice', email: 'alice@example.com', image: null }, expires: '2025-01-31T00:00:00.000Z' });
		expect(b).toBe(a);
		expect(cookies.get).toHaveBeenCalledTimes(1);
		expect(writes).toEqual([]);
	});

	it('re-issues the cookie with a new expiry once the token is older than updateAge', async () => {
		const { auth, jar } = await signedInJar();
		vi.setSystemTime(T0 + (DAY + 1) * 1000);
		const { event, auth: read, writes } = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, event);
		expect(await read()).toMatchObject({ expires: '2025-02-01T00:00:01.000Z' });
		expect(writes).toHaveLength(1);
		expect(writes[0]).toMatchObject({ name: 'auth.session-token', options: { maxAge: 30 * DAY } });
	});

	it('re-issues the cookie when the jwt callback returns a new token, and keeps it otherwise', async () => {
		const { jar } = await signedInJar();
		for (const [jwt, expectedWrites] of [
			[({ token }: { token: JWT }) => token, 0],
			[({ token }: { token: JWT }) => ({ ...token, role: 'admin' }), 1]
		] as const) {
			const auth = SvelteKitAuth(config({ callbacks: { jwt } }));
			const { event, auth: read, writes } = fakeEvent('http://localhost/', { ...jar });
			await runHandle(auth, event);
			expect(await read()).not.toBeNull();
			expect(writes).toHaveLength(expectedWrites);
		}
	});

	it('shapes the session with the session callback', async () => {
		const { jar } = await signedInJar();
		const auth = SvelteKitAuth(config({ callbacks: { session: ({ session, token }) => ({ ...session, user: { id: token?.sub } }) } }));
		const { event, auth: read } = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, event);
		expect(await read()).toEqual({ user: { id: 'u1' }, expires: '2025-01-31T00:00:00.000Z' });
	});

	it.each([
		['garbage', async () => 'garbage'],
		['a token made with another secret', async () => encodeToken({ sub: 'u1' }, 'o'.repeat(32), 60, T0 / 1000)],
		['an expired token', async () => encodeToken({ sub: 'u1' }, secret, -60, T0 / 1000)]
	])('treats %s as signed out and deletes the cookie', async (_, make) => {
		const { event, auth: read, writes } = fakeEvent('http://localhost/', { 'auth.session-token': await make() });
		await runHandle(SvelteKitAuth(config()), event);
		expect(await read()).toBeNull();
		expect(writes).toEqual([{ name: 'auth.session-token', value: '', options: expect.objectContaining({ path: '/', maxAge: 0 }) }]);
	});

	it('accepts a cookie made with an older rotated secret', async () => {
		const { jar } = await signedInJar();
		const auth = SvelteKitAuth(config({ secret: ['n'.repeat(32), secret] }));
		const { event, auth: read } = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, event);
		expect(await read()).toMatchObject({ user: { id: 'u1' } });
	});

	it('logs and returns null when a callback throws', async () => {
		const { jar } = await signedInJar();
		const auth = SvelteKitAuth(config({ callbacks: { jwt: () => { throw new Error('boom'); } } }));
		const { event, auth: read } = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, event);
		expect(await read()).toBeNull();
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'JWTSessionError' }));
	});
});

describe('signIn action', () => {
	it('sets a secure httpOnly Lax cookie and redirects to the validated target', async () => {
		const auth = SvelteKitAuth(config());
		const { event, writes } = fakeEvent('https://app.example/signin', {}, { email: 'a', password: 'right', redirectTo: '/account' });
		expect(await redirectOf(() => auth.signIn(event))).toEqual({ status: 303, location: '/account' });
		expect(writes).toHaveLength(1);
		expect(writes[0]).toMatchObject({
			name: '__Host-auth.session-token',
			options: { path: '/', httpOnly: true, sameSite: 'lax', secure: true, maxAge: 30 * DAY }
		});
		expect(authorize).toHaveBeenCalledWith({ email: 'a', password: 'right' }, event.request);
	});

	it.each([
		['redirectTo', { redirectTo: '/a' }, '', '/a'],
		['legacy callbackUrl field', { callbackUrl: '/b' }, '', '/b'],
		['callbackUrl in the page URL', {}, '?callbackUrl=%2Fc', '/c'],
		['an off-site redirectTo', { redirectTo: 'https://evil.example/' }, '', '/'],
		['//evil', { redirectTo: '//evil.example' }, '', '/'],
		['no target', {}, '', '/'],
		['the empty fields <SignIn> posts without props', { providerId: '', redirectTo: '' }, '?callbackUrl=%2Fc', '/c']
	])('redirects after sign-in using %s', async (_, fields, query, location) => {
		const auth = SvelteKitAuth(config());
		const { event } = fakeEvent(`http://localhost/signin${query}`, {}, { password: 'right', ...fields });
		expect(await redirectOf(() => auth.signIn(event))).toEqual({ status: 303, location });
	});

	it.each([
		['an absolute URL on the request origin, with trustHost', { trustHost: true }, 'http://localhost/x', '/x'],
		['an absolute URL on the request origin, without trustHost', {}, 'http://localhost/x', '/'],
		['an absolute URL on AUTH_URL, behind a proxy', { trustHost: true, url: 'https://app.example/base' }, 'https://app.example/x?y=1', '/x?y=1'],
		['the internal origin once AUTH_URL names another', { trustHost: true, url: 'https://app.example' }, 'http://localhost/x', '/']
	])('checks %s', async (_, extra, redirectTo, location) => {
		const auth = SvelteKitAuth(config(extra));
		const { event } = fakeEvent('http://localhost/signin', {}, { password: 'right', redirectTo });
		expect(await redirectOf(() => auth.signIn(event))).toEqual({ status: 303, location });
	});

	class LockedOut extends CredentialsSignin {
		override code = 'locked';
	}
	it.each([
		['authorize() returning null', { password: 'wrong' }, undefined, '/signin?error=CredentialsSignin&code=credentials'],
		['a thrown CredentialsSignin subclass', { password: 'x' }, new LockedOut(), '/signin?error=CredentialsSignin&code=locked'],
		['any other error', { password: 'x' }, new Error('db down at 10.0.0.1'), '/signin?error=CallbackRouteError'],
		['an unknown provider', { providerId: 'nope', password: 'right' }, undefined, '/signin?error=InvalidProvider'],
		['keeping the callbackUrl', { password: 'wrong', redirectTo: '/account' }, undefined, '/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2Faccount']
	])('sends the user back to the sign-in page for %s, logging the full error', async (_, form, thrown, location) => {
		if (thrown) authorize.mockRejectedValueOnce(thrown);
		const auth = SvelteKitAuth(config());
		const { event, writes } = fakeEvent('http://localhost/signin', {}, form);
		expect(await redirectOf(() => auth.signIn(event))).toEqual({ status: 303, location });
		expect(writes).toEqual([]);
		expect(logger.error).toHaveBeenCalledTimes(1);
	});

	it('requires providerId when there are several providers', async () => {
		const second = Credentials({ id: 'other', credentials: {}, authorize });
		const auth = SvelteKitAuth(config({ providers: [config().providers[0]!, second] }));
		const { event } = fakeEvent('http://localhost/signin', {}, { password: 'right' });
		expect(await redirectOf(() => auth.signIn(event))).toMatchObject({ location: '/signin?error=InvalidProvider' });
		const { event: named } = fakeEvent('http://localhost/signin', {}, { providerId: 'other', password: 'right' });
		expect(await redirectOf(() => auth.signIn(named))).toMatchObject({ location: '/' });
	});

	it('uses a custom sign-in page and honours a signIn callback refusal', async () => {
		const auth = SvelteKitAuth(config({ pages: { signIn: '/login' }, callbacks: { signIn: () => false } }));
		const { event, writes } = fakeEvent('http://localhost/login', {}, { password: 'right' });
		expect(await redirectOf(() => auth.signIn(event))).toMatchObject({ location: '/login?error=AccessDenied' });
		expect(writes).toEqual([]);
	});

	it('passes user, account and trigger to the jwt callback at sign-in', async () => {
		const jwt = vi.fn(({ token }) => token);
		const auth = SvelteKitAuth(config({ callbacks: { jwt } }));
		const { event } = fakeEvent('http://localhost/signin', {}, { password: 'right' });
		await redirectOf(() => auth.signIn(event));
		expect(jwt).toHaveBeenCalledWith({
			token: { sub: 'u1', name: 'Alice', email: 'alice@example.com', picture: null, auth_time: expect.any(Number) },
			user: alice,
			account: { type: 'credentials', provider: 'credentials', providerAccountId: 'u1' },
			trigger: 'signIn'
		});
	});
});

describe('signOut action', () => {
	it('deletes the cookie and redirects to the validated redirectTo', async () => {
		const { auth, jar } = await signedInJar();
		for (const [redirectTo, location] of [['/bye', '/bye'], ['https://evil.example', '/']] as const) {
			const { event, writes } = fakeEvent('http://localhost/signout', { ...jar }, { redirectTo });
			expect(await redirectOf(() => auth.signOut(event))).toEqual({ status: 303, location });
			expect(writes).toEqual([{ name: 'auth.session-token', value: '', options: expect.objectContaining({ maxAge: 0 }) }]);
		}
	});
});

describe('database strategy', () => {
	/** The memory adapter with alice in it, and a switch that makes every call fail, as a store that is down. */
	async function store() {
		const memory = MemoryAdapter();
		await memory.createUser({ ...alice, emailVerified: null });
		let down = false;
		const adapter = Object.fromEntries(
			Object.entries(memory).map(([name, method]) => [
				name,
				vi.fn(async (...args: unknown[]) => {
					if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
					return (method as (...a: unknown[]) => unknown)(...args);
				})
			])
		) as unknown as Required<Adapter>;
		return { adapter, setDown: (value: boolean) => (down = value) };
	}
	const signInWith = async (auth: ReturnType<typeof SvelteKitAuth>) => {
		const { event, jar } = fakeEvent('http://localhost/signin', {}, { password: 'right' });
		return { location: (await redirectOf(() => auth.signIn(event))).location, jar };
	};
	const readWith = async (auth: ReturnType<typeof SvelteKitAuth>, jar: Record<string, string>) => {
		const request = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, request.event);
		return { session: await request.auth(), writes: request.writes, request };
	};

	it('stores a session row under a 256-bit random token, reads it with one query per request, and deletes it at sign-out', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const { jar } = await signInWith(auth);
		const token = jar['auth.session-token']!;
		// 43 base64url characters of randomness, then the sign-in time (epoch seconds), for the re-authentication check.
		expect(token).toBe(`${token.slice(0, 43)}.${T0 / 1000}`);
		expect(token.slice(0, 43)).toMatch(/^[\w-]{43}$/);
		const key = storedSessionKey(token);
		// With the sign-in's details (create-auth's columns): when, and the browser and address (this fake request has neither).
		expect((await adapter.getSessionAndUser(key))?.session).toEqual({
			sessionToken: key,
			userId: 'u1',
			expires: new Date(T0 + 30 * DAY * 1000),
			createdAt: new Date(T0),
			userAgent: null,
			ipAddress: null
		});
		vi.mocked(adapter.getSessionAndUser).mockClear();

		const { session, writes, request } = await readWith(auth, jar);
		expect({ session, writes }).toEqual({ session: { user: alice, expires: '2025-01-31T00:00:00.000Z' }, writes: [] });
		await request.auth();
		expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);

		const out = fakeEvent('http://localhost/signout', { ...jar }, {});
		await redirectOf(() => auth.signOut(out.event));
		expect(await adapter.getSessionAndUser(key)).toBeNull();
		expect(out.jar['auth.session-token']).toBeUndefined();
	});

	// Attack: the sessions table is read (a leaked backup, SQL injection, a support tool; OWASP
	// ASVS 5.0 V7 session management, Lucia's session guide): its values must not be cookies.
	it('stores no cookie: the row holds the token\'s SHA-256, and the stored value presented as a cookie signs no one in', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const { jar } = await signInWith(auth);
		const token = jar['auth.session-token']!;
		const [stored] = vi.mocked(adapter.createSession).mock.calls.map(([row]) => row.sessionToken);
		expect(stored).not.toBe(token);
		expect(stored).not.toContain(token);
		expect(await adapter.getSessionAndUser(token)).toBeNull();

		const stolen = await readWith(auth, { 'auth.session-token': stored! });
		expect(stolen.session).toBeNull();
		expect((await readWith(auth, jar)).session).toEqual({ user: alice, expires: '2025-01-31T00:00:00.000Z' });
	});

	it('keeps a session stored before 0.2.0 (under the raw token) signed in, once, and moves its row under the hash', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const legacy = 'A'.repeat(43);
		const expires = new Date(T0 + 10 * DAY * 1000);
		await adapter.createSession({ sessionToken: legacy, userId: 'u1', expires });

		// Read a day later than it was last extended: extended as any session is (maxAge 30 days).
		const extended = { user: alice, expires: '2025-01-31T00:00:00.000Z' };
		const first = await readWith(auth, { 'auth.session-token': legacy });
		expect(first.session).toEqual(extended);
		expect(await adapter.getSessionAndUser(legacy)).toBeNull();
		expect((await adapter.getSessionAndUser(storedSessionKey(legacy)))?.session).toMatchObject({ sessionToken: storedSessionKey(legacy), userId: 'u1', expires: new Date(extended.expires) });
		vi.mocked(adapter.getSessionAndUser).mockClear();
		expect((await readWith(auth, { 'auth.session-token': legacy })).session).toEqual(extended);
		expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);
	});

	it('never looks a stored key up as a raw token, so a key read from the table finds no row, moved or not', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const { jar } = await signInWith(auth);
		const key = storedSessionKey(jar['auth.session-token']!);
		vi.mocked(adapter.getSessionAndUser).mockClear();
		expect((await readWith(auth, { 'auth.session-token': key })).session).toBeNull();
		expect(vi.mocked(adapter.getSessionAndUser).mock.calls).toEqual([[storedSessionKey(key)]]);
	});

	it('extends a live session by maxAge at most once per updateAge', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database', maxAge: 7 * DAY, updateAge: DAY } }));
		const { jar } = await signInWith(auth);
		vi.setSystemTime(T0 + DAY * 1000 - 1000);
		expect((await readWith(auth, jar)).writes).toEqual([]);
		vi.setSystemTime(T0 + DAY * 1000);
		const extended = await readWith(auth, jar);
		expect(extended.session).toMatchObject({ expires: new Date(T0 + 8 * DAY * 1000).toISOString() });
		expect(extended.writes).toEqual([expect.objectContaining({ name: 'auth.session-token', options: expect.objectContaining({ maxAge: 7 * DAY, httpOnly: true }) })]);
		vi.setSystemTime(T0 + 2 * DAY * 1000 - 1000);
		expect((await readWith(auth, jar)).writes).toEqual([]);
		expect(adapter.updateSession).toHaveBeenCalledTimes(1);
		vi.setSystemTime(T0 + 2 * DAY * 1000);
		expect((await readWith(auth, jar)).session).toMatchObject({ expires: new Date(T0 + 9 * DAY * 1000).toISOString() });
		expect(adapter.updateSession).toHaveBeenCalledTimes(2);
	});

	it('signs out a session read after its expiry: the row and the cookie are deleted', async () => {
		const { adapter } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database', maxAge: DAY } }));
		const { jar } = await signInWith(auth);
		const token = jar['auth.session-token']!;
		vi.setSystemTime(T0 + DAY * 1000 + 1);
		const { session, writes } = await readWith(auth, jar);
		expect(session).toBeNull();
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).toBeNull();
		expect(writes).toEqual([expect.objectContaining({ name: 'auth.session-token', value: '' })]);
	});

	it('answers 503 while the store is down, keeps the cookie, logs the cause, and recovers by itself', async () => {
		const { adapter, setDown } = await store();
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const { jar } = await signInWith(auth);
		setDown(true);
		const request = fakeEvent('http://localhost/', { ...jar });
		await runHandle(auth, request.event);
		const failure = await request.auth().catch((err: unknown) => err);
		expect(isHttpError(failure) && failure.status).toBe(503);
		expect(isHttpError(failure) && failure.body.message).toMatch(/unavailable/);
		expect(request.writes).toEqual([]);
		expect(logger.error).toHaveBeenCalledWith(expect.any(AdapterError));
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(/getSessionAndUser\(\) failed: connect ECONNREFUSED/);
		setDown(false);
		expect((await readWith(auth, jar)).session).toMatchObject({ user: alice });
	});

	it('ends a sign-in while the store is down on the sign-in page with ?error=AdapterError, setting no cookie', async () => {
		const { adapter, setDown } = await store();
		setDown(true);
		const auth = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
		const { location, jar } = await signInWith(auth);
		expect(location).toBe('/signin?error=AdapterError');
		expect(jar).toEqual({});
	});

	describe('with session.cacheMaxAge', () => {
		const cached = (extra: Partial<NonNullable<SvelteKitAuthConfig['session']>> = {}) => ({ strategy: 'database', cacheMaxAge: 30, ...extra }) as const;

		it('reads the adapter once per cacheMaxAge seconds, where without it every request reads it', async () => {
			const { adapter } = await store();
			const uncached = SvelteKitAuth(config({ adapter, session: { strategy: 'database' } }));
			const { jar } = await signInWith(uncached);
			for (let i = 0; i < 3; i++) await readWith(uncached, jar);
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(3);

			vi.mocked(adapter.getSessionAndUser).mockClear();
			const auth = SvelteKitAuth(config({ adapter, session: cached() }));
			for (let i = 0; i < 3; i++) expect((await readWith(auth, jar)).session).toEqual({ user: alice, expires: '2025-01-31T00:00:00.000Z' });
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);
			vi.setSystemTime(T0 + 29_999);
			await readWith(auth, jar);
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);
			vi.setSystemTime(T0 + 30_000);
			await readWith(auth, jar);
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(2);
		});

		it('a sign-out in this process ends the session at once, also for a copy of the cookie', async () => {
			const { adapter } = await store();
			const auth = SvelteKitAuth(config({ adapter, session: cached() }));
			const { jar } = await signInWith(auth);
			expect((await readWith(auth, jar)).session).toMatchObject({ user: alice });
			await redirectOf(() => auth.signOut(fakeEvent('http://localhost/signout', { ...jar }, {}).event));
			expect((await readWith(auth, jar)).session).toBeNull();
		});

		it('a session deleted elsewhere (another server, the database) stays valid here for at most cacheMaxAge seconds', async () => {
			const { adapter } = await store();
			const auth = SvelteKitAuth(config({ adapter, session: cached() }));
			const { jar } = await signInWith(auth);
			await readWith(auth, jar);
			await adapter.deleteSession(storedSessionKey(jar['auth.session-token']!));
			vi.setSystemTime(T0 + 29_000);
			expect((await readWith(auth, jar)).session).toMatchObject({ user: alice });
			vi.setSystemTime(T0 + 30_000);
			expect((await readWith(auth, jar)).session).toBeNull();
		});

		it('still ends a cached session at its expiry, deleting the row', async () => {
			const { adapter } = await store();
			const auth = SvelteKitAuth(config({ adapter, session: cached({ maxAge: DAY }) }));
			const { jar } = await signInWith(auth);
			vi.setSystemTime(T0 + DAY * 1000 - 10_000);
			expect((await readWith(auth, jar)).session).toMatchObject({ user: alice });
			vi.setSystemTime(T0 + DAY * 1000);
			expect((await readWith(auth, jar)).session).toBeNull();
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);
			expect(await adapter.getSessionAndUser(storedSessionKey(jar['auth.session-token']!))).toBeNull();
		});

		it('extends a cached session once per updateAge and serves the new expiry', async () => {
			const { adapter } = await store();
			const auth = SvelteKitAuth(config({ adapter, session: cached({ maxAge: 7 * DAY, updateAge: DAY }) }));
			const { jar } = await signInWith(auth);
			vi.setSystemTime(T0 + DAY * 1000);
			expect((await readWith(auth, jar)).session).toMatchObject({ expires: new Date(T0 + 8 * DAY * 1000).toISOString() });
			vi.setSystemTime(T0 + DAY * 1000 + 10_000);
			const again = await readWith(auth, jar);
			expect(again).toMatchObject({ session: { expires: new Date(T0 + 8 * DAY * 1000).toISOString() }, writes: [] });
			expect(adapter.getSessionAndUser).toHaveBeenCalledTimes(1);
			expect(adapter.updateSession).toHaveBeenCalledTimes(1);
		});

		it('hands the session callback a copy: changing its user does not change the next read', async () => {
			const { adapter } = await store();
			const session = vi.fn(({ session, user }) => {
				user.name = 'Mallory';
				return session;
			});
			const auth = SvelteKitAuth(config({ adapter, session: cached(), callbacks: { session } }));
			const { jar } = await signInWith(auth);
			await readWith(auth, jar);
			await readWith(auth, jar);
			expect(session.mock.calls.map(([{ user }]) => user.id)).toEqual(['u1', 'u1']);
			expect(session.mock.calls[1]![0].session.user.name).toBe('Alice');
		});
	});

	it('fails an operation whose adapter method is missing with MissingAdapter naming it, a configuration error', async () => {
		const { adapter } = await store();
		const { createSession: _, ...partial } = adapter;
		const auth = SvelteKitAuth(config({ adapter: partial, session: { strategy: 'database' } }));
		const { location } = await signInWith(auth);
		expect(location).toBe('/signin?error=MissingAdapter');
		expect(logger.error.mock.calls.at(-1)![0]).toBeInstanceOf(MissingAdapter);
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(/createSession\(\)/);
	});
});

describe('getProviders', () => {
	it('lists each provider without secrets, with its sign-in page, callback URL (AUTH_URL origin) and style', async () => {
		const github = GitHub({ clientId: 'id', clientSecret: 'do-not-leak' });
		const auth = SvelteKitAuth(config({ url: 'https://app.example/base', providers: [github, config().providers[0]!] }));
		const list = await auth.getProviders(fakeEvent('http://internal:3000/signin').event);
		expect(list).toEqual([
			{ id: 'github', name: 'GitHub', type: 'oauth', signinUrl: '/signin', callbackUrl: 'https://app.example/auth/callback/github', style: { brandColor: '#24292f' } },
			{ id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: '/signin', callbackUrl: 'https://app.example/auth/callback/credentials' }
		]);
		expect(JSON.stringify(list)).not.toContain('do-not-leak');
	});

	it("names the redirect proxy's callback URL, the one to register, when sign-ins go through one", async () => {
		const github = GitHub({ clientId: 'id', clientSecret: 's' });
		const auth = SvelteKitAuth(config({ url: 'https://pr-7.preview.example', redirectProxyUrl: 'https://app.example/auth/', providers: [github] }));
		const [listed] = await auth.getProviders(fakeEvent('https://pr-7.preview.example/signin').event);
		expect(listed!.callbackUrl).toBe('https://app.example/auth/callback/github');
	});
});

describe('an OAuth provider whose settings are still empty (a fresh .env)', () => {
	const unconfigured = () => Idp({ issuer: undefined, clientId: undefined, clientSecret: undefined, tenantId: undefined });

	it('is named in one line, once per process, and the rest of the app works', async () => {
		const quiet = { error: vi.fn(), warn: vi.fn() };
		const auth = SvelteKitAuth(config({ logger: quiet, providers: [config().providers[0]!, unconfigured()] }));
		expect(quiet.error).not.toHaveBeenCalled();
		expect(quiet.warn.mock.calls).toEqual([[expect.stringMatching(/^InvalidProvider: Provider "idp" has no clientId and no issuer: .*\.env\)\.$/)]]);
		// A lazy config is resolved on every request: the line is not said again.
		const lazy = SvelteKitAuth(async () => config({ logger: quiet, providers: [unconfigured()] }));
		for (let request = 0; request < 3; request++) await lazy.getProviders(fakeEvent('http://localhost/signin').event);
		SvelteKitAuth(config({ logger: quiet, providers: [unconfigured()] }));
		expect(quiet.warn).toHaveBeenCalledTimes(1);
		const { event } = fakeEvent('http://localhost/signin', {}, { providerId: 'credentials', email: 'a@b.c', password: 'right' });
		expect(await redirectOf(() => auth.signIn(event))).toMatchObject({ status: 303, location: '/' });
	});

	it('gets no button: getProviders() leaves it out until its keys are set', async () => {
		const listed = async (...providers: ReturnType<typeof unconfigured>[]) =>
			(await SvelteKitAuth(config({ providers: [config().providers[0]!, ...providers] })).getProviders(fakeEvent('http://localhost/signin').event)).map(({ id }) => id);
		expect(await listed(unconfigured())).toEqual(['credentials']);
		expect(await listed(Idp({ issuer: 'https://idp.example', clientId: 'id', clientSecret: 's', tenantId: undefined }))).toEqual(['credentials', 'idp']);
	});

	it('a sign-in through it ends on the sign-in page with an error, not a 500', async () => {
		const auth = SvelteKitAuth(config({ trustHost: true, providers: [unconfigured()] }));
		const { event } = fakeEvent('http://localhost/signin', {}, { providerId: 'idp' });
		const { status, location } = await redirectOf(() => auth.signIn(event));
		expect(status).toBe(303);
		expect(location).toMatch(/^\/signin\?error=/);
	});
});
