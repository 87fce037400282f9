/**
 * Auth.js's data copied into create-auth's tables (issue 29): rows written by @auth/pg-adapter
 * itself on the schema its documentation gives, and rows in the default tables of
 * @auth/drizzle-adapter (SQLite); read back through create-auth's runtime adapters.
 */
import PostgresAuthjsAdapter from '@auth/pg-adapter';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PostgresAdapter } from '../../runtime/server/auth/adapters/postgres.js';
import { storedSessionKey } from '../../runtime/server/auth/session/stored-key.js';
import { AUTHJS_PG_SCHEMA, postgresScratch } from '../../runtime/test/databases.js';
import { sqliteFileStore } from '../test/switch-stores.js';
import { copyAuthjsData } from './authjs-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('copyAuthjsData', () => {
	it("copies what @auth/pg-adapter stored (SERIAL ids, linked accounts, live sessions) so that create-auth's PostgreSQL adapter finds each, and a second run copies nothing twice", async () => {
		const scratch = await postgresScratch();
		const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
		const client = await pool.connect();
		onTestFinished(async () => {
			client.release();
			await pool.end();
			await scratch.drop();
		});
		await pool.query(AUTHJS_PG_SCHEMA);
		const authjs = PostgresAuthjsAdapter(pool);
		const ada = await authjs.createUser!({ id: 'ignored', name: 'Ada', email: 'Ada@Example.com', emailVerified: new Date('2026-01-02T03:04:05Z'), image: null });
		await authjs.linkAccount!({ userId: ada.id, type: 'oidc', provider: 'idp', providerAccountId: 'sub-1', access_token: 'at', expires_at: 1_900_000_000, token_type: 'bearer', scope: 'openid email', id_token: 'idt' });
		const live = randomUUID();
		const expired = randomUUID();
		await authjs.createSession!({ sessionToken: live, userId: ada.id, expires: new Date(Date.now() + 30 * DAY_MS) });
		await authjs.createSession!({ sessionToken: expired, userId: ada.id, expires: new Date(Date.now() - 60_000) });

		const connection = { dialect: 'postgres' as const, query: async (text: string, params?: unknown[]) => (await client.query(text, params)).rows };
		const report = await copyAuthjsData(connection);
		expect(report).toEqual({ users: 1, passwords: 0, oauthAccounts: 1, sessions: 1, conflicts: [] });
		const ours = PostgresAdapter({ pool });
		expect(await ours.getUserByEmail('ada@example.com')).toMatchObject({ id: String(ada.id), name: 'Ada', emailVerified: new Date('2026-01-02T03:04:05Z') });
		expect(await ours.getUserByAccount({ provider: 'idp', providerAccountId: 'sub-1' })).toMatchObject({ id: String(ada.id) });
		expect(await ours.getAccount('sub-1', 'idp')).toMatchObject({ type: 'oidc', access_token: 'at', expires_at: 1_900_000_000, id_token: 'idt' });
		expect((await ours.getSessionAndUser(storedSessionKey(live)))?.user.id).toBe(String(ada.id));
		expect(await ours.getSessionAndUser(storedSessionKey(expired))).toBeNull();
		// Auth.js's raw token is not a key in create-auth's table.
		expect(await ours.getSessionAndUser(live)).toBeNull();

		expect(await copyAuthjsData(connection)).toEqual(report);
		const [sessions] = await connection.query('SELECT count(*) AS count FROM auth_sessions');
		expect(Number(sessions?.count)).toBe(1);
	});

	it("reads @auth/drizzle-adapter's default tables (user, account, session) on SQLite, dates as Drizzle stores them", async () => {
		const { db, adapter, connection, close } = await sqliteFileStore();
		onTestFinished(close);
		db.exec(`CREATE TABLE "user" (id TEXT PRIMARY KEY, name TEXT, email TEXT UNIQUE, emailVerified INTEGER, image TEXT);
			CREATE TABLE "account" (userId TEXT NOT NULL, type TEXT NOT NULL, provider TEXT NOT NULL, providerAccountId TEXT NOT NULL, refresh_token TEXT, access_token TEXT, expires_at INTEGER, token_type TEXT, scope TEXT, id_token TEXT, session_state TEXT);
			CREATE TABLE "session" (sessionToken TEXT PRIMARY KEY, userId TEXT NOT NULL, expires INTEGER NOT NULL);`);
		db.prepare(`INSERT INTO "user" VALUES ('u1', 'Cy', 'cy@example.com', NULL, NULL)`).run();
		db.prepare(`INSERT INTO "account" (userId, type, provider, providerAccountId) VALUES ('u1', 'oauth', 'github', '42')`).run();
		db.prepare(`INSERT INTO "session" VALUES ('tok', 'u1', ?)`).run(Date.now() + 3_600_000);
		expect(await copyAuthjsData(connection)).toEqual({ users: 1, passwords: 0, oauthAccounts: 1, sessions: 1, conflicts: [] });
		expect((await adapter.getSessionAndUser(storedSessionKey('tok')))?.user).toMatchObject({ id: 'u1', email: 'cy@example.com', emailVerified: null });
		expect(await adapter.getUserByAccount({ provider: 'github', providerAccountId: '42' })).toMatchObject({ id: 'u1' });
	});

	it('refuses with E_SWITCH_NO_TABLES when Auth.js has no users table there', async () => {
		const { connection, close } = await sqliteFileStore();
		onTestFinished(close);
		await expect(copyAuthjsData(connection)).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES', message: expect.stringContaining("Auth.js's users table") });
	});
});
