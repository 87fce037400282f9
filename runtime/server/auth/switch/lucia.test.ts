/**
 * Issue 29: an app made with `sv add lucia` keeps its users signed in after the switch. Its rows
 * are made as the code `sv add lucia` writes makes them (a random base64url token in the
 * `auth-session` cookie; the `session` table's `id` the lowercase hex SHA-256 of it, `user_id`,
 * `expires_at` in epoch seconds) in a SQLite database, then moved into create-auth's tables
 * under the runtime's key of the same token (`sha256.` + base64url of the id's 32 bytes), as
 * `create-auth switch` stores them; our runtime reads the cookie through `handle`.
 */
import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import { decodeToken } from '../session/jwt.js';
import { storedSessionKey } from '../session/stored-key.js';
import { luciaSessions } from './lucia.js';

const secret = 'a'.repeat(32);
const HTTP = 'http://localhost:5173';
const HTTPS = 'https://app.example';
const DAY_MS = 86_400_000;
const logger = { error: vi.fn() };

let db: Database.Database;
let adapter: Required<Adapter>;

beforeEach(async () => {
	logger.error.mockClear();
	db = new Database(':memory:');
	// Lucia's tables as `sv add lucia` declares them for SQLite (Drizzle: `integer(..., { mode: 'timestamp' })` is epoch seconds).
	db.exec(`CREATE TABLE user (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL);
		CREATE TABLE session (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES user(id), expires_at INTEGER NOT NULL);`);
	adapter = SQLiteAdapter({ database: db });
	await adapter.getUser('nobody'); // creates create-auth's tables
});
afterEach(() => {
	expect(logger.error).not.toHaveBeenCalled();
	db.close();
});

/** `sv add lucia`'s `generateSessionToken`: 18 random bytes, base64url. */
const generateSessionToken = () => randomBytes(18).toString('base64url');
/** `sv add lucia`'s session id: lowercase hex SHA-256 of the token. */
const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

/** A Lucia user signed in as `sv add lucia`'s login action does: a session row, and the cookie's token. */
function luciaSignIn(userId = 'u1', username = 'ada', expiresAt = new Date(Date.now() + 30 * DAY_MS)) {
	db.prepare('INSERT OR IGNORE INTO user (id, username, password_hash) VALUES (?, ?, ?)').run(userId, username, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA');
	const token = generateSessionToken();
	db.prepare('INSERT INTO session (id, user_id, expires_at) VALUES (?, ?, ?)').run(sessionId(token), userId, Math.floor(expiresAt.getTime() / 1000));
	return token;
}

/**
 * What `create-auth switch` does with Lucia's rows: each user into `auth_users` with its id,
 * each unexpired session under `sha256.` + base64url of its hex id's bytes: the runtime's key
 * of the same token, although the token itself is nowhere in Lucia's table.
 */
async function copyLuciaRows() {
	for (const user of db.prepare('SELECT id, username FROM user').all() as { id: string; username: string }[]) {
		if (!(await adapter.getUser(user.id))) await adapter.createUser({ id: user.id, name: user.username, email: `${user.username}@example.com`, emailVerified: null });
	}
	for (const row of db.prepare('SELECT id, user_id, expires_at FROM session').all() as { id: string; user_id: string; expires_at: number }[]) {
		await adapter.createSession({ sessionToken: `sha256.${Buffer.from(row.id, 'hex').toString('base64url')}`, userId: row.user_id, expires: new Date(row.expires_at * 1000) });
	}
}

function app(extra: Partial<SvelteKitAuthConfig> = {}) {
	return SvelteKitAuth({ secret, logger, adapter, providers: [], previousSessions: [luciaSessions()], ...extra });
}

async function visit(auth: ReturnType<typeof SvelteKitAuth>, jar: Jar, origin = HTTP) {
	const event = requestEvent(`${origin}/account`, jar);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return (event.locals as { auth(): Promise<(Record<string, unknown> & { user?: Record<string, unknown> }) | null> }).auth();
}

function jarWith(name: string, value: string): Jar {
	const jar = new Jar();
	jar.values.set(name, value);
	return jar;
}

describe('the stored key of a Lucia session', () => {
	it("is the runtime's key of the token: sha256. + base64url of the hex id's bytes", () => {
		const token = generateSessionToken();
		expect(`sha256.${Buffer.from(sessionId(token), 'hex').toString('base64url')}`).toBe(storedSessionKey(token));
	});
});

describe.each(['database', 'jwt'] as const)('a Lucia auth-session cookie, %s strategy', (strategy) => {
	it('keeps its user signed in under our cookie, deletes the Lucia cookie and the copied row; the old cookie then finds nothing', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const key = storedSessionKey(token);
		expect(await adapter.getSessionAndUser(key)).toMatchObject({ user: { id: 'u1' } });
		const auth = app({ session: { strategy } });
		const jar = jarWith('auth-session', token);
		expect(await visit(auth, jar)).toMatchObject({ user: { id: 'u1', name: 'ada', email: 'ada@example.com' } });
		expect(jar.values.has('auth-session')).toBe(false);
		expect(await adapter.getSessionAndUser(key)).toBeNull();
		const ours = jar.values.get('auth.session-token')!;
		if (strategy === 'database') expect(await adapter.getSessionAndUser(storedSessionKey(ours))).toMatchObject({ session: { userId: 'u1' } });
		else expect(await decodeToken(ours, [secret])).toMatchObject({ sub: 'u1' });
		expect(await visit(auth, jar)).toMatchObject({ user: { id: 'u1' } });

		const replay = jarWith('auth-session', token);
		expect(await visit(auth, replay)).toBeNull();
		expect(replay.values.has('auth-session')).toBe(false);
	});
});

