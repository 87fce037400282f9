// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import Database from 'better-sqlite3';
import type {
	Adapter,
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from './types.js';

/** Open this file (created if missing), or use a database you already opened. */
export type SQLiteAdapterOptions = { filename: string } | { database: Database.Database };

// Tables are prefixed so they cannot clash with the app's own. Dates are epoch milliseconds.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_users (
	id TEXT PRIMARY KEY NOT NULL,
	name TEXT,
	email TEXT UNIQUE,
	emailVerified INTEGER,
	image TEXT
);
CREATE TABLE IF NOT EXISTS auth_accounts (
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
	oauth_token TEXT,
	oauth_token_secret TEXT,
	password_hash TEXT,
	PRIMARY KEY (provider, providerAccountId)
);
CREATE INDEX IF NOT EXISTS auth_accounts_userId ON auth_accounts(userId);
CREATE TABLE IF NOT EXISTS auth_sessions (
	sessionToken TEXT PRIMARY KEY NOT NULL,
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	expires INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS auth_sessions_userId ON auth_sessions(userId);
CREATE TABLE IF NOT EXISTS auth_verification_tokens (
	identifier TEXT NOT NULL,
	token TEXT NOT NULL,
	expires INTEGER NOT NULL,
	PRIMARY KEY (identifier, token)
);
CREATE TABLE IF NOT EXISTS auth_authenticators (
	credentialID TEXT PRIMARY KEY NOT NULL,
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	providerAccountId TEXT NOT NULL,
	credentialPublicKey TEXT NOT NULL,
	counter INTEGER NOT NULL,
	credentialDeviceType TEXT NOT NULL,
	credentialBackedUp INTEGER NOT NULL,
	transports TEXT
);
CREATE INDEX IF NOT EXISTS auth_authenticators_userId ON auth_authenticators(userId);
`;

/** Columns stored per table; other fields of a record are not persisted. */
const USER_COLUMNS = ['name', 'email', 'emailVerified', 'image'] as const;
const ACCOUNT_COLUMNS = [
	'userId', 'type', 'provider', 'providerAccountId', 'refresh_token', 'access_token', 'expires_at',
	'token_type', 'scope', 'id_token', 'session_state', 'oauth_token', 'oauth_token_secret', 'password_hash'
] as const;

/**
 * Brings a file made by an older version to the current schema; each step is a no-op once done.
 * - `auth_accounts` gains `oauth_token` / `oauth_token_secret` (OAuth 1.0a accounts).
 * - `auth_users.email` loses NOT NULL (users whose provider gives no email; UNIQUE allows any
 *   number of NULLs). SQLite cannot drop a constraint in place, so the table is rebuilt as its
 *   documentation prescribes (https://www.sqlite.org/lang_altertable.html#otheralter): with
 *   foreign keys off (else dropping the old table would cascade to accounts and sessions), in
 *   one transaction, a copy made from the table's own CREATE statement (columns an app added are
 *   kept), the rows copied, the old table dropped and the copy renamed, its indexes and triggers
 *   recreated, and `foreign_key_check` run before committing. A CREATE statement in another
 *   shape than ours is left as it is.
 */
function migrate(db: Database.Database): void {
	const columns = (table: string) => db.pragma(`table_info(${table})`) as { name: string; notnull: number }[];
	const accountColumns = new Set(columns('auth_accounts').map((column) => column.name));
	for (const column of ['oauth_token', 'oauth_token_secret']) {
		if (!accountColumns.has(column)) db.exec(`ALTER TABLE auth_accounts ADD COLUMN ${column} TEXT`);
	}
	if (!columns('auth_users').some((column) => column.name === 'email' && column.notnull)) return;
	const statements = db.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'auth_users' AND type = ? AND sql IS NOT NULL");
	const schema = (type: string) => (statements.all(type) as { sql: string }[]).map((row) => row.sql);
	const [create] = schema('table');
	const nullable = create?.replace(/\bemail\s+TEXT\s+NOT\s+NULL\b/i, 'email TEXT');
	if (!create || !nullable || nullable === create) return;
	const dependents = [...schema('index'), ...schema('trigger')];
	const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1;
	db.pragma('foreign_keys = OFF');
	try {
		db.transaction(() => {
			db.exec(nullable.replace(/^CREATE TABLE\s+(IF NOT EXISTS\s+)?["`]?auth_users["`]?/i, 'CREATE TABLE auth_users_migrated'));
			db.exec('INSERT INTO auth_users_migrated SELECT * FROM auth_users');
			db.exec('DROP TABLE auth_users');
			db.exec('ALTER TABLE auth_users_migrated RENAME TO auth_users');
			for (const sql of dependents) db.exec(sql);
			const broken = db.pragma('foreign_key_check') as unknown[];
			if (broken.length > 0) throw new Error(`Making auth_users.email nullable would break ${broken.length} foreign keys.`);
		})();
	} finally {
		if (foreignKeys) db.pragma('foreign_keys = ON');
	}
}

