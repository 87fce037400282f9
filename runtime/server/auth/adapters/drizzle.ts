// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { sql, type SQL } from 'drizzle-orm';
import { backtickIdentifiers, sqlAdapter, sqliteValue, type QueryResult, type Row, type SqlDialect } from './sql.js';
import type { Adapter } from './types.js';

/** The SQL dialect of the app's Drizzle `db`, as its drizzle-kit config names it (`postgresql` → `postgres`). */
export type DrizzleDialect = 'postgres' | 'mysql' | 'sqlite';

/**
 * What the adapter calls on a PostgreSQL or MySQL Drizzle `db` (`drizzle-orm/node-postgres`,
 * `drizzle-orm/postgres-js`, `drizzle-orm/mysql2`): `execute`, which hands back the driver's
 * own result.
 */
export interface DrizzleServerDatabase {
	execute(query: SQL): PromiseLike<unknown>;
}

/**
 * What the adapter calls on a SQLite Drizzle `db` (`drizzle-orm/better-sqlite3`, synchronous, or
 * `drizzle-orm/libsql`, promises): `all` for reads, `run` for writes.
 */
export interface DrizzleSqliteDatabase {
	all(query: SQL): unknown;
	run(query: SQL): unknown;
}

/**
 * A Drizzle `SQL` of a statement written with `?` placeholders: the text between them as raw
 * SQL, each parameter bound as a parameter (`sql.param`), never spliced into the text. Drizzle
 * numbers the parameters for its driver: `$1`, `$2` for PostgreSQL, `?` for MySQL and SQLite.
 * The statements are sql.ts's own, with no `?` inside a quoted string.
 */
function toSql(text: string, params: readonly unknown[]): SQL {
	const parts = text.split('?');
	if (parts.length !== params.length + 1) {
		throw new Error(`${parts.length - 1} placeholders for ${params.length} parameters in: ${text}`);
	}
	const statement = sql.empty();
	parts.forEach((part, i) => {
		if (i > 0) statement.append(sql`${sql.param(params[i - 1])}`);
		statement.append(sql.raw(part));
	});
	return statement;
}

/**
 * `{ rows, changes }` from a PostgreSQL driver's result: node-postgres's `{ rows, rowCount }`,
 * or postgres.js's array of rows with `count`.
 */
function postgresResult(result: unknown): QueryResult {
	if (Array.isArray(result)) return { rows: [...(result as Row[])], changes: (result as { count?: number }).count ?? 0 };
	const { rows, rowCount } = result as { rows?: Row[]; rowCount?: number | null };
	return { rows: rows ?? [], changes: rowCount ?? 0 };
}

/** mysql2's column type codes of DATETIME and TIMESTAMP. */
const MYSQL_DATE_TYPES = new Set([12, 7]);

/**
 * `{ rows, changes }` from mysql2's `[rows | ResultSetHeader, fields]`. Drizzle asks mysql2 for
 * DATETIME columns as text (`2030-01-02 03:04:05.678`, no zone); we write them in UTC (see
 * {@link mysqlValue}), so they are read back as UTC, as Drizzle's own `datetime` columns are.
 */
function mysqlResult(result: unknown): QueryResult {
	const [rows, fields] = result as [Row[] | { affectedRows: number }, { name: string; columnType?: number; type?: number }[] | undefined];
	if (!Array.isArray(rows)) return { rows: [], changes: rows.affectedRows };
	const dates = (fields ?? []).filter((field) => MYSQL_DATE_TYPES.has(field.columnType ?? field.type ?? -1)).map((field) => field.name);
	if (dates.length === 0) return { rows, changes: 0 };
	for (const row of rows) {
		for (const name of dates) {
			const value = row[name];
			if (typeof value === 'string') row[name] = new Date(`${value.replace(' ', 'T')}Z`);
		}
	}
	return { rows, changes: 0 };
}

/**
 * A Date as MySQL's DATETIME(3) text in UTC (`2030-01-02 03:04:05.678`), as Drizzle's own
 * `datetime` columns write it: the app's mysql2 pool may convert Date objects in its local zone.
 */
const mysqlValue = (value: Date | boolean) => (value instanceof Date ? value.toISOString().replace('T', ' ').replace('Z', '') : value);

/**
 * A Date as an ISO 8601 string, which PostgreSQL reads into a timestamptz exactly: Drizzle turns
 * off postgres.js's own Date serializer, so a Date object would not survive the trip.
 */