describe('Lucia cookies', () => {
	it('over https: deleted with Secure, our __Host- cookie set', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const jar = jarWith('auth-session', token);
		const from = jar.writes.length;
		expect(await visit(app(), jar, HTTPS)).toMatchObject({ user: { id: 'u1' } });
		const deletion = jar.writes.slice(from).find((w) => w.name === 'auth-session');
		expect(deletion?.options).toMatchObject({ maxAge: 0, path: '/', secure: true });
		expect(jar.values.has('__Host-auth.session-token')).toBe(true);
	});

	it('with a custom cookie name: read under that name with cookieName, and not under the default', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		expect(await visit(app(), jarWith('my-session', token))).toBeNull();
		const jar = jarWith('my-session', token);
		expect(await visit(app({ previousSessions: [luciaSessions({ cookieName: 'my-session' })] }), jar)).toMatchObject({ user: { id: 'u1' } });
		expect(jar.values.has('my-session')).toBe(false);
	});

	it('an expired row signs no one in, and is deleted', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		await adapter.updateSession({ sessionToken: storedSessionKey(token), expires: new Date(Date.now() - 1000) });
		const jar = jarWith('auth-session', token);
		expect(await visit(app(), jar)).toBeNull();
		expect(jar.values.has('auth-session')).toBe(false);
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).toBeNull();
	});

	it('ends at sign-out even when no page read it first: cookie and row deleted', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const jar = jarWith('auth-session', token);
		await redirectOf(() => app().signOut(requestEvent(`${HTTP}/signout`, jar, { form: {} })));
		expect(jar.values.has('auth-session')).toBe(false);
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).toBeNull();
	});
});

/**
 * Attacks (OWASP ASVS 5.0 V7 session management): Lucia's cookie has no signature, the token is
 * the secret and only hashes of it are stored. Whoever read a sessions table (Lucia's before the
 * switch, or ours after it) must not sign in with what it holds. Each signs no one in, deletes
 * the cookie and leaves the real row.
 */
describe('attacks on Lucia cookies', () => {
	it("table leak, Lucia's: a session id (hex) presented as the cookie finds nothing", async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const jar = jarWith('auth-session', sessionId(token));
		expect(await visit(app(), jar)).toBeNull();
		expect(jar.values.has('auth-session')).toBe(false);
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).not.toBeNull();
	});

	it("table leak, ours: a stored key presented as the cookie finds nothing and leaves that row", async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const key = storedSessionKey(token);
		expect(await visit(app(), jarWith('auth-session', key))).toBeNull();
		expect(await adapter.getSessionAndUser(key)).toMatchObject({ session: { userId: 'u1' } });
	});

	it('a guessed or altered token, and malformed values, sign no one in', async () => {
		const token = luciaSignIn();
		await copyLuciaRows();
		const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
		for (const value of [altered, generateSessionToken(), '%', 'x'.repeat(100_000)]) {
			const jar = jarWith('auth-session', value);
			expect(await visit(app(), jar)).toBeNull();
			expect(jar.values.has('auth-session')).toBe(false);
		}
		expect(await visit(app(), jarWith('auth-session', token))).toMatchObject({ user: { id: 'u1' } });
	});
});
