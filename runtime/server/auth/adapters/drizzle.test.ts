import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client as LibsqlClient } from '@libsql/client';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { drizzle as betterSqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as libsqlDrizzle } from 'drizzle-orm/libsql';
import { drizzle as mysqlDrizzle } from 'drizzle-orm/mysql2';
import { drizzle as nodePostgresDrizzle } from 'drizzle-orm/node-postgres';
import { drizzle as postgresJsDrizzle } from 'drizzle-orm/postgres-js';
import mysql from 'mysql2/promise';
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAdapterContract, type AdapterHarness } from '../../../test/adapter-contract.js';
import { mysqlScratch, postgresScratch } from '../../../test/databases.js';
import { drizzleKitStatements } from '../../../test/drizzle-kit.js';
import { DrizzleAdapter } from './drizzle.js';
import * as mysqlTables from './drizzle-schema/mysql.js';
import * as postgresTables from './drizzle-schema/postgres.js';
import * as sqliteTables from './drizzle-schema/sqlite.js';
import type { AdapterSession } from './types.js';

// The process runs in a zone other than UTC, as a server may: every date must come back as written.
const zone = process.env.TZ;
beforeAll(() => {
	process.env.TZ = 'Asia/Kolkata';
});
afterAll(() => {
	if (zone === undefined) delete process.env.TZ;
	else process.env.TZ = zone;
});

