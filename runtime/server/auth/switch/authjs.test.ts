/**
 * Issue 29: an app switched from @auth/sveltekit keeps its users signed in. Auth.js's own code
 * makes the cookies (a real sign-in through `Auth()` from @auth/core, or its `encode`) and the
 * database rows (the memory adapter, and @auth/pg-adapter on PostgreSQL, as Auth.js writes them:
 * the raw token as `sessionToken`); our runtime reads them through `handle` and `locals.auth()`.
 */
import { hkdfSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Auth, type AuthConfig } from '@auth/core';
import { decode as authjsDecode, encode as authjsEncode } from '@auth/core/jwt';
import AuthjsCredentials from '@auth/core/providers/credentials';
import AuthjsPostgresAdapter from '@auth/pg-adapter';
import { EncryptJWT } from 'jose';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { AUTHJS_PG_SCHEMA, postgresScratch } from '../../../test/databases.js';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter, AdapterUser } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import { decodeToken } from '../session/jwt.js';
import { storedSessionKey } from '../session/stored-key.js';
import { authjsSessions } from './authjs.js';
import type { PreviousSessions } from './types.js';

const secret = 'a'.repeat(32);
const otherSecret = 'b'.repeat(32);
const logger = { error: vi.fn() };
const DAY = 86_400;
const HTTP = 'http://localhost:5173';
const HTTPS = 'https://app.example';
const SESSION_COOKIES = ['authjs.session-token', '__Secure-authjs.session-token'];

beforeEach(() => logger.error.mockClear());
afterEach(() => expect(logger.error).not.toHaveBeenCalled());

/** Our app after the switch: the same AUTH_SECRET, Auth.js's sessions honoured. */
function app(extra: Partial<SvelteKitAuthConfig> = {}) {
	return SvelteKitAuth({ secret, logger, providers: [], previousSessions: [authjsSessions()], ...extra });
}

/** One request through `handle`; what `locals.auth()` answers. */
async function visit(auth: ReturnType<typeof SvelteKitAuth>, jar: Jar, origin = HTTP) {
	const event = requestEvent(`${origin}/account`, jar);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return (event.locals as { auth(): Promise<Record<string, unknown> & { user?: Record<string, unknown> } | null> }).auth();
}

/** The Auth.js session cookies (whole or chunks) the jar still holds. */
const authjsCookies = (jar: Jar) => [...jar.values.keys()].filter((name) => SESSION_COOKIES.some((n) => name === n || name.startsWith(`${n}.`)));

/**
 * A browser signed in by Auth.js itself: @auth/core's `Auth()` with a credentials provider, the
 * CSRF round trip, the callback POST; the jar holds what Auth.js set (chunked when big).
 * `claims` are what its `jwt` callback adds at sign-in, as an app's callback would.
 */
async function authjsSignIn(origin: string, { claims = {}, authSecret = secret }: { claims?: Record<string, unknown>; authSecret?: string } = {}): Promise<Jar> {
	const config: AuthConfig = {
		secret: authSecret,
		trustHost: true,
		basePath: '/auth',
		logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
		providers: [
			AuthjsCredentials({
				credentials: { email: {}, password: {} },
				authorize: async (c) => (c.password === 'right' ? { id: 'u1', name: 'Ada', email: String(c.email), image: 'https://img.example/ada.png' } : null)
			})
		],
		callbacks: { jwt: ({ token, user }) => (user ? { ...token, ...claims } : token) }
	};
	const jar = new Jar();
	const csrf = await Auth(new Request(`${origin}/auth/csrf`), config);
	jar.receive(csrf);
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const cookie = [...jar.values].map(([name, value]) => `${name}=${value}`).join('; ');
	const body = new URLSearchParams({ csrfToken, email: 'ada@example.com', password: 'right' });
	const signedIn = await Auth(new Request(`${origin}/auth/callback/credentials`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body }), config);
	expect(signedIn.status).toBe(302);
	jar.receive(signedIn);
	expect(authjsCookies(jar).length).toBeGreaterThan(0);
	return jar;
}

/** A jar holding one Auth.js session cookie `name` = `value`. */
function jarWith(name: string, value: string): Jar {
	const jar = new Jar();
	jar.values.set(name, value);
	return jar;
}

