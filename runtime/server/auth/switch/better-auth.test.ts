/**
 * Issue 29: an app switched from Better Auth keeps its users signed in. Better Auth itself makes
 * the cookies and the rows (`betterAuth()` on an in-memory SQLite database, its own migrations,
 * `signUpEmail` / `signInEmail`); `create-auth switch`'s copy (`copyBetterAuthData`) moves the
 * rows into create-auth's tables on the same database, read by our `SQLiteAdapter`; our runtime
 * reads the cookie through `handle` and `locals.auth()`.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyBetterAuthData } from '../../../../src/switch/better-auth-data.js';
import type { DataConnection } from '../../../../src/switch/data.js';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import { decodeToken } from '../session/jwt.js';
import { storedSessionKey } from '../session/stored-key.js';
import { betterAuthSessions } from './better-auth.js';

const secret = 'a'.repeat(32);
const BETTER_AUTH_SECRET = 'a-better-auth-secret-of-32-characters!';
const OTHER_SECRET = 'another-better-auth-secret-of-32-chars';
/** Better Auth's published development secret (better-auth context/create-context.ts). */
const DEFAULT_SECRET = 'better-auth-secret-12345678901234567890';
const HTTP = 'http://localhost:5173';
const HTTPS = 'https://app.example';
const PASSWORD = 'correct horse battery staple';
const logger = { error: vi.fn() };
const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

let db: Database.Database;
let adapter: Required<Adapter>;

beforeEach(async () => {
	logger.error.mockClear();
	warn.mockClear();
	db = new Database(':memory:');
	adapter = SQLiteAdapter({ database: db });
	await adapter.getUser('nobody'); // creates create-auth's tables, as the app's first request does
});
afterEach(() => {
	expect(logger.error).not.toHaveBeenCalled();
	db.close();
});

/** create-auth switch's connection to the app's SQLite database (here the same in-memory one). */
const connection = (): DataConnection => ({
	dialect: 'sqlite',
	async query(text, params = []) {
		const statement = db.prepare(text);
		if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
		statement.run(...params);
		return [];
	}
});

/** Better Auth on the test's database, as the app ran it before the switch; its tables made by its own migrations once. */
async function betterAuthApp(options: { baseURL?: string; secret?: string; cookiePrefix?: string; cookieCache?: boolean } = {}) {
	const auth = betterAuth({
		database: db,
		secret: options.secret ?? BETTER_AUTH_SECRET,
		baseURL: options.baseURL ?? HTTP,
		emailAndPassword: { enabled: true },
		logger: { disabled: true },
		advanced: options.cookiePrefix ? { cookiePrefix: options.cookiePrefix } : {},
		session: options.cookieCache ? { cookieCache: { enabled: true } } : {}
	});
	await (await getMigrations(auth.options)).runMigrations();
	return auth;
}

/**
 * A browser's jar after Better Auth's response: its Set-Cookie values as SvelteKit's `cookies`
 * hand them to the runtime (URI-decoded), unless `raw`.
 */
function jarFrom(headers: Headers, raw = false): Jar {
	const jar = new Jar();
	for (const header of headers.getSetCookie()) {
		const [pair = ''] = header.split(';');
		const eq = pair.indexOf('=');
		const value = pair.slice(eq + 1);
		if (value !== '') jar.values.set(pair.slice(0, eq), raw ? value : decodeURIComponent(value));
	}
	return jar;
}

/** A user signed up with Better Auth (signed in at once): its id, its session token, and the browser's jar. */
async function signUp(auth: Awaited<ReturnType<typeof betterAuthApp>>, email = 'ada@example.com', raw = false) {
	const { headers, response } = await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: 'Ada' }, returnHeaders: true });
	const jar = jarFrom(headers, raw);
	const [, value] = [...jar.values].find(([name]) => name.endsWith('.session_token'))!;
	return { id: response.user.id, token: decodeURIComponent(value).split('.')[0]!, jar };
}

/** Our app after the switch: Better Auth's sessions honoured with BETTER_AUTH_SECRET. */
function app(extra: Partial<SvelteKitAuthConfig> = {}, reader = betterAuthSessions({ secret: BETTER_AUTH_SECRET })) {
	return SvelteKitAuth({ secret, logger, adapter, providers: [], previousSessions: [reader], ...extra });
}

/** One request through `handle`; what `locals.auth()` answers. */
async function visit(auth: ReturnType<typeof SvelteKitAuth>, jar: Jar, origin = HTTP) {
	const event = requestEvent(`${origin}/account`, jar);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return (event.locals as { auth(): Promise<(Record<string, unknown> & { user?: Record<string, unknown>; expires?: string }) | null> }).auth();
}

