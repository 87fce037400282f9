/**
 * Lucia's data copied into create-auth's tables (issue 29): tables as `sv add lucia` declares them
 * (its Drizzle schema, pushed), rows as its session module and demo write them (`@node-rs/argon2`
 * with its parameters, the session id the hex SHA-256 of the cookie's token), on SQLite,
 * PostgreSQL and MariaDB; read back through create-auth's runtime, as the app will read them.
 */
import { hash } from '@node-rs/argon2';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { authorizeWithPassword } from '../../runtime/server/auth/passwords/accounts.js';
import { storedSessionKey as runtimeStoredSessionKey } from '../../runtime/server/auth/session/stored-key.js';
import { mysqlStore, postgresStore, sqliteFileStore, sqliteStore, type Store } from '../test/switch-stores.js';
import { param, storedSessionKey } from './data.js';
import { copyLuciaData, luciaSessionKey } from './lucia-data.js';

const PASSWORD = 'correct horse battery staple';
const DAY_MS = 24 * 60 * 60 * 1000;

/** sv 0.11.3's Lucia schema (`src/lib/server/db/schema.ts`) per dialect, as `drizzle-kit push` creates it. */
const SCHEMA = {
	sqlite: [
		'CREATE TABLE "user" (id TEXT PRIMARY KEY, age INTEGER, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL)',
		'CREATE TABLE "session" (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES "user"(id), expires_at INTEGER NOT NULL)'
	],
	postgres: [
		'CREATE TABLE "user" (id TEXT PRIMARY KEY, age INTEGER, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL)',
		'CREATE TABLE "session" (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES "user"(id), expires_at TIMESTAMPTZ NOT NULL)'
	],
	mysql: [
		'CREATE TABLE `user` (id VARCHAR(255) PRIMARY KEY, age INT, username VARCHAR(32) NOT NULL UNIQUE, password_hash VARCHAR(255) NOT NULL)',
		'CREATE TABLE `session` (id VARCHAR(255) PRIMARY KEY, user_id VARCHAR(255) NOT NULL REFERENCES `user`(id), expires_at DATETIME NOT NULL)'
	]
} as const;

/** Lucia's app on `store`'s database: its register action and its `createSession`, as sv writes them. */
async function luciaOn(store: Store) {
	const { connection } = store;
	for (const statement of SCHEMA[connection.dialect]) await connection.query(statement);
	const quote = connection.dialect === 'mysql' ? (name: string) => `\`${name}\`` : (name: string) => `"${name}"`;
	const values = (count: number) => Array.from({ length: count }, (_, index) => param(connection, index + 1)).join(', ');
	return {
		async register(username: string) {
			const id = randomBytes(15).toString('hex');
			const passwordHash = await hash(PASSWORD, { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 });
			await connection.query(`INSERT INTO ${quote('user')} (id, username, password_hash) VALUES (${values(3)})`, [id, username, passwordHash]);
			return id;
		},
		async createSession(userId: string, expiresAt = new Date(Date.now() + 30 * DAY_MS)) {
			const token = randomBytes(18).toString('base64url');
			const sessionId = createHash('sha256').update(token).digest('hex');
			// Drizzle's sqlite `timestamp` mode stores epoch seconds.
			const expires = connection.dialect === 'sqlite' ? Math.floor(expiresAt.getTime() / 1000) : expiresAt;
			await connection.query(`INSERT INTO ${quote('session')} (id, user_id, expires_at) VALUES (${values(3)})`, [sessionId, userId, expires]);
			return token;
		}
	};
}