/** Auth.js's `encode`, salt = the cookie name, as its `SvelteKitAuth` calls it. */
const encoded = (claims: Record<string, unknown>, { salt = 'authjs.session-token', key = secret, maxAge = 30 * DAY } = {}) =>
	authjsEncode({ token: claims, secret: key, salt, maxAge });

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('an Auth.js JWT session cookie', () => {
	beforeEach(() => freezeDate('2026-11-24T12:00:00Z'));

	it('keeps its user signed in with the same claims, under our cookie with our iat/exp, and is deleted', async () => {
		const jar = await authjsSignIn(HTTP, { claims: { role: 'admin' } });
		const auth = app({ callbacks: { session: ({ session, token }) => ({ ...session, role: token?.role }) } });
		const session = await visit(auth, jar);
		expect(session).toMatchObject({ user: { id: 'u1', name: 'Ada', email: 'ada@example.com', image: 'https://img.example/ada.png' }, role: 'admin' });
		expect(authjsCookies(jar)).toEqual([]);
		const now = Math.floor(Date.now() / 1000);
		expect(await decodeToken(jar.values.get('auth.session-token')!, [secret])).toMatchObject({ sub: 'u1', role: 'admin', iat: now, exp: now + 30 * DAY });

		// The next request reads our cookie only; the Auth.js one is gone from the browser.
		vi.setSystemTime(Date.now() + 60_000);
		expect(await visit(auth, jar)).toMatchObject({ user: { id: 'u1' }, role: 'admin' });
	});

	it('over https: a chunked __Secure- cookie is joined, and every chunk deleted with Secure', async () => {
		const jar = await authjsSignIn(HTTPS, { claims: { big: 'x'.repeat(5000) } });
		expect(authjsCookies(jar).sort()).toEqual(['__Secure-authjs.session-token.0', '__Secure-authjs.session-token.1']);
		const from = jar.writes.length;
		expect(await visit(app(), jar, HTTPS)).toMatchObject({ user: { id: 'u1', email: 'ada@example.com' } });
		expect(authjsCookies(jar)).toEqual([]);
		const deletions = jar.writes.slice(from).filter((w) => w.name.startsWith('__Secure-authjs.session-token'));
		expect(deletions).toHaveLength(2);
		for (const deletion of deletions) expect(deletion.options).toMatchObject({ maxAge: 0, path: '/', secure: true });
		expect(await decodeToken(jar.values.get('__Host-auth.session-token.0')! + jar.values.get('__Host-auth.session-token.1')!, [secret])).toMatchObject({ big: 'x'.repeat(5000) });
	});

	it('made with the previous AUTH_SECRET: read with the app secrets (rotation), or with the secret option', async () => {
		const jar = await authjsSignIn(HTTP, { authSecret: otherSecret });
		expect(await visit(app({ secret: [secret, otherSecret] }), jar)).toMatchObject({ user: { id: 'u1' } });
		const again = await authjsSignIn(HTTP, { authSecret: otherSecret });
		expect(await visit(app({ previousSessions: [authjsSessions({ secret: [undefined, otherSecret] })] }), again)).toMatchObject({ user: { id: 'u1' } });
	});

	it('with a custom cookie name: read under that name, its name the salt', async () => {
		const jar = jarWith('my-app.session', await encoded({ sub: 'u1', name: 'Ada' }, { salt: 'my-app.session' }));
		expect(await visit(app({ previousSessions: [authjsSessions({ cookieName: 'my-app.session' })] }), jar)).toMatchObject({ user: { id: 'u1' } });
		expect(jar.values.has('my-app.session')).toBe(false);
	});

	it('in A256GCM, as @auth/core 0.19 to 0.22 wrote them (and its decode still reads)', async () => {
		const salt = 'authjs.session-token';
		const key = new Uint8Array(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, 32));
		const value = await new EncryptJWT({ sub: 'u1', name: 'Ada' }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).setIssuedAt().setExpirationTime('1d').encrypt(key);
		expect(await authjsDecode({ token: value, secret, salt })).toMatchObject({ sub: 'u1' });
		expect(await visit(app(), jarWith(salt, value))).toMatchObject({ user: { id: 'u1', name: 'Ada' } });
	});

	it('continues as a database session when the app now uses one and the adapter knows its sub', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: new Date(), name: 'Ada' });
		const auth = app({ adapter, session: { strategy: 'database' } });
		const jar = await authjsSignIn(HTTP);
		expect(await visit(auth, jar)).toMatchObject({ user: { id: 'u1', email: 'ada@example.com' } });
		const token = jar.values.get('auth.session-token')!;
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).toMatchObject({ session: { userId: 'u1', expires: new Date(Date.now() + 30 * DAY * 1000) } });
		expect(authjsCookies(jar)).toEqual([]);

		// A sub the adapter does not know signs no one in.
		const stranger = jarWith('authjs.session-token', await encoded({ sub: 'u2', email: 'eve@example.com' }));
		expect(await visit(auth, stranger)).toBeNull();
		expect(authjsCookies(stranger)).toEqual([]);
	});

	it('marks an address the adapter says is unproven (email_verified: false), as a sign-in would', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null, name: 'Ada' });
		const jar = await authjsSignIn(HTTP);
		expect(await visit(app({ adapter }), jar)).toMatchObject({ user: { id: 'u1' } });
		expect(await decodeToken(jar.values.get('auth.session-token')!, [secret])).toMatchObject({ sub: 'u1', email_verified: false });
	});

	describe('signs no one in, deletes the cookie, throws and logs nothing, when it is', () => {
		const right = { sub: 'u1', name: 'Ada', email: 'ada@example.com' };
		const cases: Array<[string, () => Promise<Record<string, string>>]> = [
			// Forgery: someone without AUTH_SECRET encrypts their own claims.
			['forged with another key', async () => ({ 'authjs.session-token': await encoded(right, { key: otherSecret }) })],
			// Salt confusion: a value Auth.js made for another cookie name is not this cookie's.
			['encrypted for another cookie name (salt)', async () => ({ 'authjs.session-token': await encoded(right, { salt: '__Secure-authjs.session-token' }) })],
			// alg: none: an unsecured JWT (RFC 7519 §6) carries claims without any key.
			['an unsecured alg: none JWT', async () => ({ 'authjs.session-token': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...right, exp: 4e9 })}.` })],
			['a JWE-shaped value with alg: none', async () => ({ 'authjs.session-token': `${base64url({ alg: 'none', enc: 'A256CBC-HS512' })}.${['', 'aXY', 'Y3Q', 'dGFn'].join('.')}` })],
			[
				// Downgrade: an encryption Auth.js never accepts, with a key from its own derivation.
				'encrypted with A128CBC-HS256',
				async () => {
					const key = new Uint8Array(hkdfSync('sha256', secret, 'authjs.session-token', 'Auth.js Generated Encryption Key (authjs.session-token)', 32));
					return { 'authjs.session-token': await new EncryptJWT(right).setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' }).setExpirationTime('1d').encrypt(key) };
				}
			],
			[
				// A token that never expires: the right key, no exp.
				'without exp',
				async () => {
					const key = new Uint8Array(hkdfSync('sha256', secret, 'authjs.session-token', 'Auth.js Generated Encryption Key (authjs.session-token)', 64));
					return { 'authjs.session-token': await new EncryptJWT(right).setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' }).encrypt(key) };
				}
			],
			[
				'tampered (one ciphertext character changed)',
				async () => {
					const parts = (await encoded(right)).split('.');
					parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
					return { 'authjs.session-token': parts.join('.') };
				}
			],
			[
				'expired',
				async () => {
					const value = await encoded(right, { maxAge: 60 });
					vi.setSystemTime(Date.now() + 120_000);
					return { 'authjs.session-token': value };
				}
			],
			[
				// A chunk lost (the browser dropped it, or someone removed it): what is left is not the value.
				'chunked with a chunk missing',
				async () => {
					const value = await encoded({ ...right, big: 'x'.repeat(9000) });
					const size = 3936; // Auth.js's chunk size: 4096 - 160
					return { 'authjs.session-token.0': value.slice(0, size), 'authjs.session-token.2': value.slice(2 * size) };
				}
			],
			['not a token at all', async () => ({ 'authjs.session-token': 'garbage' })]
		];
		it.each(cases)('%s', async (_, make) => {
			const jar = new Jar();
			for (const [name, value] of Object.entries(await make())) jar.values.set(name, value);
			expect(await visit(app(), jar)).toBeNull();
			expect(authjsCookies(jar)).toEqual([]);
			expect(jar.values.has('auth.session-token')).toBe(false);
		});
	});
});

/** A store an Auth.js app used: rows written as Auth.js writes them. */
type Store = { adapter: Adapter & Required<Pick<Adapter, 'createUser' | 'createSession' | 'getSessionAndUser'>>; close(): Promise<void> };

const STORES: Array<[string, () => Promise<Store>]> = [
	['the memory adapter', async () => ({ adapter: MemoryAdapter(), close: async () => undefined })],
	[
		'@auth/pg-adapter on PostgreSQL',
		async () => {
			const scratch = await postgresScratch({ migrate: false });
			const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
			await pool.query(AUTHJS_PG_SCHEMA);
			return { adapter: AuthjsPostgresAdapter(pool) as Store['adapter'], close: async () => (await pool.end(), await scratch.drop()) };
		}
	]
];

describe.each(STORES)('an Auth.js database session, on %s', (_, open) => {
	let store: Store;
	let user: AdapterUser;
	beforeEach(async () => {
		store = await open();
		user = await store.adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: new Date(), name: 'Ada', image: null });
		return store.close;
	});

	/** A session as Auth.js's sign-in stores it (lib/actions/callback/handle-login.ts): a random UUID, raw. */
	async function authjsSession(expiresIn = 30 * DAY * 1000): Promise<{ token: string; jar: Jar }> {
		const token = crypto.randomUUID();
		await store.adapter.createSession({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + expiresIn) });
		return { token, jar: jarWith('authjs.session-token', token) };
	}

	it('keeps its user signed in; the row moves under a fresh token hashed; a replayed Auth.js cookie finds nothing', async () => {
		const auth = app({ adapter: store.adapter, session: { strategy: 'database' } });
		const { token, jar } = await authjsSession();
		expect(await visit(auth, jar)).toMatchObject({ user: { id: user.id, email: 'ada@example.com' } });
		const ours = jar.values.get('auth.session-token')!;
		expect(ours).not.toBe(token);
		expect(authjsCookies(jar)).toEqual([]);
		expect(await store.adapter.getSessionAndUser(token)).toBeNull();
		expect(await store.adapter.getSessionAndUser(storedSessionKey(ours))).toMatchObject({ session: { userId: user.id } });
		expect(await visit(auth, jar)).toMatchObject({ user: { id: user.id } });

		// Replay: the Auth.js cookie copied before the switch signs no one in any more.
		expect(await visit(auth, jarWith('authjs.session-token', token))).toBeNull();
	});

	it('finds a row create-auth switch copied under the hash of its token, and deletes it once read', async () => {
		const auth = app({ adapter: store.adapter, session: { strategy: 'database' } });
		const token = crypto.randomUUID();
		await store.adapter.createSession({ sessionToken: storedSessionKey(token), userId: user.id, expires: new Date(Date.now() + DAY * 1000) });
		const jar = jarWith('authjs.session-token', token);
		expect(await visit(auth, jar)).toMatchObject({ user: { id: user.id } });
		expect(await store.adapter.getSessionAndUser(storedSessionKey(token))).toBeNull();
		expect(authjsCookies(jar)).toEqual([]);
		expect(await visit(auth, jarWith('authjs.session-token', token))).toBeNull();
	});

	it('continues as a JWT session when the app now uses JWTs, through the jwt callback with the user', async () => {
		const jwt = vi.fn(({ token, user: u }) => (u ? { ...token, from: 'user' } : token));
		const auth = app({ adapter: store.adapter, callbacks: { jwt } });
		const { token, jar } = await authjsSession();
		expect(await visit(auth, jar)).toMatchObject({ user: { id: String(user.id), email: 'ada@example.com', name: 'Ada' } });
		expect(jwt.mock.calls[0]![0]).toMatchObject({ user: { id: user.id, email: 'ada@example.com' } });
		expect(await decodeToken(jar.values.get('auth.session-token')!, [secret])).toMatchObject({ from: 'user', email: 'ada@example.com' });
		expect(await store.adapter.getSessionAndUser(token)).toBeNull();
		expect(authjsCookies(jar)).toEqual([]);
	});

	it('signs no one in for an expired row (the row and the cookie deleted) or a token not in the table', async () => {
		const auth = app({ adapter: store.adapter, session: { strategy: 'database' } });
		const { token, jar } = await authjsSession(-1000);
		expect(await visit(auth, jar)).toBeNull();
		expect(await store.adapter.getSessionAndUser(token)).toBeNull();
		expect(authjsCookies(jar)).toEqual([]);
		const unknown = jarWith('authjs.session-token', crypto.randomUUID());
		expect(await visit(auth, unknown)).toBeNull();
		expect(authjsCookies(unknown)).toEqual([]);
	});

	// Table leak: whoever read the sessions table knows our rows' keys; presented as an Auth.js
	// cookie (looked up raw), a key must not find its own row.
	it('signs no one in for a stored key of ours presented as an Auth.js cookie, and leaves that row', async () => {
		const auth = app({ adapter: store.adapter, session: { strategy: 'database' } });
		const { jar } = await authjsSession();
		await visit(auth, jar);
		const key = storedSessionKey(jar.values.get('auth.session-token')!);
		expect(await visit(auth, jarWith('authjs.session-token', key))).toBeNull();
		expect(await store.adapter.getSessionAndUser(key)).toMatchObject({ session: { userId: user.id } });
	});

	it('ends at sign-out even when no page read it first (its row deleted)', async () => {
		const auth = app({ adapter: store.adapter, session: { strategy: 'database' } });
		const { token, jar } = await authjsSession();
		await redirectOf(() => auth.signOut(requestEvent(`${HTTP}/signout`, jar, { form: {} })));
		expect(authjsCookies(jar)).toEqual([]);
		expect(await store.adapter.getSessionAndUser(token)).toBeNull();
		expect(await visit(auth, jar)).toBeNull();
	});
});

describe('a store failure while reading an Auth.js database session', () => {
	it('is a 503 with the Auth.js cookie kept (and its row), so the session is back once the store is', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null });
		const token = crypto.randomUUID();
		await adapter.createSession({ sessionToken: token, userId: 'u1', expires: new Date(Date.now() + DAY * 1000) });
		let down = true;
		const flaky: Adapter = { ...adapter, getSessionAndUser: async (t) => (down ? Promise.reject(new Error('connection refused')) : adapter.getSessionAndUser(t)) };
		const auth = app({ adapter: flaky, session: { strategy: 'database' } });
		const jar = jarWith('authjs.session-token', token);
		await expect(visit(auth, jar)).rejects.toMatchObject({ status: 503 });
		expect(logger.error).toHaveBeenCalledTimes(1);
		logger.error.mockClear();
		expect(jar.values.get('authjs.session-token')).toBe(token);
		down = false;
		expect(await visit(auth, jar)).toMatchObject({ user: { id: 'u1' } });
		expect(authjsCookies(jar)).toEqual([]);
	});
});

describe('the cost to requests', () => {
	it('a request with our cookie never asks a reader; one without a cookie asks each once', async () => {
		const spy: PreviousSessions = { library: 'spy', read: vi.fn(async () => undefined) };
		const auth = app({ previousSessions: [spy] });
		const jar = await authjsSignIn(HTTP);
		await visit(app(), jar); // now holds our cookie only
		await visit(auth, jar);
		expect(spy.read).not.toHaveBeenCalled();
		await visit(auth, new Jar());
		expect(spy.read).toHaveBeenCalledTimes(1);
	});

	it('an app without previousSessions reads no cookie list at all', async () => {
		const jar = new Jar();
		const cookies = jar.cookies();
		const getAll = vi.spyOn(cookies, 'getAll');
		const event = { ...requestEvent(`${HTTP}/account`, jar), cookies };
		const auth = SvelteKitAuth({ secret, logger, providers: [] });
		await auth.handle({ event, resolve: async () => new Response('ok') });
		expect(await (event.locals as { auth(): Promise<unknown> }).auth()).toBeNull();
		expect(getAll).not.toHaveBeenCalled();
	});

	// An app is vendored what its files import (docs/architecture.md): the reader must come only
	// with the src/auth.ts that imports it, never through the session code.
	it('no runtime module imports switch/authjs.ts but the folder index, which nothing imports', () => {
		const root = fileURLToPath(new URL('..', import.meta.url));
		const modules = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
		const importing = (pattern: RegExp) => modules.filter((file) => pattern.test(readFileSync(join(root, file), 'utf8'))).map((file) => relative(root, join(root, file)));
		expect(importing(/from\s+['"][./]+(switch\/)?authjs\.js['"]/)).toEqual([join('switch', 'index.ts')]);
		expect(importing(/from\s+['"][./]+switch(\/index\.js)?['"]/)).toEqual([]);
	});
});