/** Better Auth's cookies the jar still holds. */
const betterAuthCookies = (jar: Jar, prefix = 'better-auth') => [...jar.values.keys()].filter((name) => name.startsWith(`${prefix}.`) || name.startsWith(`__Secure-${prefix}.`));

/** A jar holding one cookie. */
function jarWith(name: string, value: string): Jar {
	const jar = new Jar();
	jar.values.set(name, value);
	return jar;
}

/** better-call's signed value: `<value>.<base64 HMAC-SHA256 of value>` (what `setSignedCookie` writes, before URI-encoding). */
const signed = (value: string, key: string) => `${value}.${createHmac('sha256', key).update(value).digest('base64')}`;

describe.each(['database', 'jwt'] as const)('a Better Auth session cookie, %s strategy', (strategy) => {
	it('keeps its user signed in under our cookie, deletes Better Auth\'s cookies and the copied row; the old cookie then finds nothing', async () => {
		const ba = await betterAuthApp();
		const ada = await signUp(ba);
		const copied = await copyBetterAuthData(connection());
		expect(copied.sessions).toBe(1);
		const row = await adapter.getSessionAndUser(storedSessionKey(ada.token));
		expect(row?.user.id).toBe(ada.id);

		const auth = app({ session: { strategy } });
		const oldCookies = new Map(ada.jar.values);
		const session = await visit(auth, ada.jar);
		expect(session).toMatchObject({ user: { id: ada.id, email: 'ada@example.com', name: 'Ada' } });
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		expect(await adapter.getSessionAndUser(storedSessionKey(ada.token))).toBeNull();
		const ours = ada.jar.values.get('auth.session-token')!;
		if (strategy === 'database') {
			// A new row under the hash of our token (its expiry then slides as any of ours does).
			const next = await adapter.getSessionAndUser(storedSessionKey(ours));
			expect(next).toMatchObject({ session: { userId: ada.id } });
			expect(next!.session.expires.getTime()).toBeGreaterThanOrEqual(row!.session.expires.getTime());
		} else {
			expect(await decodeToken(ours, [secret])).toMatchObject({ sub: ada.id, email: 'ada@example.com' });
		}
		// The browser keeps being signed in by our cookie alone.
		expect(await visit(auth, ada.jar)).toMatchObject({ user: { id: ada.id } });

		// Replayed (a copy of the old cookie): its row is gone.
		const replay = new Jar();
		for (const [name, value] of oldCookies) replay.values.set(name, value);
		expect(await visit(auth, replay)).toBeNull();
		expect(betterAuthCookies(replay)).toEqual([]);
		expect(warn).not.toHaveBeenCalled();
	});
});

describe('Better Auth cookies', () => {
	it('over https: __Secure-better-auth.session_token and its cookie cache (session_data) are read and deleted with Secure', async () => {
		const ba = await betterAuthApp({ baseURL: HTTPS, cookieCache: true });
		const ada = await signUp(ba);
		expect(betterAuthCookies(ada.jar).sort()).toEqual(['__Secure-better-auth.session_data', '__Secure-better-auth.session_token']);
		await copyBetterAuthData(connection());
		const from = ada.jar.writes.length;
		expect(await visit(app(), ada.jar, HTTPS)).toMatchObject({ user: { id: ada.id } });
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		const deletions = ada.jar.writes.slice(from).filter((w) => w.name.startsWith('__Secure-better-auth.'));
		expect(deletions.map((d) => d.name).sort()).toEqual(['__Secure-better-auth.session_data', '__Secure-better-auth.session_token']);
		for (const deletion of deletions) expect(deletion.options).toMatchObject({ maxAge: 0, path: '/', secure: true });
		expect(ada.jar.values.has('__Host-auth.session-token')).toBe(true);
	});

	it("a sign-in without 'remember me': the dont_remember cookie is deleted too", async () => {
		const ba = await betterAuthApp();
		await signUp(ba);
		const { headers } = await ba.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD, rememberMe: false }, returnHeaders: true });
		const jar = jarFrom(headers);
		expect(betterAuthCookies(jar).sort()).toEqual(['better-auth.dont_remember', 'better-auth.session_token']);
		await copyBetterAuthData(connection());
		expect(await visit(app(), jar)).toMatchObject({ user: { email: 'ada@example.com' } });
		expect(betterAuthCookies(jar)).toEqual([]);
	});

	it('with advanced.cookiePrefix: read under that prefix with the cookiePrefix option, and not without it', async () => {
		const ba = await betterAuthApp({ cookiePrefix: 'my-app' });
		const ada = await signUp(ba);
		expect(betterAuthCookies(ada.jar, 'my-app')).toEqual(['my-app.session_token']);
		await copyBetterAuthData(connection());
		const jar = new Jar();
		for (const [name, value] of ada.jar.values) jar.values.set(name, value);
		expect(await visit(app(), jar)).toBeNull();
		expect(jar.values.has('my-app.session_token')).toBe(true);
		expect(await visit(app({}, betterAuthSessions({ secret: BETTER_AUTH_SECRET, cookiePrefix: 'my-app' })), ada.jar)).toMatchObject({ user: { id: ada.id } });
		expect(betterAuthCookies(ada.jar, 'my-app')).toEqual([]);
	});

	it('a value still URI-encoded (as Better Auth sent it) is read as well', async () => {
		const ba = await betterAuthApp();
		const ada = await signUp(ba, 'ada@example.com', true);
		expect(ada.jar.values.get('better-auth.session_token')).toMatch(/%/);
		await copyBetterAuthData(connection());
		expect(await visit(app(), ada.jar)).toMatchObject({ user: { id: ada.id } });
	});

	it('ends at sign-out even when no page read it first: cookies and the copied row deleted', async () => {
		const ba = await betterAuthApp();
		const ada = await signUp(ba);
		await copyBetterAuthData(connection());
		await redirectOf(() => app().signOut(requestEvent(`${HTTP}/signout`, ada.jar, { form: {} })));
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		expect(await adapter.getSessionAndUser(storedSessionKey(ada.token))).toBeNull();
	});

	it('an expired copied row signs no one in, and is deleted', async () => {
		const ba = await betterAuthApp();
		const ada = await signUp(ba);
		await copyBetterAuthData(connection());
		const key = storedSessionKey(ada.token);
		await adapter.updateSession({ sessionToken: key, expires: new Date(Date.now() - 1000) });
		expect(await visit(app(), ada.jar)).toBeNull();
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		expect(await adapter.getSessionAndUser(key)).toBeNull();
	});
});

