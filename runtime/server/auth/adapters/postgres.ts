// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import pg from 'pg';
import { numberedPlaceholders, sqlAdapter } from './sql.js';
import type { Adapter } from './types.js';

/**
 * A connection string (`DATABASE_URL`, e.g. `postgres://user:password@host:5432/db`; undefined:
 * the `PG*` variables and libpq's defaults), opened as a pool on the first query; or a pool the
 * app already has, which the adapter only borrows connections from.
 *
 * `preparedStatements` (default true): each statement is parsed and planned once per
 * connection (a named prepared statement) rather than at every call. Set it to false behind a
 * connection pooler in transaction mode that does not support them; one that answers "prepared
 * statement does not exist" turns them off by itself (logged once).
 */
export type PostgresAdapterOptions = ({ connectionString: string | undefined; max?: number } | { pool: pg.Pool }) & { preparedStatements?: boolean };

/** How long a query waits for a connection before failing, in milliseconds. */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * A prepared `SELECT u.*` whose table gained or lost a column since it was prepared (a migration
 * while the server runs): PostgreSQL refuses to run it, before running anything.
 */
const isStalePlan = (err: unknown) => (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((err as Error).message);

/** The connection does not know the statement name: a pooler handed the statement to a connection that never prepared it. */
const isUnknownStatement = (err: unknown) => (err as { code?: string }).code === '26000';

/**
 * An adapter over PostgreSQL (`pg`, pooled) implementing every method of the spec's contract
 * (see {@link sqlAdapter}). The tables come from `migrations/postgres/*.sql`, which
 * `create-auth migrate` applies. A database that is down fails each call (a rejected promise)
 * within {@link CONNECTION_TIMEOUT_MS}; the pool reconnects by itself once it is back. The
 * pool's idle connections do not keep the process alive, so a server stops at once (SIGTERM).
 * @see create-auth docs/api.md#adapter-methods
 */
export function PostgresAdapter(options: PostgresAdapterOptions): Required<Adapter> {
	let pool: pg.Pool | undefined;
	const open = () => {
		if ('pool' in options) return options.pool;
		const created = new pg.Pool({
			connectionString: options.connectionString,
			max: options.max,
			connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
			allowExitOnIdle: true
		});
		// An idle connection the server dropped (a restart) is replaced on the next query; left
		// unhandled, the pool's 'error' event would end the process.
		created.on('error', (error) => console.error('[auth] PostgreSQL connection lost:', error.message));
		return created;
	};
	let prepared = options.preparedStatements ?? true;
	/** Statement names by text; a new generation of names after a stale plan prepares every statement again. */
	const names = new Map<string, string>();
	let generation = 0;
	const nameOf = (text: string) => {
		let name = names.get(text);
		if (name === undefined) names.set(text, (name = `create_auth_${generation}_${names.size}`));
		return name;
	};
	const run = (text: string, values: unknown[]) => {
		pool ??= open();
		return prepared ? pool.query({ name: nameOf(text), text, values }) : pool.query(text, values);
	};
	return sqlAdapter({
		async query(text, params) {
			let result: pg.QueryResult;
			try {
				result = await run(text, params as unknown[]);
			} catch (err) {
				// Both refusals come before the statement runs, so running it again is safe.
				if (prepared && isStalePlan(err)) {
					generation++;
					names.clear();
				} else if (prepared && isUnknownStatement(err)) {
					prepared = false;
					console.error('[auth] PostgreSQL: prepared statements are not supported here (a pooler in transaction mode?); using unnamed ones.');
				} else throw err;
				result = await run(text, params as unknown[]);
			}
			return { rows: result.rows, changes: result.rowCount ?? 0 };
		},
		rewrite: numberedPlaceholders,
		encode: (value) => value
	});
}
