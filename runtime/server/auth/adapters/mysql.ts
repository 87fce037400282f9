// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import mysql from 'mysql2/promise';
import { backtickIdentifiers, sqlAdapter, type Row } from './sql.js';
import type { Adapter } from './types.js';

/**
 * A connection URI (`DATABASE_URL`, e.g. `mysql://user:password@host:3306/db`; undefined: a
 * server on localhost), opened as a pool on the first query; or a pool the app already has. A pool of the app's should be
 * created with `timezone: 'Z'`, as ours is, so that dates are read back as they were written
 * whatever the server's zone.
 */
export type MySQLAdapterOptions = { uri: string | undefined; connectionLimit?: number } | { pool: mysql.Pool };

/** How long a query waits for a connection before failing, in milliseconds. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * An adapter over MySQL 8 or MariaDB 10.5+ (`mysql2`, pooled, prepared statements) implementing
 * every method of the spec's contract (see {@link sqlAdapter}). The tables come from
 * `migrations/mysql/*.sql`, which `create-auth migrate` applies. A server that is down fails
 * each call (a rejected promise); the pool reconnects by itself once it is back.
 * @see create-auth docs/api.md#adapter-methods
 */
export function MySQLAdapter(options: MySQLAdapterOptions): Required<Adapter> {
	let pool: mysql.Pool | undefined;
	const open = () =>
		'pool' in options
			? options.pool
			: mysql.createPool({
					uri: options.uri,
					connectionLimit: options.connectionLimit,
					timezone: 'Z',
					connectTimeout: CONNECT_TIMEOUT_MS
				});
	return sqlAdapter({
		async query(text, params) {
			pool ??= open();
			const [result] = await pool.execute(text, params as unknown[] as mysql.ExecuteValues);
			if (Array.isArray(result)) return { rows: result as Row[], changes: 0 };
			return { rows: [], changes: (result as mysql.ResultSetHeader).affectedRows };
		},
		rewrite: backtickIdentifiers,
		encode: (value) => value
	});
}