describe('a missing BETTER_AUTH_SECRET', () => {
	it('signs every Better Auth browser out (cookie deleted), saying so once per process, not per request', async () => {
		const ba = await betterAuthApp();
		const ada = await signUp(ba);
		const bob = await signUp(ba, 'bob@example.com');
		await copyBetterAuthData(connection());
		const auth = app({}, betterAuthSessions({ secret: undefined }));
		expect(await visit(auth, ada.jar)).toBeNull();
		expect(await visit(auth, bob.jar)).toBeNull();
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		expect(betterAuthCookies(bob.jar)).toEqual([]);
		expect(warn).toHaveBeenCalledTimes(1);
		expect(String(warn.mock.calls[0]![0])).toMatch(/BETTER_AUTH_SECRET/);
		expect(await visit(app({}, betterAuthSessions({ secret: '' })), (await signUp(ba, 'cy@example.com')).jar)).toBeNull();
	});

	// Better Auth signs with a published secret when none was set (outside production): a
	// signature anyone can make proves nothing, so that secret counts as none.
	it("Better Auth's public development secret counts as none: its signatures sign no one in", async () => {
		const ba = await betterAuthApp({ secret: DEFAULT_SECRET });
		const ada = await signUp(ba);
		await copyBetterAuthData(connection());
		expect(await visit(app({}, betterAuthSessions({ secret: DEFAULT_SECRET })), ada.jar)).toBeNull();
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		expect(await adapter.getSessionAndUser(storedSessionKey(ada.token))).not.toBeNull();
	});
});

/**
 * Attacks on the signed cookie (OWASP ASVS 5.0 V7 session management: a session token is
 * checked by the server and cannot be forged or tampered with; CWE-565, reliance on cookies
 * without validation and integrity checking). Each signs no one in, deletes the cookie, leaves
 * the real session's row, and logs nothing.
 */
