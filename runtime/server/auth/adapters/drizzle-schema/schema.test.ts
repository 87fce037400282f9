import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { pushMySQLSchema, pushSQLiteSchema } from 'drizzle-kit/api';
import { drizzle as betterSqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as mysqlDrizzle } from 'drizzle-orm/mysql2';
import { execa } from 'execa';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { mysqlScratch, POSTGRES_URL, runtimeMigrations } from '../../../../test/databases.js';
import { drizzleKitStatements } from '../../../../test/drizzle-kit.js';
import { SQLiteAdapter } from '../sqlite.js';
import * as mysqlTables from './mysql.js';
import * as sqliteTables from './sqlite.js';

const repoRoot = fileURLToPath(new URL('../../../../..', import.meta.url));
const drizzleKitBin = join(dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');

/**
 * A PostgreSQL database of its own, empty: drizzle-kit push reads the `public` schema, which the
 * scratch schemas of databases.ts cannot stand in for.
 */
async function postgresScratchDatabase() {
	const name = `auth_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
	const admin = new pg.Client({ connectionString: POSTGRES_URL });
	await admin.connect();
	await admin.query(`CREATE DATABASE ${name}`);
	const url = new URL(POSTGRES_URL);
	url.pathname = `/${name}`;
	return {
		url: url.href,
		async drop() {
			await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
			await admin.end();
		}
	};
}

/**
 * drizzle-kit compares our Drizzle tables with the tables our own SQL makes
 * (migrations/<dialect>/*.sql, SQLiteAdapter's SCHEMA) and must find nothing to change: they
 * stay the same tables, and an app can move between the SQL adapters and DrizzleAdapter on one
 * database. (drizzle.test.ts runs the adapter on the tables drizzle-kit makes of these files.)
 */
describe('the Drizzle tables, next to the tables of our SQL migrations', () => {
	it('PostgreSQL: npx drizzle-kit push finds nothing to change, and notices a missing index', async () => {
		const database = await postgresScratchDatabase();
		const client = new pg.Client({ connectionString: database.url });
		await client.connect();
		// drizzle-kit/api's pushSchema loses the parameters of its PostgreSQL introspection
		// queries (drizzle-kit 0.31), so this runs the command an app's `npm run db:push` runs.
		const push = async () =>
			(await execa(process.execPath, [
				drizzleKitBin, 'push', '--dialect=postgresql', `--schema=${fileURLToPath(new URL('./postgres.ts', import.meta.url))}`,
				`--url=${database.url}`, '--verbose'
			], { cwd: repoRoot, stdin: 'ignore' })).stdout;
		try {
			for (const { sql } of runtimeMigrations('postgres')) await client.query(sql);
			expect(await push()).toContain('No changes detected');
			await client.query('DROP INDEX auth_sessions_user_id');
			expect(await push()).toContain('CREATE INDEX "auth_sessions_user_id" ON "auth_sessions"');
		} finally {
			await client.end();
			await database.drop();
		}
	}, 60_000);

	it('MySQL: drizzle-kit makes the same columns, types, character sets, collations, keys and indexes', async () => {
		const [ours, drizzles] = [await mysqlScratch(), await mysqlScratch({ migrate: false })];
		const [oursPool, drizzlePool] = [mysql.createPool({ uri: ours.url }), mysql.createPool({ uri: drizzles.url })];
		try {
			for (const statement of await drizzleKitStatements.mysql()) await drizzlePool.query(statement);
			expect(await mysqlCatalog(drizzles.url)).toEqual(await mysqlCatalog(ours.url));
			// What `npm run db:push` would do to tables create-auth migrate made: nothing. (drizzle-kit's
			// MySQL push compares no column types or collations, hence the catalog above.)
			const { statementsToExecute } = await pushMySQLSchema(mysqlTables, mysqlDrizzle(oursPool), databaseOf(ours.url));
			expect(statementsToExecute).toEqual([]);
		} finally {
			await Promise.all([oursPool.end(), drizzlePool.end()]);
			await ours.drop();
			await drizzles.drop();
		}
	});

	it('SQLite: drizzle-kit makes the same columns, keys and indexes, its unique index on email named', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'create-auth-drizzle-schema-'));
		const [ours, drizzles] = [join(dir, 'ours.sqlite'), join(dir, 'drizzle.sqlite')];
		await SQLiteAdapter({ filename: ours }).getUser('nobody');
		const [oursDb, drizzleDb] = [new Database(ours), new Database(drizzles)];
		try {
			for (const statement of await drizzleKitStatements.sqlite()) drizzleDb.exec(statement);
			expect(sqliteCatalog(drizzleDb)).toEqual(sqliteCatalog(oursDb));
			// SQLiteAdapter's `email TEXT UNIQUE` makes an index SQLite names, which drizzle-kit does
			// not read as the unique constraint Drizzle names: `db:push` would add that one index.
			const { statementsToExecute } = await pushSQLiteSchema(sqliteTables, betterSqliteDrizzle(oursDb) as never);
			expect(statementsToExecute).toEqual(['CREATE UNIQUE INDEX `auth_users_email_unique` ON `auth_users` (`email`);']);
		} finally {
			oursDb.close();
			drizzleDb.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

const databaseOf = (url: string) => new URL(url).pathname.slice(1);

/**
 * What information_schema says of the auth tables of a MySQL database: each column's type,
 * nullability, default, character set and collation; each index; each foreign key and its rules;
 * each table's engine and collation. (`auth_migrations`, create-auth migrate's record, is left out.)
 */
async function mysqlCatalog(url: string) {
	const connection = await mysql.createConnection({ uri: url });
	const schema = databaseOf(url);
	const rows = async (text: string) => (await connection.query(text, [schema]))[0];
	try {
		return {
			tables: await rows(`SELECT TABLE_NAME, ENGINE, TABLE_COLLATION FROM information_schema.TABLES
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> 'auth_migrations' ORDER BY TABLE_NAME`),
			columns: await rows(`SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT,
				CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> 'auth_migrations' ORDER BY TABLE_NAME, ORDINAL_POSITION`),
			indexes: await rows(`SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME FROM information_schema.STATISTICS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> 'auth_migrations' ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`),
			// InnoDB's RESTRICT and NO ACTION are one rule: MariaDB reports the migration's unstated
			// ON UPDATE as RESTRICT, and drizzle-kit states `ON UPDATE no action`.
			foreignKeys: await rows(`SELECT r.CONSTRAINT_NAME, r.TABLE_NAME, k.COLUMN_NAME, r.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME,
				r.DELETE_RULE, IF(r.UPDATE_RULE = 'RESTRICT', 'NO ACTION', r.UPDATE_RULE) AS UPDATE_RULE
				FROM information_schema.REFERENTIAL_CONSTRAINTS r
				JOIN information_schema.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = r.CONSTRAINT_SCHEMA AND k.CONSTRAINT_NAME = r.CONSTRAINT_NAME
				AND k.TABLE_NAME = r.TABLE_NAME WHERE r.CONSTRAINT_SCHEMA = ? ORDER BY r.TABLE_NAME, r.CONSTRAINT_NAME`)
		};
	} finally {
		await connection.end();
	}
}

/**
 * What SQLite says of the auth tables of a file: each column (type case aside), each foreign key
 * and its rules, each index by its columns and uniqueness. The indexes SQLite makes and names for
 * a PRIMARY KEY or UNIQUE, and the unique index Drizzle makes and names for `.unique()`, are
 * compared without their names.
 */
function sqliteCatalog(db: Database.Database) {
	const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'auth\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
	return tables.map((table) => ({
		table,
		columns: (db.pragma(`table_info(${table})`) as { type: string }[]).map((column) => ({ ...column, type: column.type.toUpperCase() })),
		foreignKeys: (db.pragma(`foreign_key_list(${table})`) as Record<string, unknown>[]).map(({ id, seq, ...key }) => key),
		indexes: (db.pragma(`index_list(${table})`) as { name: string; unique: number }[])
			.map((index) => ({
				name: index.unique ? '(unique)' : index.name,
				unique: index.unique,
				columns: (db.pragma(`index_info(${index.name})`) as { name: string }[]).map((column) => column.name)
			}))
			.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
	}));
}
