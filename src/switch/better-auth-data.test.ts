/**
 * Better Auth's data copied into create-auth's tables (issue 29): the rows are made by Better
 * Auth itself (its own migrations, `signUpEmail`, its internal adapter for an OAuth account),
 * on SQLite, PostgreSQL and MariaDB, and read back through create-auth's runtime adapter of
 * each, as the app will read them.
 */
import Database from 'better-sqlite3';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { storedSessionKey as runtimeStoredSessionKey } from '../../runtime/server/auth/session/stored-key.js';
import { copyBetterAuthData } from './better-auth-data.js';
import { connectData } from './connection.js';
import { storedSessionKey } from './data.js';
import { mysqlStore, postgresStore, sqliteFileStore, sqliteStore, type Store } from '../test/switch-stores.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const SECRET = 'a-better-auth-secret-of-32-characters!';
const PASSWORD = 'correct horse battery staple';

/** Better Auth on `store`'s database, its tables made by its own migrations. */
async function betterAuthOn(store: Store) {
	const auth = betterAuth({ database: store.database as never, secret: SECRET, baseURL: 'http://localhost:5173', emailAndPassword: { enabled: true }, logger: { disabled: true } });
	await (await getMigrations(auth.options)).runMigrations();
	const signUp = async (email: string, name: string) => {
		const response = await auth.api.signUpEmail({ body: { email, password: PASSWORD, name }, returnHeaders: true });
		const cookie = /better-auth\.session_token=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![1]!;
		return { id: response.response.user.id, token: decodeURIComponent(cookie).split('.')[0]! };
	};
	return { auth, signUp, context: await auth.$context };
}

