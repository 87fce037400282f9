import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { SQLiteAdapter } from './sqlite.js';
import type { AdapterUser } from './types.js';

let dir: string;
let filename: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'create-auth-sqlite-'));
	filename = join(dir, 'auth.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alice: AdapterUser = { id: 'u1', email: 'alice@example.com', emailVerified: null, name: 'Alice', image: null };

describeAdapterContract('SQLiteAdapter', async () => {
	const file = join(mkdtempSync(join(tmpdir(), 'create-auth-sqlite-contract-')), 'auth.sqlite');
	return {
		adapter: SQLiteAdapter({ filename: file }),
		twin: () => SQLiteAdapter({ filename: file }),
		async userCount() {
			const db = new Database(file, { readonly: true });
			const { count } = db.prepare('SELECT count(*) AS count FROM auth_users').get() as { count: number };
			db.close();
			return count;
		},
		close: async () => rmSync(dirname(file), { recursive: true, force: true })
	};
});

describe('SQLiteAdapter', () => {
	it('does not open or create the database file until a method is called', async () => {
		const adapter = SQLiteAdapter({ filename });
		expect(existsSync(filename)).toBe(false);
		await adapter.getUser('nobody');
		expect(existsSync(filename)).toBe(true);
	});

	it('keeps data across adapters opened on the same file', async () => {
		await SQLiteAdapter({ filename }).createUser(alice);
		expect(await SQLiteAdapter({ filename }).getUser('u1')).toEqual({ ...alice, sessionVersion: 0 });
	});

	it('reports a constraint failure as a rejected promise, not a synchronous throw', async () => {
		const adapter = SQLiteAdapter({ filename });
		await adapter.createUser(alice);
		let result: Promise<unknown> | undefined;
		expect(() => (result = adapter.createUser({ ...alice, id: 'u2' }) as Promise<unknown>)).not.toThrow();
		await expect(result).rejects.toThrow(/UNIQUE/);
	});
});

/** The tables as create-auth 0.1.0 made them: email NOT NULL, no OAuth 1.0a columns. */
const OLD_SCHEMA = `
CREATE TABLE auth_users (
	id TEXT PRIMARY KEY NOT NULL,
	name TEXT,
	email TEXT NOT NULL UNIQUE,
	emailVerified INTEGER,
	image TEXT
);
CREATE TABLE auth_accounts (
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	provider TEXT NOT NULL,
	providerAccountId TEXT NOT NULL,
	refresh_token TEXT,
	access_token TEXT,
	expires_at INTEGER,
	token_type TEXT,
	scope TEXT,
	id_token TEXT,
	session_state TEXT,
	password_hash TEXT,
	PRIMARY KEY (provider, providerAccountId)
);
CREATE TABLE auth_sessions (
	sessionToken TEXT PRIMARY KEY NOT NULL,
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	expires INTEGER NOT NULL
);
`;

describe('SQLiteAdapter on a file of an older version', () => {
	/** An old file with alice, her account and session, a column and an index the app added. */
	function oldFile() {
		const db = new Database(filename);
		db.pragma('foreign_keys = ON');
		db.exec(OLD_SCHEMA);
		db.exec('ALTER TABLE auth_users ADD COLUMN plan TEXT');
		db.exec('CREATE INDEX auth_users_plan ON auth_users(plan)');
		db.prepare("INSERT INTO auth_users (id, name, email, emailVerified, image, plan) VALUES ('u1', 'Alice', 'alice@example.com', NULL, NULL, 'pro')").run();
		db.prepare("INSERT INTO auth_accounts (userId, type, provider, providerAccountId) VALUES ('u1', 'oidc', 'idp', 'sub-1')").run();
		db.prepare("INSERT INTO auth_sessions (sessionToken, userId, expires) VALUES ('s1', 'u1', ?)").run(Date.parse('2025-02-01'));
		db.close();
	}
	const columns = (db: Database.Database, table: string) => db.pragma(`table_info(${table})`) as { name: string; notnull: number }[];

	it('opens it, keeps its users, accounts and sessions, and then accepts a user without email', async () => {
		oldFile();
		const adapter = SQLiteAdapter({ filename });
		expect(await adapter.getUser('u1')).toEqual({ ...alice, plan: 'pro', sessionVersion: 0 });
		expect(await adapter.getAccount('sub-1', 'idp')).toEqual({ userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub-1' });
		// A session from before the sign-in details: unknown, not invented.
		expect(await adapter.getSessionAndUser('s1')).toEqual({
			session: { sessionToken: 's1', userId: 'u1', expires: new Date('2025-02-01'), createdAt: null, userAgent: null, ipAddress: null },
			user: { ...alice, plan: 'pro', sessionVersion: 0 }
		});
		const noEmail = { id: 'n1', email: null, emailVerified: null, name: 'No Email', image: null };
		expect(await adapter.createUser(noEmail)).toEqual({ ...noEmail, plan: null, sessionVersion: 0 });
		expect(await adapter.createUser({ ...noEmail, id: 'n2' })).toMatchObject({ ...noEmail, id: 'n2' });
		await expect(adapter.createUser({ ...alice, id: 'u3' })).rejects.toThrow(/UNIQUE/);
		await adapter.linkAccount({ userId: 'n1', type: 'oauth', provider: 'social', providerAccountId: '12', oauth_token: 't', oauth_token_secret: 's' });
		expect(await adapter.getAccount('12', 'social')).toMatchObject({ oauth_token: 't', oauth_token_secret: 's' });
	});

	it('makes email nullable and adds the OAuth 1.0a, session detail and sessionVersion columns, keeping what the app added, with foreign keys intact', async () => {
		oldFile();
		await SQLiteAdapter({ filename }).getUser('u1');
		const db = new Database(filename);
		expect(columns(db, 'auth_users').find((c) => c.name === 'email')).toMatchObject({ notnull: 0 });
		expect(columns(db, 'auth_accounts').map((c) => c.name)).toEqual(expect.arrayContaining(['oauth_token', 'oauth_token_secret']));
		expect(columns(db, 'auth_sessions').map((c) => c.name)).toEqual(expect.arrayContaining(['createdAt', 'userAgent', 'ipAddress']));
		expect(columns(db, 'auth_users').map((c) => c.name)).toEqual(expect.arrayContaining(['sessionVersion']));
		expect(db.prepare("SELECT plan FROM auth_users WHERE id = 'u1'").get()).toEqual({ plan: 'pro' });
		expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'auth_users_plan'").get()).toEqual({ name: 'auth_users_plan' });
		expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%migrated%'").all()).toEqual([]);
		expect(db.pragma('foreign_key_check')).toEqual([]);
		expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
		db.close();
		// The accounts still reference the users table: deleting a user cascades.
		const adapter = SQLiteAdapter({ filename });
		await adapter.deleteUser('u1');
		expect(await adapter.getAccount('sub-1', 'idp')).toBeNull();
		expect(await adapter.getSessionAndUser('s1')).toBeNull();
	});

	it('migrates once: opening the migrated file again changes nothing', async () => {
		oldFile();
		await SQLiteAdapter({ filename }).getUser('u1');
		const schemaOf = () => {
			const db = new Database(filename);
			const schema = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
			db.close();
			return schema;
		};
		const migrated = schemaOf();
		expect(await SQLiteAdapter({ filename }).getUser('u1')).toEqual({ ...alice, plan: 'pro', sessionVersion: 0 });
		expect(schemaOf()).toEqual(migrated);
	});
});