/** A SQLite file in a folder of its own, with the tables drizzle-kit makes; `remove` deletes the folder. */
async function sqliteFile() {
	const dir = mkdtempSync(join(tmpdir(), 'create-auth-drizzle-'));
	const file = join(dir, 'app.sqlite');
	const setup = new Database(file);
	for (const statement of await drizzleKitStatements.sqlite()) setup.exec(statement);
	setup.close();
	return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A PostgreSQL scratch schema with the tables drizzle-kit makes. drizzle-kit names the target
 * of a foreign key with its schema (`"public"."auth_users"`, where pgTable puts it); here the
 * tables live in the scratch schema, the connection's search_path, so that qualifier is dropped.
 */
async function postgresTablesScratch() {
	const scratch = await postgresScratch({ migrate: false });
	const client = new pg.Client({ connectionString: scratch.url });
	await client.connect();
	try {
		for (const statement of await drizzleKitStatements.postgres()) await client.query(statement.replaceAll('"public".', ''));
	} finally {
		await client.end();
	}
	return scratch;
}

/** A MariaDB scratch database with the tables drizzle-kit makes. */
async function mysqlTablesScratch() {
	const scratch = await mysqlScratch({ migrate: false });
	const connection = await mysql.createConnection({ uri: scratch.url });
	try {
		for (const statement of await drizzleKitStatements.mysql()) await connection.query(statement);
	} finally {
		await connection.end();
	}
	return scratch;
}

/**
 * A PostgreSQL URL whose sessions run in a zone other than UTC (timestamptz text then carries
 * `+05:30`): the dates the adapter reads back must not shift.
 */
function inOtherZone(url: string) {
	const zoned = new URL(url);
	zoned.searchParams.set('options', `${zoned.searchParams.get('options') ?? ''} -c TimeZone=Asia/Kolkata`.trim());
	return zoned.href;
}

/** The app's own reads and writes of the auth tables, through its Drizzle schema and `db`. */
interface AppView {
	user(id: string): Promise<{ name: string | null; emailVerified: Date | null } | undefined>;
	session(sessionToken: string): Promise<{ userId: string; expires: Date } | undefined>;
	authenticator(credentialID: string): Promise<{ counter: number; credentialBackedUp: boolean } | undefined>;
	insertSession(session: AdapterSession): Promise<unknown>;
}

/**
 * The app's view through its Drizzle db and the auth tables of its dialect. Drizzle types each
 * dialect's db and tables apart, but the calls are the same, so they are typed loosely here.
 */
function appView(db: any, tables: typeof sqliteTables | typeof postgresTables | typeof mysqlTables): AppView {
	const { authUsers, authSessions, authAuthenticators } = tables as typeof postgresTables;
	return {
		user: async (id) => (await db.select().from(authUsers).where(eq(authUsers.id, id)))[0],
		session: async (token) => (await db.select().from(authSessions).where(eq(authSessions.sessionToken, token)))[0],
		authenticator: async (id) => (await db.select().from(authAuthenticators).where(eq(authAuthenticators.credentialID, id)))[0],
		insertSession: async (session) => db.insert(authSessions).values(session)
	};
}

/** A harness of the contract over a Drizzle `db`, with the app's view of the same tables. */
type Backend = AdapterHarness & { view: AppView };

const countUsers = (rows: readonly { count: unknown }[]) => Number(rows[0]!.count);

/** The drivers `sv add drizzle` offers, each on tables drizzle-kit made, in a store of its own. */
const BACKENDS: { name: string; open(): Promise<Backend> }[] = [
	{
		name: 'better-sqlite3',
		async open() {
			const { file, remove } = await sqliteFile();
			const clients: Database.Database[] = [];
			const connect = () => {
				const client = new Database(file);
				clients.push(client);
				return betterSqliteDrizzle(client);
			};
			const db = connect();
			return {
				adapter: DrizzleAdapter(db, { dialect: 'sqlite' }),
				twin: () => DrizzleAdapter(connect(), { dialect: 'sqlite' }),
				view: appView(db, sqliteTables),
				userCount: async () => countUsers(clients[0]!.prepare('SELECT count(*) AS count FROM auth_users').all() as { count: number }[]),
				async close() {
					for (const client of clients) client.close();
					remove();
				}
			};
		}
	},
	{
		name: 'libsql',
		async open() {
			const { file, remove } = await sqliteFile();
			const clients: LibsqlClient[] = [];
			const connect = () => {
				const client = createClient({ url: `file:${file}` });
				clients.push(client);
				return libsqlDrizzle(client);
			};
			const db = connect();
			return {
				adapter: DrizzleAdapter(db, { dialect: 'sqlite' }),
				twin: () => DrizzleAdapter(connect(), { dialect: 'sqlite' }),
				view: appView(db, sqliteTables),
				userCount: async () => countUsers((await clients[0]!.execute('SELECT count(*) AS count FROM auth_users')).rows as unknown as { count: number }[]),
				async close() {
					for (const client of clients) client.close();
					remove();
				}
			};
		}
	},
	{
		name: 'node-postgres',
		async open() {
			const scratch = await postgresTablesScratch();
			const pools: pg.Pool[] = [];
			const connect = () => {
				const pool = new pg.Pool({ connectionString: inOtherZone(scratch.url), max: 4 });
				pools.push(pool);
				return nodePostgresDrizzle(pool);
			};
			const db = connect();
			return {
				adapter: DrizzleAdapter(db, { dialect: 'postgres' }),
				twin: () => DrizzleAdapter(connect(), { dialect: 'postgres' }),
				view: appView(db, postgresTables),
				userCount: async () => countUsers((await pools[0]!.query('SELECT count(*) AS count FROM auth_users')).rows),
				async close() {
					await Promise.all(pools.map((pool) => pool.end()));
					await scratch.drop();
				}
			};
		}
	},
	{
		name: 'postgres.js',
		async open() {
			const scratch = await postgresTablesScratch();
			const clients: postgres.Sql[] = [];
			const connect = () => {
				const client = postgres(inOtherZone(scratch.url), { max: 4, onnotice: () => undefined });
				clients.push(client);
				return postgresJsDrizzle(client);
			};
			const db = connect();
			return {
				adapter: DrizzleAdapter(db, { dialect: 'postgres' }),
				twin: () => DrizzleAdapter(connect(), { dialect: 'postgres' }),
				view: appView(db, postgresTables),
				userCount: async () => countUsers(await clients[0]!`SELECT count(*) AS count FROM auth_users`),
				async close() {
					await Promise.all(clients.map((client) => client.end()));
					await scratch.drop();
				}
			};
		}
	},
	{
		name: 'mysql2, MariaDB',
		async open() {
			const scratch = await mysqlTablesScratch();
			const pools: mysql.Pool[] = [];
			// A pool as `sv add drizzle` makes it: no `timezone: 'Z'`, so mysql2 would convert Date
			// objects in the process's zone (not UTC here).
			const connect = () => {
				const pool = mysql.createPool({ uri: scratch.url, connectionLimit: 4 });
				pools.push(pool);
				return mysqlDrizzle(pool);
			};
			const db = connect();
			return {
				adapter: DrizzleAdapter(db, { dialect: 'mysql' }),
				twin: () => DrizzleAdapter(connect(), { dialect: 'mysql' }),
				view: appView(db, mysqlTables),
				async userCount() {
					const [rows] = await pools[0]!.query('SELECT count(*) AS count FROM auth_users');
					return countUsers(rows as { count: number }[]);
				},
				async close() {
					await Promise.all(pools.map((pool) => pool.end()));
					await scratch.drop();
				}
			};
		}
	}
];

for (const { name, open } of BACKENDS) {
	describeAdapterContract(`DrizzleAdapter (${name})`, open);

	describe(`DrizzleAdapter (${name})`, () => {
		it('writes what the app reads through its Drizzle tables, and reads what the app writes there', async () => {
			const { adapter, view, close } = await open();
			try {
				const verified = new Date('2030-01-02T03:04:05.678Z');
				// Quotes, placeholders and comment marks in a value: bound as a parameter, stored as is.
				const user = { id: 'u1', email: 'a@example.com', emailVerified: verified, name: `O'Brien? $1 -- \\ ;`, image: null };
				await adapter.createUser!(user);
				expect(await view.user('u1')).toMatchObject({ name: user.name, emailVerified: verified });
				await adapter.createSession!({ sessionToken: 's1', userId: 'u1', expires: verified, createdAt: verified, userAgent: 'Firefox', ipAddress: '2001:db8::1' });
				expect(await view.session('s1')).toMatchObject({ userId: 'u1', expires: verified, createdAt: verified, userAgent: 'Firefox', ipAddress: '2001:db8::1' });
				await adapter.createAuthenticator!({
					credentialID: 'c1',
					credentialPublicKey: 'a2V5',
					counter: 3,
					credentialDeviceType: 'multiDevice',
					credentialBackedUp: true,
					transports: null,
					providerAccountId: 'u1',
					userId: 'u1'
				});
				expect(await view.authenticator('c1')).toMatchObject({ counter: 3, credentialBackedUp: true });

				const expires = new Date('2031-05-06T07:08:09.012Z');
				await view.insertSession({ sessionToken: 's2', userId: 'u1', expires });
				expect(await adapter.getSessionAndUser!('s2')).toEqual({
					session: { sessionToken: 's2', userId: 'u1', expires, createdAt: null, userAgent: null, ipAddress: null },
					user: { ...user, sessionVersion: 0 }
				});
			} finally {
				await close();
			}
		});
	});
}

describe('DrizzleAdapter', () => {
	it('refuses a db of the wrong kind for its dialect when it is made', () => {
		const client = new Database(':memory:');
		expect(() => DrizzleAdapter(betterSqliteDrizzle(client) as never, { dialect: 'postgres' })).toThrow(TypeError);
		expect(() => DrizzleAdapter({ execute: async () => [] } as never, { dialect: 'sqlite' })).toThrow(TypeError);
		client.close();
	});

	it('turns foreign keys on for a SQLite connection that has them off, so a deleted user takes its sessions along', async () => {
		const { file, remove } = await sqliteFile();
		const client = new Database(file);
		try {
			client.pragma('foreign_keys = OFF');
			const adapter = DrizzleAdapter(betterSqliteDrizzle(client), { dialect: 'sqlite' });
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
			await adapter.createSession({ sessionToken: 's1', userId: 'u1', expires: new Date(Date.now() + 60_000) });
			expect(client.pragma('foreign_keys', { simple: true })).toBe(1);
			await adapter.deleteUser('u1');
			expect(client.prepare('SELECT count(*) AS count FROM auth_sessions').get()).toEqual({ count: 0 });
		} finally {
			client.close();
			remove();
		}
	});
});
