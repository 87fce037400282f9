// @ts-check
/**
 * A database of its own for one app, on the machine's PostgreSQL or MariaDB server, dropped
 * afterwards: e2e apps and bench apps with `--adapter postgres` or `--adapter mysql` each get
 * one, so runs never share tables.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** The PostgreSQL server's maintenance connection: `TEST_POSTGRES_URL`, else the project machines' server. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The MariaDB/MySQL server's: `TEST_MYSQL_URL`, else the project machines' server. */
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/**
 * @typedef {object} AppDatabase
 * @property {string} url  connection string of the new database (the server's, another path)
 * @property {(table: string) => Promise<number>} count  `SELECT count(*)` of a table there
 * @property {(table: string, column: string) => Promise<string[]>} values  every value of a
 *   column there, as text (`column` as the table names it, e.g. `sessionToken`)
 * @property {() => Promise<void>} drop  drops it (`WITH (FORCE)`: open connections are cut);
 *   idempotent
 */

/**
 * Creates `create_auth_<purpose>_<pid>_<ms>` on the server at POSTGRES_URL.
 * @param {string} purpose  a lowercase word for the name, e.g. `'e2e'`, `'bench'`
 * @returns {Promise<AppDatabase>}
 * @throws when the server is unreachable or refuses CREATE DATABASE
 */
export async function postgresDatabase(purpose) {
	const name = `create_auth_${purpose}_${process.pid}_${Date.now()}`;
	const admin = new pg.Client({ connectionString: POSTGRES_URL });
	await admin.connect();
	try {
		await admin.query(`CREATE DATABASE ${name}`);
	} finally {
		await admin.end();
	}
	const url = new URL(POSTGRES_URL);
	url.pathname = `/${name}`;
	return {
		url: url.href,
		async count(table) {
			const client = new pg.Client({ connectionString: url.href });
			await client.connect();
			try {
				return Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
			} finally {
				await client.end();
			}
		},
		async values(table, column) {
			const client = new pg.Client({ connectionString: url.href });
			await client.connect();
			try {
				return (await client.query(`SELECT "${column}"::text AS v FROM ${table}`)).rows.map((row) => row.v);
			} finally {
				await client.end();
			}
		},
		async drop() {
			const client = new pg.Client({ connectionString: POSTGRES_URL });
			await client.connect();
			try {
				await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
			} finally {
				await client.end();
			}
		}
	};
}

/**
 * Creates `create_auth_<purpose>_<pid>_<ms>` on the MariaDB/MySQL server at MYSQL_URL.
 * @param {string} purpose  a lowercase word for the name, e.g. `'e2e'`
 * @returns {Promise<AppDatabase>}
 * @throws when the server is unreachable or refuses CREATE DATABASE
 */
export async function mysqlDatabase(purpose) {
	const name = `create_auth_${purpose}_${process.pid}_${Date.now()}`;
	/** @param {string} uri @param {(connection: import('mysql2/promise').Connection) => Promise<any>} use */
	const withConnection = async (uri, use) => {
		const connection = await mysql.createConnection({ uri });
		try {
			return await use(connection);
		} finally {
			await connection.end();
		}
	};
	await withConnection(MYSQL_URL, (connection) => connection.query(`CREATE DATABASE ${name}`));
	const url = new URL(MYSQL_URL);
	url.pathname = `/${name}`;
	return {
		url: url.href,
		count: (table) => withConnection(url.href, async (connection) => Number((/** @type {any} */ (await connection.query(`SELECT count(*) AS n FROM ${table}`))[0])[0].n)),
		values: (table, column) =>
			withConnection(url.href, async (connection) => (/** @type {any[]} */ ((await connection.query(`SELECT \`${column}\` AS v FROM ${table}`))[0])).map((row) => String(row.v))),
		drop: () => withConnection(MYSQL_URL, (connection) => connection.query(`DROP DATABASE IF EXISTS ${name}`)).then(() => undefined)
	};
}

/**
 * The rows of one query on a SQLite file (an app's database), opened read-only for it, with the
 * repository's better-sqlite3 (an app's own may be built for another Node).
 * @param {string} file  absolute path
 * @param {string} sql
 * @returns {any[]}
 * @throws when the file does not exist or the query fails
 */
export function sqliteRows(file, sql) {
	const db = new Database(file, { readonly: true, fileMustExist: true });
	try {
		return db.prepare(sql).all();
	} finally {
		db.close();
	}
}

/**
 * `SELECT count(*)` of a table in the SQLite file of an app's `--adapter sqlite` store
 * (`<appDir>/auth.sqlite`, the default file), opened read-only for this one query.
 * @param {string} appDir
 * @param {string} table
 * @returns {number}
 * @throws when the file or the table does not exist
 */
export function sqliteCount(appDir, table) {
	const db = new Database(path.join(appDir, 'auth.sqlite'), { readonly: true, fileMustExist: true });
	try {
		return /** @type {{ n: number }} */ (db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).n;
	} finally {
		db.close();
	}
}

/**
 * Every value of a column of a table in the SQLite file of an app's `--adapter sqlite` store
 * (`auth.sqlite`), as text.
 * @param {string} appDir
 * @param {string} table
 * @param {string} column
 * @returns {string[]}
 */
export function sqliteValues(appDir, table, column) {
	const db = new Database(path.join(appDir, 'auth.sqlite'), { readonly: true, fileMustExist: true });
	try {
		return /** @type {Array<{ v: unknown }>} */ (db.prepare(`SELECT "${column}" AS v FROM ${table}`).all()).map((row) => String(row.v));
	} finally {
		db.close();
	}
}
