// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { numberedPlaceholders, sqlAdapter } from './sql.js';
import type { Adapter } from './types.js';

/**
 * The part of the app's Prisma Client (a `PrismaClient` its generator made, or one returned by
 * `$extends`) the adapter uses: its raw queries, whose parameters Prisma binds and converts as
 * it converts a model field's (a Date as the column's DateTime, a boolean as `Boolean`).
 * @see https://www.prisma.io/docs/orm/prisma-client/using-raw-sql/raw-queries
 */
export interface PrismaRawClient {
	/** Runs a statement that answers rows (a SELECT); BIGINT and COUNT(*) come back as bigint. */
	$queryRawUnsafe(query: string, ...values: unknown[]): PromiseLike<unknown>;
	/** Runs a write; answers how many rows it changed. */
	$executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/**
 * The app's datasource `provider` (its `schema.prisma`), as Prisma names it. MySQL is left out:
 * the auth tables compare tokens and account ids byte for byte, and a Prisma schema cannot give
 * a column a binary collation (MySQLAdapter's tables have one).
 */
export type PrismaProvider = 'postgresql' | 'sqlite';

/** Options of {@link PrismaAdapter}. */
export interface PrismaAdapterOptions {
	provider: PrismaProvider;
}

/**
 * An adapter over the app's own Prisma Client implementing every method of the spec's contract
 * (see {@link sqlAdapter}), through its raw queries: one parameterized statement per lookup, as
 * the other SQL adapters run them, on the tables of the `Auth*` models create-auth adds to the
 * app's `schema.prisma` (`auth_users`, `auth_accounts`, …; `prisma db push` or `prisma migrate
 * dev` creates them). The client's connection, pool and driver adapter are the app's; a failed
 * statement rejects with Prisma's error. Dates are bound as Prisma binds a DateTime, so the app's
 * own queries of those models read and compare them as usual.
 * @see create-auth docs/api.md#adapter-methods
 */
export function PrismaAdapter(prisma: PrismaRawClient, { provider }: PrismaAdapterOptions): Required<Adapter> {
	return sqlAdapter({
		async query(text, params) {
			if (/^\s*SELECT\b/i.test(text)) return { rows: (await prisma.$queryRawUnsafe(text, ...params)) as Record<string, unknown>[], changes: 0 };
			return { rows: [], changes: await prisma.$executeRawUnsafe(text, ...params) };
		},
		rewrite: (text) => (provider === 'postgresql' ? numberedPlaceholders(text) : text),
		encode: (value) => value
	});
}
