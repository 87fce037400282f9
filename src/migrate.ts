import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { importFromApp } from './app-modules.js';
import { CliError } from './errors.js';

/** The SQL dialects whose schema comes from migration files (SQLite makes its own on first use). */
export type SqlDialectId = 'postgres' | 'mysql';

/** One migration file: `0001_auth_tables.sql` and its statements. */
export interface Migration {
	name: string;
	sql: string;
}

/** What running migrations needs from a database connection. */
export interface MigrationConnection {
	/** Runs a script of several statements, without parameters. */
	exec(script: string): Promise<void>;
	/** Runs one statement with `$1` (PostgreSQL) or `?` (MySQL) parameters and returns its rows. */
	query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
	close(): Promise<void>;
}

/** Each dialect's statements for the record of what ran, and for the lock that keeps two runs apart. */
const RECORD = {
	postgres: {
		create: 'CREATE TABLE IF NOT EXISTS auth_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
		insert: 'INSERT INTO auth_migrations (name) VALUES ($1)',
		lock: "SELECT pg_advisory_lock(hashtext('create-auth migrate'))",
		unlock: "SELECT pg_advisory_unlock(hashtext('create-auth migrate'))",
		// PostgreSQL runs DDL in transactions: a failing file leaves nothing behind.
		begin: 'BEGIN',
		commit: 'COMMIT',
		rollback: 'ROLLBACK'
	},
	mysql: {
		create: 'CREATE TABLE IF NOT EXISTS auth_migrations (name VARCHAR(255) PRIMARY KEY, applied_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))',
		insert: 'INSERT INTO auth_migrations (name) VALUES (?)',
		lock: "SELECT GET_LOCK('create-auth migrate', 60)",
		unlock: "SELECT RELEASE_LOCK('create-auth migrate')",
		// MySQL commits each DDL statement by itself; the files use IF NOT EXISTS instead.
		begin: undefined,
		commit: undefined,
		rollback: undefined
	}
} as const;

/** Migration files of one dialect from a folder's files (`0001_x.sql` → its text), in name order. */
export function migrationsIn(files: Record<string, string>): Migration[] {
	return Object.entries(files)
		.filter(([name]) => name.endsWith('.sql'))
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, sql]) => ({ name, sql }));
}

/**
 * The app's vendored migration files of `dialect`, from
 * `<root>/<libDir>/server/auth/adapters/migrations/<dialect>/`, in name order; none when the
 * folder is absent.
 */
export async function readMigrations(root: string, libDir: string, dialect: SqlDialectId): Promise<Migration[]> {
	const folder = path.join(root, libDir, 'server/auth/adapters/migrations', dialect);
	const names = await readdir(folder).catch(() => [] as string[]);
	return migrationsIn(Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(path.join(folder, name), 'utf8')]))));
}

/** The drivers' codes for "no such table": PostgreSQL's SQLSTATE, mysql2's name. */
const NO_SUCH_TABLE = new Set(['42P01', 'ER_NO_SUCH_TABLE']);

/**
 * Names of `migrations` not recorded in `auth_migrations` (all of them while that table does not
 * exist): what `create-auth migrate` would apply. Reads only, without the lock.
 * @throws the driver's error for anything but a missing `auth_migrations` table
 */
export async function pendingMigrations(connection: MigrationConnection, migrations: Migration[]): Promise<string[]> {
	let recorded: Set<string>;
	try {
		recorded = new Set((await connection.query('SELECT name FROM auth_migrations')).map((row) => String(row.name)));
	} catch (error) {
		if (NO_SUCH_TABLE.has(String((error as { code?: unknown }).code))) return migrations.map((m) => m.name);
		throw error;
	}
	return migrations.map((m) => m.name).filter((name) => !recorded.has(name));
}

/**
 * Applies the migrations not yet recorded in `auth_migrations`, in order, each once, under a
 * database lock so two runs at the same time cannot both apply a file; on PostgreSQL each file
 * and its record commit together.
 * @returns the names applied now, and those that had run before
 * @throws {CliError} `E_MIGRATION_FAILED` naming the file (the database's message as cause);
 *   the files before it stay applied and recorded
 */