type Row = Record<string, unknown>;

const toUser = (row: Row): AdapterUser => ({
	id: row.id as string,
	name: row.name as string | null,
	email: row.email as string | null,
	emailVerified: row.emailVerified === null ? null : new Date(row.emailVerified as number),
	image: row.image as string | null
});

/** Optional account fields come back absent, not null, as the type says. */
const toAccount = (row: Row) =>
	Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as AdapterAccount;

const toSession = (row: Row): AdapterSession => ({
	sessionToken: row.sessionToken as string,
	userId: row.userId as string,
	expires: new Date(row.expires as number)
});

const toVerificationToken = (row: Row): VerificationToken => ({
	identifier: row.identifier as string,
	token: row.token as string,
	expires: new Date(row.expires as number)
});

const toAuthenticator = (row: Row): AdapterAuthenticator => ({
	...(row as unknown as AdapterAuthenticator),
	credentialBackedUp: row.credentialBackedUp === 1
});

/** A record's own values for the given columns, with Dates and booleans as SQLite stores them. */
function pick(record: object, columns: readonly string[]): Row {
	const values: Row = {};
	for (const column of columns) {
		const value = (record as Row)[column];
		if (value === undefined) continue;
		values[column] = value instanceof Date ? value.getTime() : typeof value === 'boolean' ? Number(value) : value;
	}
	return values;
}

/**
 * An adapter over SQLite (better-sqlite3) implementing every method of the spec's contract.
 * The file is opened, the schema created (`IF NOT EXISTS`, WAL, foreign keys on) and a file of
 * an older version migrated (see {@link migrate}) on the first method call, so importing this
 * module at build time touches nothing. Calls are
 * synchronous inside; prepared statements are cached per SQL text.
 * @see spec/interface.md "Adapter methods"
 */
