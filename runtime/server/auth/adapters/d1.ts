// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { DriverUnavailable } from '../errors.js';
import { sqlAdapter, sqliteValue, type Row } from './sql.js';
import type { Adapter } from './types.js';

/**
 * The part of a Cloudflare D1 binding (`D1Database` of `@cloudflare/workers-types`) the adapter
 * uses: a statement prepared, its parameters bound, and `all()`, which answers its rows and, for
 * a write, how many rows it changed (`meta.changes`).
 * @see https://developers.cloudflare.com/d1/worker-api/d1-database/
 */
export interface D1Binding {
	prepare(query: string): D1Statement;
}

/** A prepared D1 statement (`D1PreparedStatement`), as far as {@link D1Binding} needs it. */
export interface D1Statement {
	bind(...values: unknown[]): D1Statement;
	all(): Promise<{ results: Row[]; meta: { changes?: number } }>;
}

/**
 * Where the database is:
 * - `binding`: the name of the D1 binding in `wrangler.jsonc` / `wrangler.toml`
 *   (`d1_databases[].binding`, e.g. `DB`), found on each request's `platform.env` through
 *   SvelteKit's `getRequestEvent` (`$app/server`, SvelteKit 2.20+), as adapter-cloudflare
 *   provides it under `wrangler dev`, `vite dev` and in production;
 * - `database`: a binding the caller already has (a test's, a Worker's own `env.DB`).
 */
export type D1AdapterOptions = { binding: string; getRequestEvent: () => { platform?: unknown } } | { database: D1Binding };

/**
 * The database of `options`, found anew on each call: the binding given, or the one named on
 * the current request's `platform.env` (a stand-in whose `prepare` throws
 * {@link DriverUnavailable} when there is none). Shared by `D1Adapter` and `d1RateLimitStore`.
 */
export function d1Database(options: D1AdapterOptions): () => D1Binding {
	return 'database' in options ? () => options.database : () => boundDatabase(options.binding, options.getRequestEvent);
}

/** The binding named `name` on the current request's `platform.env`, or why there is none. */
function boundDatabase(name: string, getRequestEvent: () => { platform?: unknown }): D1Binding {
	const env = (getRequestEvent().platform as { env?: Record<string, unknown> } | undefined)?.env;
	const database = env?.[name] as D1Binding | undefined;
	if (typeof database?.prepare === 'function') return database;
	const where = env
		? `platform.env has no D1 binding named ${name}: add it to d1_databases in wrangler.jsonc (or wrangler.toml) and restart`
		: 'the request has no platform.env: the app is not running on Cloudflare (adapter-cloudflare, under wrangler dev, vite dev or deployed)';
	return {
		prepare() {
			throw new DriverUnavailable(`The D1 database cannot be reached: ${where}; npx create-auth doctor checks it.`);
		}
	};
}

/**
 * An adapter over Cloudflare D1 implementing every method of the spec's contract (see
 * {@link sqlAdapter}), on the tables of `migrations/d1/*.sql`, which `wrangler d1 migrations
 * apply` creates (`npx create-auth migrate` runs it locally). The binding is looked up on each
 * call, since Workers hand it to each request; none at all fails the call with
 * {@link DriverUnavailable} (a misconfiguration: 503, "the server is misconfigured"). Each
 * statement is one D1 query; D1 enforces the foreign keys that cascade from users. Dates are
 * stored as epoch milliseconds, as SQLiteAdapter stores them.
 * @see create-auth docs/api.md#adapter-methods
 */
export function D1Adapter(options: D1AdapterOptions): Required<Adapter> {
	const database = d1Database(options);
	return sqlAdapter({
		async query(text, params) {
			const { results, meta } = await database().prepare(text).bind(...params).all();
			return { rows: results, changes: meta.changes ?? 0 };
		},
		rewrite: (text) => text,
		encode: sqliteValue
	});
}
