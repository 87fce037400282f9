import { createHash } from 'node:crypto';
import { CliError } from '../errors.js';

/** The SQL dialects another library's tables and create-auth's can be in. */
export type DataDialect = 'sqlite' | 'postgres' | 'mysql';

/** What copying needs from a database connection: one statement at a time, with `?` or `$n` parameters. */
export interface DataConnection {
	dialect: DataDialect;
	/** Runs one statement with parameters (`$1…` on PostgreSQL, `?` elsewhere); the rows it returns, none for a write. */
	query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

/** What a copy from another library copied, and what it left, in rows. */
export interface CopyReport {
	/** Users now in `auth_users` with the library's ids (copied now or by an earlier run). */
	users: number;
	/** Password accounts: the library's hash, verified and rehashed at the next sign-in. */
	passwords: number;
	/** OAuth accounts (`github`, `google`, …): the provider id and account id as the library stored them. */
	oauthAccounts: number;
	/** Unexpired sessions, stored under the hash of their token, as create-auth stores its own. */
	sessions: number;
	/**
	 * Users left out because create-auth's table has another user with the same address (the app
	 * ran both side by side and the person signed up on each): their addresses.
	 */
	conflicts: string[];
}

/**
 * The key create-auth's runtime stores a database session under: `sha256.` and the SHA-256 of the
 * cookie's token, base64url (runtime `session/stored-key.ts`, `storedSessionKey`; the two are
 * held equal by `better-auth-data.test.ts`).
 */
export function storedSessionKey(sessionToken: string): string {
	return `sha256.${createHash('sha256').update(sessionToken).digest('base64url')}`;
}

/** Rows read per statement. */
const BATCH = 500;

/** Per dialect: identifier quoting, parameters, dates as create-auth's tables store them, and the statements around a copy. */
const DIALECTS = {
	sqlite: {
		quote: (name: string) => `"${name}"`,
		param: () => '?',
		// create-auth's SQLite tables store dates as epoch milliseconds.
		date: (value: Date) => value.getTime(),
		insert: (table: string, columns: string, values: string) => `INSERT OR IGNORE INTO ${table} (${columns}) VALUES (${values})`,
		columns: `SELECT name FROM pragma_table_info(?)`,
		begin: 'BEGIN'
	},
	postgres: {
		quote: (name: string) => `"${name}"`,
		param: (n: number) => `$${n}`,
		date: (value: Date) => value,
		insert: (table: string, columns: string, values: string) => `INSERT INTO ${table} (${columns}) VALUES (${values}) ON CONFLICT DO NOTHING`,
		columns: `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
		begin: 'BEGIN'
	},
	mysql: {
		quote: (name: string) => `\`${name}\``,
		param: () => '?',
		date: (value: Date) => value,
		insert: (table: string, columns: string, values: string) => `INSERT IGNORE INTO ${table} (${columns}) VALUES (${values})`,
		columns: `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?`,
		begin: 'START TRANSACTION'
	}
} as const;

/** The parameter placeholder `n` (from 1) in the connection's dialect: `$1` or `?`. */
export const param = (connection: DataConnection, n: number) => DIALECTS[connection.dialect].param(n);

/** The names of a table's columns; empty when the table does not exist. */
export async function columnsOf(connection: DataConnection, table: string): Promise<Set<string>> {
	const rows = await connection.query(DIALECTS[connection.dialect].columns, [table]);
	return new Set(rows.map((row) => String(row.name ?? row.NAME ?? row.column_name ?? row.COLUMN_NAME)));
}

/** The first of `names` that is a table in the database, with its columns; undefined when none is. */
export async function findTable(connection: DataConnection, names: readonly string[]): Promise<FoundTable | undefined> {
	for (const name of names) {
		const present = await columnsOf(connection, name);
		if (present.size > 0) return { name, present };
	}
	return undefined;
}

/** A table as found: its name and its columns. */
export interface FoundTable {
	name: string;
	present: Set<string>;
}

/**
 * A table's rows, {@link BATCH} at a time in the order of `orderBy` (fields), each with its fields
 * under their own names: `fields` maps a field to its column, and a field without one is left out.
 */
export async function* readRows(connection: DataConnection, table: string, fields: Partial<Record<string, string>>, orderBy: readonly string[]): AsyncGenerator<Record<string, unknown>> {
	const dialect = DIALECTS[connection.dialect];
	const present = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
	const select = present.map(([field, column]) => `${dialect.quote(column)} AS ${dialect.quote(field)}`).join(', ');
	const order = orderBy.flatMap((field) => (fields[field] ? [dialect.quote(fields[field]!)] : [])).join(', ');
	for (let offset = 0; ; offset += BATCH) {
		const batch = await connection.query(`SELECT ${select} FROM ${dialect.quote(table)} ORDER BY ${order} LIMIT ${BATCH} OFFSET ${offset}`);
		yield* batch;
		if (batch.length < BATCH) return;
	}
}

/** Inserts one row into a create-auth table unless its key is there already; Dates as the dialect stores them. */
export async function insertRow(connection: DataConnection, table: string, row: Record<string, unknown>): Promise<void> {
	const dialect = DIALECTS[connection.dialect];
	const entries = Object.entries(row);
	const columns = entries.map(([column]) => dialect.quote(column)).join(', ');
	const values = entries.map((_, index) => dialect.param(index + 1)).join(', ');
	await connection.query(dialect.insert(table, columns, values), entries.map(([, value]) => (value instanceof Date ? dialect.date(value) : value)));
}

/**
 * Runs `copy` in one transaction: committed when it returns, rolled back when it throws.
 * @throws {CliError} `E_SWITCH_NO_TABLES` when create-auth's `auth_users` is not in the database
 *   (nothing is begun); what `copy` throws, after the rollback
 */
export async function inTransaction<T>(connection: DataConnection, copy: () => Promise<T>): Promise<T> {
	if ((await columnsOf(connection, 'auth_users')).size === 0) {
		throw new CliError('E_SWITCH_NO_TABLES', "create-auth's tables (auth_users, …) are not in this database yet.", 'Run npx create-auth migrate first (the Drizzle adapter: it pushes them), then switch again.');
	}
	await connection.query(DIALECTS[connection.dialect].begin);
	try {
		const result = await copy();
		await connection.query('COMMIT');
		return result;
	} catch (error) {
		await connection.query('ROLLBACK').catch(() => undefined);
		throw error;
	}
}

/**
 * Copies one user into `auth_users` (kept as it is when its id is there already), its address
 * lower-cased as create-auth compares them.
 * @returns false when create-auth's table has another user with the same address (then the
 *   address is added to `report.conflicts`); true when the user is there now, counted in `report.users`
 */
export async function copyUser(
	connection: DataConnection,
	user: { id: string; name: unknown; email: string | null; emailVerified: Date | null; image: unknown },
	report: CopyReport
): Promise<boolean> {
	await insertRow(connection, 'auth_users', { ...user, name: user.name ?? null, image: user.image ?? null });
	const [stored] = user.email ? await connection.query(`SELECT id FROM auth_users WHERE email = ${param(connection, 1)}`, [user.email]) : [];
	if (stored && String(stored.id) !== user.id) {
		report.conflicts.push(user.email!);
		return false;
	}
	report.users++;
	return true;
}

/** A boolean as the drivers return it: true, 1, '1', 't', 'true'. */
export function truthy(value: unknown): boolean {
	return value === true || value === 1 || value === 1n || value === '1' || value === 't' || value === 'true';
}

/**
 * A date as another library's tables hold it: a Date (PostgreSQL, MySQL), an ISO string (SQLite
 * migrations), epoch milliseconds (Drizzle's `timestamp_ms`) or seconds (Drizzle's `timestamp`).
 * Undefined for null or what does not read as a date.
 */
export function toDate(value: unknown): Date | undefined {
	if (value === null || value === undefined) return undefined;
	let date: Date;
	if (value instanceof Date) date = value;
	else if (typeof value === 'number' || typeof value === 'bigint' || (typeof value === 'string' && /^\d+$/.test(value))) {
		const number = Number(value);
		date = new Date(number < 1e11 ? number * 1000 : number);
	} else date = new Date(String(value));
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A field name in snake_case, as Drizzle generators and hand-written SQL name columns: `userId` → `user_id`. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Each field's column in a found table: the field's own name or its snake_case, whichever is there. */
export function columnsFor(table: FoundTable, fields: readonly string[]): Partial<Record<string, string>> {
	return Object.fromEntries(fields.map((field) => [field, [field, snakeCase(field)].find((column) => table.present.has(column))]));
}