const postgresValue = (value: Date | boolean) => (value instanceof Date ? value.toISOString() : value);

/** The SQL dialect over a server database's `execute`. */
function serverDialect(db: DrizzleServerDatabase, dialect: 'postgres' | 'mysql'): SqlDialect {
	const postgres = dialect === 'postgres';
	return {
		async query(text, params) {
			const result = await db.execute(toSql(text, params));
			return postgres ? postgresResult(result) : mysqlResult(result);
		},
		rewrite: postgres ? (text) => text : backtickIdentifiers,
		encode: postgres ? postgresValue : mysqlValue
	};
}

/**
 * The SQL dialect over a SQLite database's `all` (SELECT) and `run` (the rest). Foreign keys
 * are turned on for the app's connection before the first statement: better-sqlite3 and libsql
 * open connections with them on, but SQLite's own default is off, and without them deleting a
 * user would leave its accounts and sessions behind.
 */
function sqliteDialect(db: DrizzleSqliteDatabase): SqlDialect {
	let foreignKeys: Promise<unknown> | undefined;
	return {
		async query(text, params) {
			foreignKeys ??= Promise.resolve(db.run(sql.raw('PRAGMA foreign_keys = ON'))).catch((error: unknown) => {
				foreignKeys = undefined;
				throw error;
			});
			await foreignKeys;
			const statement = toSql(text, params);
			if (/^\s*SELECT\b/i.test(text)) return { rows: [...((await db.all(statement)) as Row[])], changes: 0 };
			const result = (await db.run(statement)) as { changes?: number; rowsAffected?: number };
			return { rows: [], changes: result.changes ?? result.rowsAffected ?? 0 };
		},
		rewrite: (text) => text,
		encode: sqliteValue
	};
}

/**
 * An adapter over the app's own Drizzle `db`, implementing every method of the spec's contract
 * (see {@link sqlAdapter}) on the app's one connection or pool. Its tables are part of the app's
 * Drizzle schema (`drizzle-schema/<dialect>.ts`, re-exported from the app's schema file), so the
 * app's drizzle-kit creates and migrates them with its own (`npm run db:push` or
 * `db:generate` + `db:migrate`).
 *
 * Statements go through Drizzle's raw SQL API, values always bound as parameters (see
 * {@link toSql}). Dates are stored as the Drizzle schema's columns say: timestamptz in
 * PostgreSQL, DATETIME(3) in UTC in MySQL, epoch milliseconds in SQLite; booleans as the
 * database's boolean (0/1 in SQLite). A failing statement is a rejected promise; a `db`
 * without the method `dialect` needs (`execute`; `all` and `run`) is a TypeError when the adapter
 * is made.
 *
 * @param db the app's `db`: `drizzle-orm/node-postgres` or `drizzle-orm/postgres-js` for
 *   `postgres`, `drizzle-orm/mysql2` for `mysql`, `drizzle-orm/better-sqlite3` or
 *   `drizzle-orm/libsql` for `sqlite`
 * @see create-auth docs/api.md#adapter-records, #adapter-methods
 */
export function DrizzleAdapter(db: DrizzleServerDatabase, options: { dialect: 'postgres' | 'mysql' }): Required<Adapter>;
export function DrizzleAdapter(db: DrizzleSqliteDatabase, options: { dialect: 'sqlite' }): Required<Adapter>;
export function DrizzleAdapter(
	db: DrizzleServerDatabase | DrizzleSqliteDatabase,
	{ dialect }: { dialect: DrizzleDialect }
): Required<Adapter> {
	if (dialect === 'sqlite') {
		if (typeof (db as DrizzleSqliteDatabase).all !== 'function') throw new TypeError('DrizzleAdapter: a SQLite Drizzle db has all() and run().');
		return sqlAdapter(sqliteDialect(db as DrizzleSqliteDatabase));
	}
	if (dialect !== 'postgres' && dialect !== 'mysql') throw new TypeError(`DrizzleAdapter: unknown dialect ${String(dialect)}.`);
	if (typeof (db as DrizzleServerDatabase).execute !== 'function') {
		throw new TypeError(`DrizzleAdapter: a ${dialect === 'postgres' ? 'PostgreSQL' : 'MySQL'} Drizzle db has execute().`);
	}
	return sqlAdapter(serverDialect(db as DrizzleServerDatabase, dialect));
}