export function SQLiteAdapter(options: SQLiteAdapterOptions): Required<Adapter> {
	let db: Database.Database | undefined;
	const statements = new Map<string, Database.Statement>();

	function sql(text: string): Database.Statement {
		if (!db) {
			const opened = 'database' in options ? options.database : new Database(options.filename);
			opened.pragma('journal_mode = WAL');
			opened.pragma('foreign_keys = ON');
			opened.exec(SCHEMA);
			migrate(opened);
			db = opened;
		}
		let statement = statements.get(text);
		if (!statement) statements.set(text, (statement = db.prepare(text)));
		return statement;
	}
	const one = (text: string, ...params: unknown[]) => sql(text).get(...params) as Row | undefined;
	const insert = (table: string, values: Row) => {
		const columns = Object.keys(values);
		const placeholders = columns.map((column) => `@${column}`).join(', ');
		sql(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders})`).run(values);
	};
	const update = (table: string, key: string, keyValue: unknown, values: Row) => {
		const assignments = Object.keys(values).map((column) => `${column} = @${column}`);
		if (assignments.length === 0) return;
		sql(`UPDATE ${table} SET ${assignments.join(', ')} WHERE ${key} = @${key}`).run({ ...values, [key]: keyValue });
	};

	const getUser = (id: string) => {
		const row = one('SELECT * FROM auth_users WHERE id = ?', id);
		return row ? toUser(row) : null;
	};
	const getAuthenticator = (credentialID: string) => {
		const row = one('SELECT * FROM auth_authenticators WHERE credentialID = ?', credentialID);
		return row ? toAuthenticator(row) : null;
	};
	const getSession = (sessionToken: string) => {
		const row = one('SELECT * FROM auth_sessions WHERE sessionToken = ?', sessionToken);
		return row ? toSession(row) : null;
	};

	return {
		createUser(user) {
			insert('auth_users', { id: user.id, ...pick(user, USER_COLUMNS) });
			return getUser(user.id)!;
		},
		getUser,
		getUserByEmail(email) {
			const row = one('SELECT * FROM auth_users WHERE email = ?', email);
			return row ? toUser(row) : null;
		},
		getUserByAccount({ provider, providerAccountId }) {
			const row = one(
				`SELECT u.* FROM auth_users u JOIN auth_accounts a ON a.userId = u.id
				 WHERE a.provider = ? AND a.providerAccountId = ?`,
				provider,
				providerAccountId
			);
			return row ? toUser(row) : null;
		},
		updateUser(user) {
			update('auth_users', 'id', user.id, pick(user, USER_COLUMNS));
			const updated = getUser(user.id);
			if (!updated) throw new Error(`updateUser: no user with id ${user.id}`);
			return updated;
		},
		deleteUser(userId) {
			const row = one('DELETE FROM auth_users WHERE id = ? RETURNING *', userId);
			return row ? toUser(row) : null;
		},
		linkAccount(account) {
			insert('auth_accounts', pick(account, ACCOUNT_COLUMNS));
			return account;
		},
		unlinkAccount({ provider, providerAccountId }) {
			const row = one(
				'DELETE FROM auth_accounts WHERE provider = ? AND providerAccountId = ? RETURNING *',
				provider,
				providerAccountId
			);
			return row ? toAccount(row) : undefined;
		},
		getAccount(providerAccountId, provider) {
			const row = one('SELECT * FROM auth_accounts WHERE provider = ? AND providerAccountId = ?', provider, providerAccountId);
			return row ? toAccount(row) : null;
		},
		createSession(session) {
			insert('auth_sessions', pick(session, ['sessionToken', 'userId', 'expires']));
			return session;
		},
		getSessionAndUser(sessionToken) {
			const session = getSession(sessionToken);
			const user = session && getUser(session.userId);
			return session && user ? { session, user } : null;
		},
		updateSession(session) {
			update('auth_sessions', 'sessionToken', session.sessionToken, pick(session, ['userId', 'expires']));
			return getSession(session.sessionToken);
		},
		deleteSession(sessionToken) {
			const row = one('DELETE FROM auth_sessions WHERE sessionToken = ? RETURNING *', sessionToken);
			return row ? toSession(row) : null;
		},
		createVerificationToken(token) {
			insert('auth_verification_tokens', pick(token, ['identifier', 'token', 'expires']));
			return token;
		},
		useVerificationToken({ identifier, token }) {
			const row = one('DELETE FROM auth_verification_tokens WHERE identifier = ? AND token = ? RETURNING *', identifier, token);
			const used = row && toVerificationToken(row);
			return used && used.expires.getTime() > Date.now() ? used : null;
		},
		createAuthenticator(authenticator) {
			insert('auth_authenticators', pick(authenticator, [
				'credentialID', 'userId', 'providerAccountId', 'credentialPublicKey', 'counter',
				'credentialDeviceType', 'credentialBackedUp', 'transports'
			]));
			return getAuthenticator(authenticator.credentialID)!;
		},
		getAuthenticator,
		listAuthenticatorsByUserId(userId) {
			return (sql('SELECT * FROM auth_authenticators WHERE userId = ?').all(userId) as Row[]).map(toAuthenticator);
		},
		updateAuthenticatorCounter(credentialID, newCounter) {
			sql('UPDATE auth_authenticators SET counter = ? WHERE credentialID = ?').run(newCounter, credentialID);
			const updated = getAuthenticator(credentialID);
			if (!updated) throw new Error(`updateAuthenticatorCounter: no authenticator ${credentialID}`);
			return updated;
		}
	};
}