describe.each([
	['SQLite', sqliteStore],
	['PostgreSQL', postgresStore],
	['MariaDB', mysqlStore]
])('copyBetterAuthData on %s', (_name, open) => {
	const stores: Store[] = [];
	afterAll(async () => {
		for (const store of stores) await store.close();
	});

	it("copies users, password and OAuth accounts and live sessions so that create-auth's adapter finds each, and a second run copies nothing twice", async () => {
		const store = await open();
		stores.push(store);
		const { signUp, context } = await betterAuthOn(store);
		const ann = await signUp('Ann@Example.com', 'Ann');
		const bob = await signUp('bob@example.com', 'Bob');
		await context.internalAdapter.linkAccount({ userId: bob.id, providerId: 'github', accountId: '4242', accessToken: 'gho_token', scope: 'read:user,user:email', accessTokenExpiresAt: new Date('2030-01-01T00:00:00Z') });
		await context.internalAdapter.updateUser(bob.id, { emailVerified: true });
		// Ann's session has expired: it is left behind.
		await context.internalAdapter.updateSession(ann.token, { expiresAt: new Date(Date.now() - 60_000) });

		const report = await copyBetterAuthData(store.connection);
		expect(report).toEqual({ users: 2, passwords: 2, oauthAccounts: 1, sessions: 1, conflicts: [] });

		const storedAnn = await store.adapter.getUserByEmail('ann@example.com');
		expect(storedAnn).toMatchObject({ id: ann.id, name: 'Ann', email: 'ann@example.com', emailVerified: null });
		expect((await store.adapter.getUser(bob.id))?.emailVerified).toBeInstanceOf(Date);
		const password = await store.adapter.getAccount('ann@example.com', 'credentials');
		expect(password).toMatchObject({ userId: ann.id, provider: 'credentials', type: 'credentials' });
		expect(password?.password_hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
		expect(await store.adapter.getUserByAccount({ provider: 'github', providerAccountId: '4242' })).toMatchObject({ id: bob.id });
		const github = await store.adapter.getAccount('4242', 'github');
		expect(github).toMatchObject({ access_token: 'gho_token', expires_at: Date.parse('2030-01-01T00:00:00Z') / 1000, type: 'oauth' });
		const found = await store.adapter.getSessionAndUser(storedSessionKey(bob.token));
		expect(found?.user.id).toBe(bob.id);
		expect(await store.adapter.getSessionAndUser(storedSessionKey(ann.token))).toBeNull();
		expect(await store.adapter.getSessionAndUser(bob.token)).toBeNull();

		expect(await copyBetterAuthData(store.connection)).toEqual(report);
		const [accounts] = await store.connection.query('SELECT count(*) AS count FROM auth_accounts');
		expect(Number(accounts?.count)).toBe(3);
	});

	it('leaves out a Better Auth user whose address create-auth already has under another id, with the accounts and sessions of that user, and names the address', async () => {
		const store = await open();
		stores.push(store);
		const { signUp } = await betterAuthOn(store);
		const ann = await signUp('ann@example.com', 'Ann');
		await store.adapter.createUser({ id: 'ours-1', email: 'ann@example.com', emailVerified: null });

		const report = await copyBetterAuthData(store.connection);
		expect(report).toEqual({ users: 0, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: ['ann@example.com'] });
		expect(await store.adapter.getUser(ann.id)).toBeNull();
		expect(await store.adapter.getSessionAndUser(storedSessionKey(ann.token))).toBeNull();
	});
});

describe('copyBetterAuthData', () => {
	it('refuses with E_SWITCH_NO_TABLES when Better Auth has no tables there, or create-auth has none yet, and writes nothing', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-switch-'));
		const db = new Database(path.join(dir, 'empty.db'));
		const connection = await connectData(repoRoot, 'sqlite', path.join(dir, 'empty.db'));
		onTestFinished(async () => {
			await connection.close();
			db.close();
			await rm(dir, { recursive: true, force: true });
		});
		await expect(copyBetterAuthData(connection)).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES' });
		db.exec('CREATE TABLE "user" (id TEXT PRIMARY KEY, email TEXT)');
		db.exec(`INSERT INTO "user" VALUES ('u1', 'a@example.com')`);
		await expect(copyBetterAuthData(connection)).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES', message: expect.stringContaining('auth_users') });
		expect(db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'auth_%'`).all()).toEqual([]);
	});

	it('reads the snake_case columns of the Drizzle schema `npx auth generate` writes, dates as epoch milliseconds', async () => {
		const { db, adapter, connection, close } = await sqliteFileStore();
		onTestFinished(close);
		db.exec(`CREATE TABLE "user" (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, email_verified INTEGER NOT NULL, image TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
			CREATE TABLE "session" (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, token TEXT NOT NULL UNIQUE, created_at INTEGER, updated_at INTEGER, ip_address TEXT, user_agent TEXT, user_id TEXT NOT NULL);
			CREATE TABLE "account" (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, provider_id TEXT NOT NULL, user_id TEXT NOT NULL, access_token TEXT, refresh_token TEXT, id_token TEXT, access_token_expires_at INTEGER, refresh_token_expires_at INTEGER, scope TEXT, password TEXT, created_at INTEGER, updated_at INTEGER);`);
		const verifiedAt = Date.parse('2026-01-02T03:04:05Z');
		db.prepare(`INSERT INTO "user" VALUES ('u1', 'Cy', 'cy@example.com', 1, NULL, ?, ?)`).run(verifiedAt - 1000, verifiedAt);
		db.prepare(`INSERT INTO "session" VALUES ('s1', ?, 'tok', 0, 0, '', '', 'u1')`).run(Date.now() + 3_600_000);
		db.prepare(`INSERT INTO "account" VALUES ('a1', 'u1', 'credential', 'u1', NULL, NULL, NULL, NULL, NULL, NULL, 'aa:bb', 0, 0)`).run();
		expect(await copyBetterAuthData(connection)).toEqual({ users: 1, passwords: 1, oauthAccounts: 0, sessions: 1, conflicts: [] });
		expect((await adapter.getUser('u1'))?.emailVerified?.getTime()).toBe(verifiedAt);
		expect((await adapter.getSessionAndUser(storedSessionKey('tok')))?.user.email).toBe('cy@example.com');
	});

	it('does not create a SQLite database that is not there: E_DATABASE_UNREACHABLE', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-switch-'));
		onTestFinished(() => rm(dir, { recursive: true, force: true }));
		await expect(connectData(repoRoot, 'sqlite', path.join(dir, 'missing.db'))).rejects.toMatchObject({ code: 'E_DATABASE_UNREACHABLE' });
		await expect(readdir(dir)).resolves.toEqual([]);
	});

	it("stores a session under the key create-auth's runtime looks it up by", () => {
		for (const token of ['tok', 'Kc5EakGPecrxKA2nIy3HMpDKqn31GJA2']) expect(storedSessionKey(token)).toBe(runtimeStoredSessionKey(token));
	});
});
