import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SQLiteAdapter } from './sqlite.js';
import type { AdapterAuthenticator, AdapterUser } from './types.js';

let dir: string;
let filename: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'create-auth-sqlite-'));
	filename = join(dir, 'auth.sqlite');
	vi.useFakeTimers();
	vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
});
afterEach(() => {
	vi.useRealTimers();
	rmSync(dir, { recursive: true, force: true });
});

const alice: AdapterUser = { id: 'u1', email: 'alice@example.com', emailVerified: null, name: 'Alice', image: null };
const authenticator: AdapterAuthenticator = {
	credentialID: 'cred-1',
	credentialPublicKey: 'cHVibGlj',
	counter: 0,
	credentialDeviceType: 'singleDevice',
	credentialBackedUp: false,
	transports: 'usb,nfc',
	providerAccountId: 'cred-1',
	userId: 'u1'
};

describe('SQLiteAdapter', () => {
	it('does not open or create the database file until a method is called', () => {
		const adapter = SQLiteAdapter({ filename });
		expect(existsSync(filename)).toBe(false);
		adapter.getUser('nobody');
		expect(existsSync(filename)).toBe(true);
	});

	it('creates, reads, updates and deletes users, with dates returned as Date', () => {
		const adapter = SQLiteAdapter({ filename });
		expect(adapter.createUser(alice)).toEqual(alice);
		expect(adapter.getUserByEmail('alice@example.com')).toEqual(alice);
		const verified = new Date('2025-01-02T03:04:05.678Z');
		expect(adapter.updateUser({ id: 'u1', emailVerified: verified, name: 'Al' })).toEqual({
			...alice,
			name: 'Al',
			emailVerified: verified
		});
		expect(adapter.deleteUser('u1')).toMatchObject({ id: 'u1' });
		expect(adapter.getUser('u1')).toBeNull();
	});

	it('rejects a second user with the same email', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		expect(() => adapter.createUser({ ...alice, id: 'u2' })).toThrow(/UNIQUE/);
	});

	it('throws when updating a user that does not exist', () => {
		expect(() => SQLiteAdapter({ filename }).updateUser({ id: 'ghost', name: 'x' })).toThrow();
	});

	it('links, finds and unlinks accounts, keeping password_hash and omitting unset fields', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		const account = { userId: 'u1', type: 'credentials', provider: 'credentials', providerAccountId: 'alice@example.com', password_hash: 'scrypt$x' } as const;
		adapter.linkAccount(account);
		expect(adapter.getAccount('alice@example.com', 'credentials')).toEqual(account);
		expect(adapter.getAccount('alice@example.com', 'idp')).toBeNull();
		expect(adapter.getUserByAccount({ provider: 'credentials', providerAccountId: 'alice@example.com' })).toEqual(alice);
		expect(adapter.unlinkAccount({ provider: 'credentials', providerAccountId: 'alice@example.com' })).toEqual(account);
		expect(adapter.getUserByAccount({ provider: 'credentials', providerAccountId: 'alice@example.com' })).toBeNull();
	});

	it('stores OAuth token fields in snake_case, expires_at as a number', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		const account = { userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub-1', access_token: 'at', expires_at: 1735693200, token_type: 'bearer', scope: 'openid' } as const;
		adapter.linkAccount(account);
		expect(adapter.getAccount('sub-1', 'idp')).toEqual(account);
	});

	it('creates, joins, extends and deletes sessions', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		const expires = new Date('2025-01-31T00:00:00Z');
		adapter.createSession({ sessionToken: 's1', userId: 'u1', expires });
		expect(adapter.getSessionAndUser('s1')).toEqual({ session: { sessionToken: 's1', userId: 'u1', expires }, user: alice });
		const later = new Date('2025-02-01T00:00:00Z');
		expect(adapter.updateSession({ sessionToken: 's1', expires: later })).toEqual({ sessionToken: 's1', userId: 'u1', expires: later });
		expect(adapter.deleteSession('s1')).toMatchObject({ sessionToken: 's1' });
		expect(adapter.getSessionAndUser('s1')).toBeNull();
		expect(adapter.updateSession({ sessionToken: 'missing', expires: later })).toBeNull();
	});

	it('deletes a user’s sessions, accounts and authenticators with the user (cascade)', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		adapter.createSession({ sessionToken: 's1', userId: 'u1', expires: new Date('2025-02-01') });
		adapter.linkAccount({ userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub-1' });
		adapter.createAuthenticator(authenticator);
		adapter.deleteUser('u1');
		expect(adapter.getSessionAndUser('s1')).toBeNull();
		expect(adapter.getAccount('sub-1', 'idp')).toBeNull();
		expect(adapter.listAuthenticatorsByUserId('u1')).toEqual([]);
	});

	it('returns a verification token once, then never again', () => {
		const adapter = SQLiteAdapter({ filename });
		const token = { identifier: 'alice@example.com', token: 'hashed', expires: new Date('2025-01-01T00:10:00Z') };
		adapter.createVerificationToken(token);
		expect(adapter.useVerificationToken({ identifier: token.identifier, token: 'other' })).toBeNull();
		expect(adapter.useVerificationToken({ identifier: token.identifier, token: 'hashed' })).toEqual(token);
		expect(adapter.useVerificationToken({ identifier: token.identifier, token: 'hashed' })).toBeNull();
	});

	it('rejects and deletes an expired verification token', () => {
		const adapter = SQLiteAdapter({ filename });
		const token = { identifier: 'alice@example.com', token: 'hashed', expires: new Date('2025-01-01T00:10:00Z') };
		adapter.createVerificationToken(token);
		vi.setSystemTime(new Date('2025-01-01T00:10:00.001Z'));
		expect(adapter.useVerificationToken({ identifier: token.identifier, token: 'hashed' })).toBeNull();
		vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
		expect(adapter.useVerificationToken({ identifier: token.identifier, token: 'hashed' })).toBeNull();
	});

	it('stores authenticators with booleans intact and updates the counter', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		expect(adapter.createAuthenticator(authenticator)).toEqual(authenticator);
		expect(adapter.getAuthenticator('cred-1')).toEqual(authenticator);
		expect(adapter.getAuthenticator('nope')).toBeNull();
		expect(adapter.updateAuthenticatorCounter('cred-1', 5)).toEqual({ ...authenticator, counter: 5 });
		expect(adapter.listAuthenticatorsByUserId('u1')).toEqual([{ ...authenticator, counter: 5 }]);
		expect(adapter.listAuthenticatorsByUserId('unknown')).toEqual([]);
	});

	it.each([
		['an unknown user', { ...authenticator, userId: 'ghost' }],
		['a duplicate credential id', authenticator]
	])('throws when creating an authenticator for %s', (_, input) => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		if (input === authenticator) adapter.createAuthenticator(authenticator);
		expect(() => adapter.createAuthenticator(input)).toThrow();
	});

	it('throws when updating the counter of an unknown authenticator', () => {
		expect(() => SQLiteAdapter({ filename }).updateAuthenticatorCounter('nope', 1)).toThrow();
	});

	it('stores users without an email, any number of them', () => {
		const adapter = SQLiteAdapter({ filename });
		const noEmail = { id: 'n1', email: null, emailVerified: null, name: 'No Email', image: null };
		expect(adapter.createUser(noEmail)).toEqual(noEmail);
		expect(adapter.createUser({ ...noEmail, id: 'n2' })).toEqual({ ...noEmail, id: 'n2' });
	});

	it('stores OAuth 1.0a token credentials (oauth_token, oauth_token_secret) on accounts', () => {
		const adapter = SQLiteAdapter({ filename });
		adapter.createUser(alice);
		const account = { userId: 'u1', type: 'oauth', provider: 'social', providerAccountId: '12', oauth_token: 't', oauth_token_secret: 's' } as const;
		adapter.linkAccount(account);
		expect(adapter.getAccount('12', 'social')).toEqual(account);
	});

	it('keeps data across adapters opened on the same file', () => {
		SQLiteAdapter({ filename }).createUser(alice);
		expect(SQLiteAdapter({ filename }).getUser('u1')).toEqual(alice);
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

	it('opens it, keeps its users, accounts and sessions, and then accepts a user without email', () => {
		oldFile();
		const adapter = SQLiteAdapter({ filename });
		expect(adapter.getUser('u1')).toEqual(alice);
		expect(adapter.getAccount('sub-1', 'idp')).toEqual({ userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub-1' });
		expect(adapter.getSessionAndUser('s1')).toEqual({ session: { sessionToken: 's1', userId: 'u1', expires: new Date('2025-02-01') }, user: alice });
		const noEmail = { id: 'n1', email: null, emailVerified: null, name: 'No Email', image: null };
		expect(adapter.createUser(noEmail)).toEqual(noEmail);
		expect(adapter.createUser({ ...noEmail, id: 'n2' })).toEqual({ ...noEmail, id: 'n2' });
		expect(() => adapter.createUser({ ...alice, id: 'u3' })).toThrow(/UNIQUE/);
		adapter.linkAccount({ userId: 'n1', type: 'oauth', provider: 'social', providerAccountId: '12', oauth_token: 't', oauth_token_secret: 's' });
		expect(adapter.getAccount('12', 'social')).toMatchObject({ oauth_token: 't', oauth_token_secret: 's' });
	});

	it('makes email nullable and adds the OAuth 1.0a columns, keeping what the app added, with foreign keys intact', () => {
		oldFile();
		SQLiteAdapter({ filename }).getUser('u1');
		const db = new Database(filename);
		expect(columns(db, 'auth_users').find((c) => c.name === 'email')).toMatchObject({ notnull: 0 });
		expect(columns(db, 'auth_accounts').map((c) => c.name)).toEqual(expect.arrayContaining(['oauth_token', 'oauth_token_secret']));
		expect(db.prepare("SELECT plan FROM auth_users WHERE id = 'u1'").get()).toEqual({ plan: 'pro' });
		expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'auth_users_plan'").get()).toEqual({ name: 'auth_users_plan' });
		expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%migrated%'").all()).toEqual([]);
		expect(db.pragma('foreign_key_check')).toEqual([]);
		expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
		db.close();
		// The accounts still reference the users table: deleting a user cascades.
		const adapter = SQLiteAdapter({ filename });
		adapter.deleteUser('u1');
		expect(adapter.getAccount('sub-1', 'idp')).toBeNull();
		expect(adapter.getSessionAndUser('s1')).toBeNull();
	});

	it('migrates once: opening the migrated file again changes nothing', () => {
		oldFile();
		SQLiteAdapter({ filename }).getUser('u1');
		const schemaOf = () => {
			const db = new Database(filename);
			const schema = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
			db.close();
			return schema;
		};
		const migrated = schemaOf();
		expect(SQLiteAdapter({ filename }).getUser('u1')).toEqual(alice);
		expect(schemaOf()).toEqual(migrated);
	});
});
