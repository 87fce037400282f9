// @ts-check
/**
 * A PostgreSQL database of its own for one app, on the machine's server, dropped afterwards:
 * e2e apps and bench apps with `--adapter postgres` each get one, so runs never share tables.
 */
import pg from 'pg';

/** The server's maintenance connection: `TEST_POSTGRES_URL`, else the project machines' server. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * @typedef {object} PostgresDatabase
 * @property {string} url  connection string of the new database (the server's, another path)
 * @property {(table: string) => Promise<number>} count  `SELECT count(*)` of a table there
 * @property {() => Promise<void>} drop  drops it (`WITH (FORCE)`: open connections are cut);
 *   idempotent
 */

/**
 * Creates `create_auth_<purpose>_<pid>_<ms>` on the server at POSTGRES_URL.
 * @param {string} purpose  a lowercase word for the name, e.g. `'e2e'`, `'bench'`
 * @returns {Promise<PostgresDatabase>}
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
