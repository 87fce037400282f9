// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import Database from 'better-sqlite3';
import { DriverUnavailable } from '../errors.js';
import { sqlAdapter, sqliteValue, type Row } from './sql.js';
import type { Adapter } from './types.js';

/** Open this file (created if missing), or use a database you already opened. */
export type SQLiteAdapterOptions = { filename: string } | { database: Database.Database };

// The tables of sql.ts (TABLES). Dates are epoch milliseconds, booleans 0/1.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_users (
	id TEXT PRIMARY KEY NOT NULL,
	name TEXT,
	email TEXT UNIQUE,
	emailVerified INTEGER,
	image TEXT,
	sessionVersion INTEGER NOT NULL DEFAULT 0
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
	expires INTEGER NOT NULL,
	createdAt INTEGER,
	userAgent TEXT,
	ipAddress TEXT
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
	transports TEXT,
	name TEXT,
	aaguid TEXT,
	createdAt INTEGER,
	lastUsedAt INTEGER
);
CREATE INDEX IF NOT EXISTS auth_authenticators_userId ON auth_authenticators(userId);
CREATE TABLE IF NOT EXISTS auth_two_factors (
	userId TEXT PRIMARY KEY NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	secret TEXT NOT NULL,
	createdAt INTEGER NOT NULL,
	lastUsedStep INTEGER
);
CREATE TABLE IF NOT EXISTS auth_recovery_codes (
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	codeHash TEXT NOT NULL,
	PRIMARY KEY (userId, codeHash)
);
`;

/**
 * Brings a file made by an older version to the current schema; each step is a no-op once done.
 * - `auth_accounts` gains `oauth_token` / `oauth_token_secret` (OAuth 1.0a accounts).
 * - `auth_users` gains `sessionVersion`, `auth_sessions` `createdAt`, `userAgent`, `ipAddress`,
 *   `auth_authenticators` `name`, `aaguid`, `createdAt`, `lastUsedAt` (the account page;
 *   docs/api.md#ending-sessions).
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
	const added = { auth_sessions: ['createdAt INTEGER', 'userAgent TEXT', 'ipAddress TEXT'], auth_authenticators: ['name TEXT', 'aaguid TEXT', 'createdAt INTEGER', 'lastUsedAt INTEGER'] };
	for (const [table, definitions] of Object.entries(added)) {
		const present = new Set(columns(table).map((column) => column.name));
		for (const definition of definitions) if (!present.has(definition.split(' ')[0]!)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${definition}`);
	}
	const userColumns = columns('auth_users');
	if (!userColumns.some((column) => column.name === 'sessionVersion')) db.exec('ALTER TABLE auth_users ADD COLUMN sessionVersion INTEGER NOT NULL DEFAULT 0');
	if (!userColumns.some((column) => column.name === 'email' && column.notnull)) return;
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

/**
 * `err` as {@link DriverUnavailable} when better-sqlite3's native addon did not load (Node's
 * `ERR_DLOPEN_FAILED`: built for another Node, or for another system; or never built): one line
 * naming the driver, why (the `NODE_MODULE_VERSION`s, when that is it) and the fix. Any other
 * error as it is.
 */
function driverError(err: unknown): unknown {
	const message = err instanceof Error ? err.message : String(err);
	if ((err as NodeJS.ErrnoException)?.code !== 'ERR_DLOPEN_FAILED' && !message.includes('Could not locate the bindings file')) return err;
	const abi = /NODE_MODULE_VERSION (\d+)\.\s*This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
	const why = abi ? `it was built for NODE_MODULE_VERSION ${abi[1]}, and this Node (${process.version}) needs ${abi[2]}` : message.split('\n')[0];
	// No cause attached: the message says all there is to do, and the log shows it as one line.
	return new DriverUnavailable(
		`better-sqlite3 cannot load: ${why}. Run npm rebuild better-sqlite3 (pnpm rebuild better-sqlite3 with pnpm) with the Node that runs the app, then restart it; npx create-auth doctor checks it.`
	);
}

/**
 * An adapter over SQLite (better-sqlite3) implementing every method of the spec's contract
 * (see {@link sqlAdapter}). The file is opened, the schema created (`IF NOT EXISTS`, WAL,
 * foreign keys on) and a file of an older version migrated (see {@link migrate}) on the first
 * method call, so importing this module at build time touches nothing. better-sqlite3 is
 * synchronous; its results and errors come back as settled promises, as the contract says.
 * Prepared statements are cached per SQL text. Dates are stored as epoch milliseconds. A driver
 * that cannot load fails every call with the same {@link DriverUnavailable} (see {@link driverError}),
 * without trying again: the addon loads only at the next start.
 * @see create-auth docs/api.md#adapter-methods
 */
export function SQLiteAdapter(options: SQLiteAdapterOptions): Required<Adapter> {
	let db: Database.Database | undefined;
	let unavailable: unknown;
	const statements = new Map<string, Database.Statement>();
	const open = () => {
		const opened = 'database' in options ? options.database : new Database(options.filename);
		opened.pragma('journal_mode = WAL');
		opened.pragma('foreign_keys = ON');
		opened.exec(SCHEMA);
		migrate(opened);
		return opened;
	};
	return sqlAdapter({
		async query(text, params) {
			if (unavailable) throw unavailable;
			try {
				db ??= open();
			} catch (err) {
				const failure = driverError(err);
				if (failure instanceof DriverUnavailable) unavailable = failure;
				throw failure;
			}
			let statement = statements.get(text);
			if (!statement) statements.set(text, (statement = db.prepare(text)));
			if (statement.reader) return { rows: statement.all(...params) as Row[], changes: 0 };
			return { rows: [], changes: statement.run(...params).changes };
		},
		rewrite: (text) => text,
		encode: sqliteValue
	});
}