export async function runMigrations(
	connection: MigrationConnection,
	dialect: SqlDialectId,
	migrations: Migration[]
): Promise<{ applied: string[]; before: string[] }> {
	const sql = RECORD[dialect];
	await connection.exec(sql.create);
	await connection.query(sql.lock);
	try {
		const recorded = new Set((await connection.query('SELECT name FROM auth_migrations')).map((row) => String(row.name)));
		const applied: string[] = [];
		for (const migration of migrations) {
			if (recorded.has(migration.name)) continue;
			try {
				if (sql.begin) await connection.exec(sql.begin);
				await connection.exec(migration.sql);
				await connection.query(sql.insert, [migration.name]);
				if (sql.commit) await connection.exec(sql.commit);
			} catch (error) {
				if (sql.rollback) await connection.exec(sql.rollback).catch(() => undefined);
				throw new CliError(
					'E_MIGRATION_FAILED',
					`Migration ${migration.name} failed: ${(error as Error).message}`,
					'Fix the database or the file, then run `npx create-auth migrate` again; the files before it are applied.',
					{ cause: error }
				);
			}
			applied.push(migration.name);
		}
		return { applied, before: migrations.map((m) => m.name).filter((name) => recorded.has(name)) };
	} finally {
		await connection.query(sql.unlock).catch(() => undefined);
	}
}

interface PgModule {
	default: { Client: new (config: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient };
}
interface PgClient {
	connect(): Promise<unknown>;
	query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
	end(): Promise<void>;
}
interface MySQLModule {
	createConnection(config: { uri: string; multipleStatements: boolean; connectTimeout: number }): Promise<MySQLConnection>;
}
interface MySQLConnection {
	query(text: string, params?: unknown[]): Promise<[unknown, unknown]>;
	end(): Promise<void>;
}

/** Drivers by dialect: the npm package the app installs for it. */
const DRIVERS: Record<SqlDialectId, string> = { postgres: 'pg', mysql: 'mysql2' };

const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to `url` with the app's own driver (`pg` or `mysql2`, resolved from `root` as the
 * app's code would import it).
 * @throws {CliError} `E_DRIVER_MISSING` (not installed in the app), `E_DATABASE_UNREACHABLE`
 *   (refused, unknown host, bad credentials, a timeout after 5 s; the driver's message included)
 */
export async function connectDatabase(root: string, dialect: SqlDialectId, url: string): Promise<MigrationConnection> {
	const driver = DRIVERS[dialect];
	const module = await importFromApp<PgModule | MySQLModule>(root, dialect === 'mysql' ? 'mysql2/promise' : driver);
	if (!module) {
		throw new CliError('E_DRIVER_MISSING', `The app does not have ${driver} installed.`, `Install it (npm install ${driver}) and run this again.`);
	}
	try {
		if (dialect === 'postgres') {
			const client = new (module as PgModule).default.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
			await client.connect();
			return {
				exec: async (script) => void (await client.query(script)),
				query: async (text, params) => (await client.query(text, params)).rows,
				close: () => client.end()
			};
		}
		const connection = await (module as MySQLModule).createConnection({ uri: url, multipleStatements: true, connectTimeout: CONNECT_TIMEOUT_MS });
		return {
			exec: async (script) => void (await connection.query(script)),
			query: async (text, params) => (await connection.query(text, params))[0] as Record<string, unknown>[],
			close: () => connection.end()
		};
	} catch (error) {
		throw new CliError(
			'E_DATABASE_UNREACHABLE',
			`Cannot connect to the database at ${redactUrl(url)}: ${(error as Error).message}`,
			'Check DATABASE_URL in .env and that the database server is running, then run `npx create-auth migrate`.',
			{ cause: error }
		);
	}
}

/** A database URL without its password, for messages. */
export function redactUrl(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.password) parsed.password = '***';
		return parsed.href;
	} catch {
		return '(an invalid URL)';
	}
}
