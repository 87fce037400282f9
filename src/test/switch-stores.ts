/**
 * Databases for the switch's copy tests (issue 29): each with create-auth's runtime adapter and
 * the CLI's connection to it, as the app and `create-auth switch` reach the same database.
 */
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MySQLAdapter } from '../../runtime/server/auth/adapters/mysql.js';
import { PostgresAdapter } from '../../runtime/server/auth/adapters/postgres.js';
import { SQLiteAdapter } from '../../runtime/server/auth/adapters/sqlite.js';
import type { Adapter } from '../../runtime/server/auth/adapters/types.js';
import { mysqlScratch, postgresScratch } from '../../runtime/test/databases.js';
import { connectData } from '../switch/connection.js';
import type { DataConnection } from '../switch/data.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A database both libraries use, set up for one test. */
export interface Store {
	name: string;
	database: unknown;
	connection: DataConnection;
	adapter: Required<Adapter>;
	close(): Promise<void>;
}

/** A SQLite file in a scratch folder, and create-auth's connection to it (the app's better-sqlite3: here, the repository's). */
export async function sqliteFileStore() {
	const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-switch-'));
	const db = new Database(path.join(dir, 'local.db'));
	const adapter = SQLiteAdapter({ database: db });
	await adapter.getUser('nobody'); // creates create-auth's tables, as the app's first request does
	const connection = await connectData(repoRoot, 'sqlite', `file:${path.join(dir, 'local.db')}`);
	return {
		db,
		adapter,
		connection,
		async close() {
			await connection.close();
			db.close();
			await rm(dir, { recursive: true, force: true });
		}
	};
}

export async function sqliteStore(): Promise<Store> {
	const { db, adapter, connection, close } = await sqliteFileStore();
	return { name: 'SQLite', database: db, connection, adapter, close };
}

export async function postgresStore(): Promise<Store> {
	const scratch = await postgresScratch();
	const pool = new pg.Pool({ connectionString: scratch.url, max: 3 });
	const client = await pool.connect();
	return {
		name: 'PostgreSQL',
		database: pool,
		connection: { dialect: 'postgres', query: async (text, params) => (await client.query(text, params)).rows },
		adapter: PostgresAdapter({ pool }),
		async close() {
			client.release();
			await pool.end();
			await scratch.drop();
		}
	};
}

export async function mysqlStore(): Promise<Store> {
	const scratch = await mysqlScratch();
	const pool = mysql.createPool({ uri: scratch.url, connectionLimit: 3, timezone: 'Z' });
	const connection = await pool.getConnection();
	return {
		name: 'MariaDB',
		database: pool,
		connection: { dialect: 'mysql', query: async (text, params) => { const [result] = await connection.query(text, params); return Array.isArray(result) ? (result as Record<string, unknown>[]) : []; } },
		adapter: MySQLAdapter({ pool }),
		async close() {
			connection.release();
			await pool.end();
			await scratch.drop();
		}
	};
}
