import { createHash } from 'node:crypto';
import { CliError } from '../errors.js';

/** The SQL dialects Better Auth's tables and create-auth's can be in. */
export type DataDialect = 'sqlite' | 'postgres' | 'mysql';

/** What copying needs from a database connection: one statement at a time, with `?` or `$n` parameters. */
export interface DataConnection {
	dialect: DataDialect;
	/** Runs one statement with parameters (`$1…` on PostgreSQL, `?` elsewhere); the rows it returns, none for a write. */
	query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

/** What {@link copyBetterAuthData} copied, and what it left, in rows. */
export interface CopyReport {
	/** Users now in `auth_users` with Better Auth's ids (copied now or by an earlier run). */
	users: number;
	/** Email-and-password accounts: their Better Auth scrypt hash, verified and rehashed at the next sign-in. */
	passwords: number;
	/** OAuth accounts (`github`, `google`, …): the provider id and account id as Better Auth stored them. */
	oauthAccounts: number;
	/** Unexpired sessions, stored under the hash of their token, as create-auth stores its own. */
	sessions: number;
	/**
	 * Better Auth users left out because create-auth's table has another user with the same
	 * address (the app ran both side by side and the person signed up on each): their addresses.
	 */
	conflicts: string[];
}

/**
 * Better Auth's tables (its default model names, singular or `usePlural`) and, per field, the
 * column names it may have: camelCase as its Kysely migrations create them, snake_case as its
 * Drizzle generator (`npx auth generate`, which `sv add better-auth` runs) writes them.
 */
const TABLES = { user: ['user', 'users'], account: ['account', 'accounts'], session: ['session', 'sessions'] } as const;
const FIELDS = {
	user: ['id', 'name', 'email', 'emailVerified', 'image', 'createdAt', 'updatedAt'],
	account: ['accountId', 'providerId', 'userId', 'accessToken', 'refreshToken', 'idToken', 'accessTokenExpiresAt', 'scope', 'password'],
	session: ['token', 'userId', 'expiresAt']
} as const;

/** Rows read and written per statement. */
const BATCH = 500;

/**
 * The key create-auth's runtime stores a database session under: `sha256.` and the SHA-256 of the
 * cookie's token, base64url (runtime `session/stored-key.ts`, `storedSessionKey`; the two are
 * held equal by this module's test).
 */
export function storedSessionKey(sessionToken: string): string {
	return `sha256.${createHash('sha256').update(sessionToken).digest('base64url')}`;
}

/**
 * Copies Better Auth's users, accounts and unexpired sessions into create-auth's tables
 * (`auth_users`, `auth_accounts`, `auth_sessions`; docs/architecture.md "Switching from another
 * library"), in one transaction, so that every user signs in as before:
 * - a user keeps its id, name, address (lower-cased, as both libraries compare them) and image;
 *   a verified address (`emailVerified` true) is dated by the row's `updatedAt`;
 * - an email-and-password account (`providerId` `credential`) becomes a `credentials` account
 *   keyed by the address, its `password_hash` Better Auth's `salt:key` scrypt hash unchanged
 *   (the runtime verifies that format and replaces it with its own at the next sign-in);
 * - any other account becomes an OAuth account of the same provider id and account id, with its
 *   tokens (`expires_at` in epoch seconds);
 * - a session becomes a row under {@link storedSessionKey} of its token, so the token Better
 *   Auth's cookie carries finds it; expired sessions and verification values (pending links) are
 *   left behind.
 * Rows create-auth's tables already hold (a run before) are kept as they are, so a second run
 * copies nothing twice. Better Auth's tables are only read.
 *
 * @throws {CliError} `E_SWITCH_NO_TABLES` when Better Auth's user table or create-auth's
 *   `auth_users` is missing; the driver's error (after a rollback) when a statement fails
 */
export async function copyBetterAuthData(connection: DataConnection, now = new Date()): Promise<CopyReport> {
	const dialect = DIALECTS[connection.dialect];
	const columns = await tableColumns(connection);
	if (!columns.user) {
		throw new CliError(
			'E_SWITCH_NO_TABLES',
			"Better Auth's user table is not in this database.",
			"Point DATABASE_URL at the database Better Auth's users are in. If Better Auth never made its tables (sv's npm run auth:schema and npm run db:push), make them, then switch: there is nothing to copy."
		);
	}
	if (!(await connection.query(dialect.tableExists, ['auth_users'])).length) {
		throw new CliError('E_SWITCH_NO_TABLES', "create-auth's tables (auth_users, …) are not in this database yet.", 'Run npx create-auth migrate first (the Drizzle adapter: it pushes them), then switch again.');
	}
	const report: CopyReport = { users: 0, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: [] };
	await connection.query(dialect.begin);
	try {
		const copied = new Map<string, string>();
		for await (const user of rows(connection, 'user', columns.user)) {
			const email = typeof user.email === 'string' ? user.email.trim().toLowerCase() : null;
			const verified = truthy(user.emailVerified) ? toDate(user.updatedAt ?? user.createdAt) ?? now : null;
			await insert(connection, 'auth_users', { id: String(user.id), name: user.name ?? null, email, emailVerified: verified, image: user.image ?? null });
			const [stored] = await connection.query(`SELECT id FROM auth_users WHERE email = ${dialect.param(1)}`, [email]);
			if (email && stored && String(stored.id) !== String(user.id)) report.conflicts.push(email);
			else {
				copied.set(String(user.id), email ?? '');
				report.users++;
			}
		}
		if (columns.account) {
			for await (const account of rows(connection, 'account', columns.account)) {
				const email = copied.get(String(account.userId));
				if (email === undefined) continue;
				if (account.providerId === 'credential') {
					if (typeof account.password !== 'string' || !email) continue;
					await insert(connection, 'auth_accounts', { userId: String(account.userId), type: 'credentials', provider: 'credentials', providerAccountId: email, password_hash: account.password });
					report.passwords++;
					continue;
				}
				const expires = toDate(account.accessTokenExpiresAt);
				await insert(connection, 'auth_accounts', {
					userId: String(account.userId),
					type: account.idToken ? 'oidc' : 'oauth',
					provider: String(account.providerId),
					providerAccountId: String(account.accountId),
					access_token: account.accessToken ?? null,
					refresh_token: account.refreshToken ?? null,
					id_token: account.idToken ?? null,
					expires_at: expires ? Math.floor(expires.getTime() / 1000) : null,
					token_type: account.accessToken ? 'bearer' : null,
					scope: account.scope ?? null
				});
				report.oauthAccounts++;
			}
		}
		if (columns.session) {
			for await (const session of rows(connection, 'session', columns.session)) {
				const expires = toDate(session.expiresAt);
				if (!copied.has(String(session.userId)) || typeof session.token !== 'string' || !expires || expires <= now) continue;
				await insert(connection, 'auth_sessions', { sessionToken: storedSessionKey(session.token), userId: String(session.userId), expires });
				report.sessions++;
			}
		}
		await connection.query(dialect.commit);
	} catch (error) {
		await connection.query(dialect.rollback).catch(() => undefined);
		throw error;
	}
	return report;
}

/** Per dialect: identifier quoting, parameters, dates as create-auth's tables store them, and the statements around a copy. */
const DIALECTS = {
	sqlite: {
		quote: (name: string) => `"${name}"`,
		param: () => '?',
		// create-auth's SQLite tables store dates as epoch milliseconds.
		date: (value: Date) => value.getTime(),
		insert: (table: string, columns: string, values: string) => `INSERT OR IGNORE INTO ${table} (${columns}) VALUES (${values})`,
		columns: (table: string) => ({ text: `SELECT name FROM pragma_table_info(?)`, params: [table] }),
		tableExists: `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`,
		begin: 'BEGIN',
		commit: 'COMMIT',
		rollback: 'ROLLBACK'
	},
	postgres: {
		quote: (name: string) => `"${name}"`,
		param: (n: number) => `$${n}`,
		date: (value: Date) => value,
		insert: (table: string, columns: string, values: string) => `INSERT INTO ${table} (${columns}) VALUES (${values}) ON CONFLICT DO NOTHING`,
		columns: (table: string) => ({ text: `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, params: [table] }),
		tableExists: `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`,
		begin: 'BEGIN',
		commit: 'COMMIT',
		rollback: 'ROLLBACK'
	},
	mysql: {
		quote: (name: string) => `\`${name}\``,
		param: () => '?',
		date: (value: Date) => value,
		insert: (table: string, columns: string, values: string) => `INSERT IGNORE INTO ${table} (${columns}) VALUES (${values})`,
		columns: (table: string) => ({ text: `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?`, params: [table] }),
		tableExists: `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?`,
		begin: 'START TRANSACTION',
		commit: 'COMMIT',
		rollback: 'ROLLBACK'
	}
} as const;

type Model = keyof typeof TABLES;
/** A Better Auth table as found: its name, and each field's column. */
interface FoundTable {
	name: string;
	columns: Partial<Record<string, string>>;
}

/** Better Auth's tables in the database, each with the columns of the fields it has; absent models left out. */
async function tableColumns(connection: DataConnection): Promise<Partial<Record<Model, FoundTable>>> {
	const dialect = DIALECTS[connection.dialect];
	const found: Partial<Record<Model, FoundTable>> = {};
	for (const model of Object.keys(TABLES) as Model[]) {
		for (const name of TABLES[model]) {
			const { text, params } = dialect.columns(name);
			const present = new Set((await connection.query(text, params)).map((row) => String(row.name ?? row.NAME ?? row.column_name ?? row.COLUMN_NAME)));
			if (present.size === 0) continue;
			const columns: Partial<Record<string, string>> = {};
			for (const field of FIELDS[model]) columns[field] = [field, snakeCase(field)].find((column) => present.has(column));
			found[model] = { name, columns };
			break;
		}
	}
	return found;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A table's rows, `BATCH` at a time in key order, with each field under its own name (absent columns: undefined). */
async function* rows(connection: DataConnection, model: Model, table: FoundTable): AsyncGenerator<Record<string, unknown>> {
	const dialect = DIALECTS[connection.dialect];
	const fields = FIELDS[model].filter((field) => table.columns[field]);
	const select = fields.map((field) => `${dialect.quote(table.columns[field]!)} AS ${dialect.quote(field)}`).join(', ');
	const key = model === 'session' ? 'token' : model === 'user' ? 'id' : 'userId';
	const order = [key, ...(model === 'account' ? ['providerId', 'accountId'] : [])].filter((field) => table.columns[field]).map((field) => dialect.quote(table.columns[field]!));
	for (let offset = 0; ; offset += BATCH) {
		const batch = await connection.query(`SELECT ${select} FROM ${dialect.quote(table.name)} ORDER BY ${order.join(', ')} LIMIT ${BATCH} OFFSET ${offset}`);
		yield* batch;
		if (batch.length < BATCH) return;
	}
}

/** Inserts one row into a create-auth table unless its key is there already; Dates as the dialect stores them. */
async function insert(connection: DataConnection, table: string, row: Record<string, unknown>): Promise<void> {
	const dialect = DIALECTS[connection.dialect];
	const entries = Object.entries(row);
	const columns = entries.map(([column]) => dialect.quote(column)).join(', ');
	const values = entries.map((_, index) => dialect.param(index + 1)).join(', ');
	await connection.query(dialect.insert(table, columns, values), entries.map(([, value]) => (value instanceof Date ? dialect.date(value) : value)));
}

/** Better Auth's boolean as the drivers return it: true, 1, '1', 't', 'true'. */
function truthy(value: unknown): boolean {
	return value === true || value === 1 || value === 1n || value === '1' || value === 't' || value === 'true';
}

/**
 * A date as Better Auth's tables hold it: a Date (PostgreSQL, MySQL), an ISO string (its SQLite
 * migrations), epoch milliseconds (Drizzle's `timestamp_ms`) or seconds (Drizzle's `timestamp`).
 * Undefined for null or what does not read as a date.
 */
function toDate(value: unknown): Date | undefined {
	if (value === null || value === undefined) return undefined;
	let date: Date;
	if (value instanceof Date) date = value;
	else if (typeof value === 'number' || typeof value === 'bigint' || (typeof value === 'string' && /^\d+$/.test(value))) {
		const number = Number(value);
		date = new Date(number < 1e11 ? number * 1000 : number);
	} else date = new Date(String(value));
	return Number.isNaN(date.getTime()) ? undefined : date;
}
