import path from 'node:path';
import { importFromApp } from '../app-modules.js';
import { CliError } from '../errors.js';
import { connectDatabase, redactUrl, type MigrationConnection } from '../migrate.js';
import type { DataConnection, DataDialect } from './data.js';

/** better-sqlite3's surface used here. */
interface SqliteModule {
	default: new (filename: string, options?: { fileMustExist?: boolean }) => SqliteDatabase;
}
interface SqliteDatabase {
	prepare(text: string): { reader: boolean; all(...params: unknown[]): unknown[]; run(...params: unknown[]): unknown };
	close(): void;
}

/** A {@link DataConnection} that can be closed. */
export type OpenDataConnection = DataConnection & Pick<MigrationConnection, 'close'>;

/**
 * The file a SQLite `DATABASE_URL` names (`local.db`, `./data/app.db`, `file:local.db`),
 * relative to the app's folder, as the app's server (started there) opens it.
 */
export function sqliteFile(root: string, url: string): string {
	return path.resolve(root, url.replace(/^file:(\/\/)?/, ''));
}

/**
 * Connects to the app's database with the app's own driver (`better-sqlite3`, `pg`, `mysql2`,
 * resolved from `root`), for copying another library's rows into create-auth's tables.
 * @throws {CliError} `E_DRIVER_MISSING`; `E_DATABASE_UNREACHABLE` (a SQLite file that does not
 *   exist is one: copying never creates a database)
 */
export async function connectData(root: string, dialect: DataDialect, url: string): Promise<OpenDataConnection> {
	if (dialect !== 'sqlite') return { dialect, ...(await connectDatabase(root, dialect, url)) };
	const module = await importFromApp<SqliteModule>(root, 'better-sqlite3');
	if (!module) throw new CliError('E_DRIVER_MISSING', 'The app does not have better-sqlite3 installed.', 'Install it (npm install better-sqlite3) and run this again.');
	let db: SqliteDatabase;
	try {
		db = new module.default(sqliteFile(root, url), { fileMustExist: true });
	} catch (error) {
		throw new CliError('E_DATABASE_UNREACHABLE', `Cannot open the SQLite database ${redactUrl(url)}: ${(error as Error).message}`, 'Check DATABASE_URL in .env.', { cause: error });
	}
	return {
		dialect,
		async query(text, params = []) {
			const statement = db.prepare(text);
			if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
			statement.run(...params);
			return [];
		},
		close: async () => db.close()
	};
}
