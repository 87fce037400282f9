// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import pg from 'pg';
import { sqlAdapter } from './sql.js';
import type { Adapter } from './types.js';

/**
 * A connection string (`DATABASE_URL`, e.g. `postgres://user:password@host:5432/db`; undefined:
 * the `PG*` variables and libpq's defaults), opened as a pool on the first query; or a pool the
 * app already has, which the adapter only borrows connections from.
 */
export type PostgresAdapterOptions = { connectionString: string | undefined; max?: number } | { pool: pg.Pool };

/** How long a query waits for a connection before failing, in milliseconds. */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * An adapter over PostgreSQL (`pg`, pooled) implementing every method of the spec's contract
 * (see {@link sqlAdapter}). The tables come from `migrations/postgres/*.sql`, which
 * `create-auth migrate` applies. A database that is down fails each call (a rejected promise)
 * within {@link CONNECTION_TIMEOUT_MS}; the pool reconnects by itself once it is back.
 * @see spec/interface.md "Adapter methods"
 */
export function PostgresAdapter(options: PostgresAdapterOptions): Required<Adapter> {
	let pool: pg.Pool | undefined;
	const open = () => {
		if ('pool' in options) return options.pool;
		const created = new pg.Pool({
			connectionString: options.connectionString,
			max: options.max,
			connectionTimeoutMillis: CONNECTION_TIMEOUT_MS
		});
		// An idle connection the server dropped (a restart) is replaced on the next query; left
		// unhandled, the pool's 'error' event would end the process.
		created.on('error', (error) => console.error('[auth] PostgreSQL connection lost:', error.message));
		return created;
	};
	return sqlAdapter({
		async query(text, params) {
			pool ??= open();
			const result = await pool.query(text, params as unknown[]);
			return { rows: result.rows, changes: result.rowCount ?? 0 };
		},
		rewrite(text) {
			let n = 0;
			return text.replace(/\?/g, () => `$${++n}`);
		},
		encode: (value) => value
	});
}