describe.each([
	['SQLite', sqliteStore],
	['PostgreSQL', postgresStore],
	['MariaDB', mysqlStore]
])('copyLuciaData on %s', (_name, open) => {
	const stores: Store[] = [];
	afterAll(async () => {
		for (const store of stores) await store.close();
	});

	it("copies users, argon2 password hashes and live sessions so that the runtime signs each user in by username and finds each session by its cookie, and a second run copies nothing twice", async () => {
		const store = await open();
		stores.push(store);
		const lucia = await luciaOn(store);
		const ada = await lucia.register('ada');
		const bob = await lucia.register('bob');
		const adaToken = await lucia.createSession(ada);
		const expiredToken = await lucia.createSession(bob, new Date(Date.now() - 60_000));

		const report = await copyLuciaData(store.connection);
		expect(report).toEqual({ users: 2, passwords: 2, oauthAccounts: 0, sessions: 1, conflicts: [] });
		expect(await store.adapter.getUser(ada)).toMatchObject({ id: ada, name: 'ada', email: null, emailVerified: null });
		const account = await store.adapter.getAccount('ada', 'credentials');
		expect(account).toMatchObject({ userId: ada, type: 'credentials', provider: 'credentials' });
		expect(account?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
		// The password sign-in, given the username in its address field, verifies Lucia's hash.
		expect(await authorizeWithPassword(store.adapter, { email: 'Ada ', password: PASSWORD })).toMatchObject({ id: ada, name: 'ada' });
		expect(await authorizeWithPassword(store.adapter, { email: 'ada', password: 'not the password' })).toBeNull();
		expect((await store.adapter.getSessionAndUser(runtimeStoredSessionKey(adaToken)))?.user.id).toBe(ada);
		expect(await store.adapter.getSessionAndUser(runtimeStoredSessionKey(expiredToken))).toBeNull();

		expect(await copyLuciaData(store.connection)).toEqual(report);
		const [sessions] = await store.connection.query('SELECT count(*) AS count FROM auth_sessions');
		expect(Number(sessions?.count)).toBe(1);
	});
});

describe('copyLuciaData', () => {
	it("stores a Lucia session id under the runtime's key of the token it was made from", () => {
		for (const token of ['tok', 'Kc5EakGPecrxKA2nIy3HMpDK']) {
			expect(luciaSessionKey(createHash('sha256').update(token).digest('hex'))).toBe(storedSessionKey(token));
		}
	});

	it('refuses with E_SWITCH_NO_TABLES when Lucia has no user table there, or create-auth has none yet, and writes nothing', async () => {
		const { db, connection, close } = await sqliteFileStore();
		onTestFinished(close);
		await expect(copyLuciaData(connection)).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES', message: expect.stringContaining("Lucia's user table") });
		db.exec('DROP TABLE auth_users');
		db.exec(SCHEMA.sqlite.join(';'));
		db.exec(`INSERT INTO "user" VALUES ('u1', NULL, 'ada', 'x')`);
		await expect(copyLuciaData(connection)).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES', message: expect.stringContaining('auth_users') });
		expect(db.prepare('SELECT count(*) AS count FROM auth_accounts').get()).toEqual({ count: 0 });
	});

	it("keys a user's password by the address when Lucia's table has one, and leaves out sessions whose id is not a hex SHA-256", async () => {
		const { db, adapter, connection, close } = await sqliteFileStore();
		onTestFinished(close);
		db.exec(`CREATE TABLE "user" (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT);
			CREATE TABLE "session" (id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, expires_at INTEGER NOT NULL);`);
		db.prepare(`INSERT INTO "user" VALUES (7, 'Cy@Example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g')`).run();
		db.prepare(`INSERT INTO "user" VALUES (8, 'dee@example.com', NULL)`).run();
		const expires = Math.floor(Date.now() / 1000) + 3600;
		db.prepare(`INSERT INTO "session" VALUES (?, 7, ?)`).run('not-a-hash', expires);
		db.prepare(`INSERT INTO "session" VALUES (?, 7, ?)`).run(createHash('sha256').update('tok').digest('hex'), expires);
		expect(await copyLuciaData(connection)).toEqual({ users: 2, passwords: 1, oauthAccounts: 0, sessions: 1, conflicts: [] });
		expect(await adapter.getUser('7')).toMatchObject({ email: 'cy@example.com', name: null });
		expect(await adapter.getAccount('cy@example.com', 'credentials')).toMatchObject({ userId: '7' });
		expect((await adapter.getSessionAndUser(storedSessionKey('tok')))?.user.id).toBe('7');
	});

	it('copies what it can of rows Lucia would not have written, and never fails on them: a date that is not one, an empty username, a hash that is not text', async () => {
		const { db, adapter, connection, close } = await sqliteFileStore();
		onTestFinished(close);
		db.exec(`CREATE TABLE "user" (id TEXT PRIMARY KEY, username TEXT, password_hash BLOB);
			CREATE TABLE "session" (id TEXT PRIMARY KEY, user_id TEXT, expires_at TEXT);`);
		db.prepare(`INSERT INTO "user" VALUES ('u1', '', 'x')`).run();
		db.prepare(`INSERT INTO "user" VALUES ('u2', 'eve', ?)`).run(Buffer.from('not text'));
		db.prepare(`INSERT INTO "session" VALUES (?, 'u2', 'soon')`).run(createHash('sha256').update('t1').digest('hex'));
		db.prepare(`INSERT INTO "session" VALUES (?, 'nobody', ?)`).run(createHash('sha256').update('t2').digest('hex'), String(Math.floor(Date.now() / 1000) + 3600));
		expect(await copyLuciaData(connection)).toEqual({ users: 2, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: [] });
		expect(await adapter.getUser('u1')).toMatchObject({ name: null, email: null });
		expect(await adapter.getAccount('eve', 'credentials')).toBeNull();
	});
});