describe('attacks on Better Auth cookies', () => {
	async function victim(options: Parameters<typeof betterAuthApp>[0] = {}) {
		const ba = await betterAuthApp(options);
		const ada = await signUp(ba);
		await copyBetterAuthData(connection());
		return ada;
	}

	afterEach(() => expect(warn).not.toHaveBeenCalled());

	it('forged HMAC (cookie tampering): the real token with a signature altered, or with none, or with the HMAC of another value', async () => {
		const ada = await victim();
		const real = ada.jar.values.get('better-auth.session_token')!;
		const signature = real.slice(real.lastIndexOf('.') + 1);
		const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
		const forged = [
			`${ada.token}.${flipped}`,
			ada.token,
			`${ada.token}.`,
			`${ada.token}.${signed('another-token', BETTER_AUTH_SECRET).split('.')[1]}`,
			`${ada.token}.${createHmac('sha256', BETTER_AUTH_SECRET).update(ada.token).digest('base64url')}`,
			`${ada.token}.${signature.slice(0, -1)}`,
			'.' + signature
		];
		for (const value of forged) {
			const jar = jarWith('better-auth.session_token', value);
			expect(await visit(app(), jar), value).toBeNull();
			expect(betterAuthCookies(jar)).toEqual([]);
		}
		expect(await adapter.getSessionAndUser(storedSessionKey(ada.token))).not.toBeNull();
		// The untouched cookie still signs its user in.
		expect(await visit(app(), ada.jar)).toMatchObject({ user: { id: ada.id } });
	});

	it('another secret: a cookie Better Auth signed with another secret, and the reader given another secret', async () => {
		const ada = await victim({ secret: OTHER_SECRET });
		expect(await visit(app(), ada.jar)).toBeNull();
		expect(betterAuthCookies(ada.jar)).toEqual([]);
		const again = jarWith('better-auth.session_token', signed(ada.token, OTHER_SECRET));
		expect(await visit(app({}, betterAuthSessions({ secret: BETTER_AUTH_SECRET })), again)).toBeNull();
		expect(await adapter.getSessionAndUser(storedSessionKey(ada.token))).not.toBeNull();
	});

	it('a token not in the table, correctly signed (a session Better Auth never had, or not copied)', async () => {
		await victim();
		const jar = jarWith('better-auth.session_token', signed('Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFy', BETTER_AUTH_SECRET));
		expect(await visit(app(), jar)).toBeNull();
		expect(betterAuthCookies(jar)).toEqual([]);
	});

	// Table leak: whoever read auth_sessions knows our rows' keys (even with the secret, to sign
	// one): presented as a Better Auth token, a key is hashed again and finds nothing.
	it('a stored key of ours presented as a token, even correctly signed, finds nothing and leaves that row', async () => {
		const ada = await victim();
		const key = storedSessionKey(ada.token);
		const jar = jarWith('better-auth.session_token', signed(key, BETTER_AUTH_SECRET));
		expect(await visit(app(), jar)).toBeNull();
		expect(await adapter.getSessionAndUser(key)).toMatchObject({ session: { userId: ada.id } });
	});

	// Cookie tossing / session fixation: over https the app's Better Auth cookie was
	// `__Secure-` (set only over a secure origin); a plain-named one on an https request may
	// have been planted by a network attacker or a sibling subdomain, carrying the attacker's
	// own session so that the victim works in the attacker's account.
	it('over https, a plain better-auth.session_token (not __Secure-) signs no one in, and is deleted', async () => {
		const mallory = await victim();
		const jar = jarWith('better-auth.session_token', signed(mallory.token, BETTER_AUTH_SECRET));
		expect(await visit(app(), jar, HTTPS)).toBeNull();
		expect(betterAuthCookies(jar)).toEqual([]);
		// The same cookie over http (Better Auth's development setup) is read.
		expect(await visit(app(), jarWith('better-auth.session_token', signed(mallory.token, BETTER_AUTH_SECRET)))).toMatchObject({ user: { id: mallory.id } });
	});

	it('malformed values: empty, only dots, bad percent-encoding, an oversized token', async () => {
		await victim();
		for (const value of ['.', '..', '%E0%A4%A', `${'x'.repeat(100_000)}.${'A'.repeat(43)}=`, signed('x'.repeat(300), BETTER_AUTH_SECRET)]) {
			const jar = jarWith('better-auth.session_token', value);
			expect(await visit(app(), jar)).toBeNull();
			expect(betterAuthCookies(jar)).toEqual([]);
		}
	});
});

// An app is vendored what its files import (docs/architecture.md): a reader comes only with the
// src/auth.ts that imports its factory, never through the session code.
describe('what an app is vendored', () => {
	it('no runtime module imports switch/better-auth.ts or switch/lucia.ts but the folder index', () => {
		const root = fileURLToPath(new URL('..', import.meta.url));
		const modules = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
		const importing = (pattern: RegExp) => modules.filter((file) => pattern.test(readFileSync(join(root, file), 'utf8')));
		expect(importing(/from\s+['"][./]+(switch\/)?(better-auth|lucia)\.js['"]/)).toEqual([join('switch', 'index.ts')]);
		// The readers' shared cookie helper comes with them only.
		expect(importing(/from\s+['"][./]+switch\/cookies\.js['"]/)).toEqual([]);
		const inSwitch = importing(/from\s+['"]\.\/cookies\.js['"]/).filter((file) => dirname(file) === 'switch');
		expect(inSwitch.sort()).toEqual([join('switch', 'authjs.ts'), join('switch', 'better-auth.ts'), join('switch', 'lucia.ts')]);
	});
});
