import type { DrizzleDialect, DrizzleSetup } from './drizzle.js';
import type { SqlDialectId } from './migrate.js';
import type { PrismaSetup } from './prisma.js';
import type { AdapterCapability, AdapterNeed, Descriptor } from './providers/types.js';

/** Adapter ids, in the order the prompt offers them; `sqlite` is the embedded default. */
export const ADAPTER_IDS = ['sqlite', 'postgres', 'mysql', 'drizzle', 'prisma', 'd1', 'hosted-db', 'memory'] as const;
export type AdapterId = (typeof ADAPTER_IDS)[number];

/**
 * What the CLI needs to know about one adapter to scaffold it: the packages to install, the
 * environment variable it reads, and its migrations; its runtime module is
 * `server/auth/adapters/<id>.ts`, vendored with what it imports. Its declaration in
 * `src/auth.ts` is the template `templates/adapters/<id>.ts.hbs`.
 */
export interface AdapterScaffold {
	id: AdapterId;
	/** Label and hint of the interactive prompt. */
	label: string;
	hint: string;
	/** The function of its runtime module that makes the adapter, as `src/auth.ts` imports it. */
	factory: string;
	/** Other names its declaration imports from that module (a client it constructs). */
	alsoImports?: string[];
	/** The dialect whose `migrations/<dialect>/*.sql` are vendored and applied by `create-auth migrate`. */
	migrations?: SqlDialectId;
	/** npm packages the adapter's module imports, and their types. */
	dependencies: string[];
	devDependencies: string[];
	/**
	 * Packages whose install scripts must run (native addons). Drizzle's are the app's own
	 * driver's: see {@link buildsFor}.
	 */
	builds: string[];
	/** The variables its declaration reads, in that order, with what a first run writes to `.env`. */
	env: AdapterEnvVar[];
	/** The database file its variable names, and the file `src/auth.ts` opens when it is unset. */
	file?: { key: string; default: string };
	/** Files the app's `.gitignore` should list (a local database). */
	ignore: string[];
	/**
	 * The adapter works on the app's own Drizzle `db` and schema (`project.drizzle`): offered only
	 * to apps that have them, its tables vendored for the app's dialect and re-exported from the
	 * app's schema file, and created by the app's drizzle-kit (`pushAuthTables`).
	 */
	drizzle?: true;
	/**
	 * The adapter works on the app's own Prisma Client and schema (`project.prisma`): offered only
	 * to apps that have them, its models added to the app's `schema.prisma` (`addAuthModels`) and
	 * its tables created by the app's Prisma CLI (`pushPrismaTables`).
	 */
	prisma?: true;
	/**
	 * The adapter is Cloudflare D1's: offered only on Cloudflare (`Project.host`), its tables in
	 * `migrations/d1/*.sql`, which `wrangler d1 migrations apply` runs from the folder the app's
	 * Wrangler config names for its binding (`src/wrangler.ts`).
	 */
	wrangler?: true;
	/** What it can store beyond users, accounts and sessions; a descriptor that needs more is refused with it. */
	supports: AdapterCapability[];
}

/** The variable of a database server's connection URL (`--database-url` fills it). */
export const DATABASE_URL = 'DATABASE_URL';

/**
 * A variable an adapter's declaration reads; a first run always writes it (empty: for the user
 * to fill in). An `AuthEnvVar` of `env-vars.ts`, which lists it with the others.
 */
export interface AdapterEnvVar {
	key: string;
	/** One sentence: the comment in `.env` / `.env.example`, the `description` in `src/env.ts`. */
	description: string;
	/** What a first run writes to `.env`. */
	value: string;
	/** What `.env.example` shows; never a secret. */
	example: string;
}

export const ADAPTERS: readonly AdapterScaffold[] = [
	{
		id: 'sqlite',
		factory: 'SQLiteAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'SQLite',
		hint: 'embedded, a file next to your app; no server',
		dependencies: ['better-sqlite3'],
		devDependencies: ['@types/better-sqlite3'],
		builds: ['better-sqlite3'],
		env: [{ key: 'AUTH_SQLITE_FILE', description: 'SQLite file holding users, accounts and sessions.', value: 'auth.sqlite', example: 'auth.sqlite' }],
		file: { key: 'AUTH_SQLITE_FILE', default: 'auth.sqlite' },
		ignore: ['/auth.sqlite*']
	},
	{
		id: 'postgres',
		factory: 'PostgresAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'PostgreSQL',
		hint: 'pg, pooled; tables made by create-auth migrate',
		migrations: 'postgres',
		dependencies: ['pg'],
		devDependencies: ['@types/pg'],
		builds: [],
		env: [
			{
				key: DATABASE_URL,
				description: 'PostgreSQL connection URL: postgres://user:password@host:5432/database',
				value: 'postgres://postgres@127.0.0.1:5432/postgres',
				example: 'postgres://user:password@host:5432/database'
			}
		],
		ignore: []
	},
	{
		id: 'mysql',
		factory: 'MySQLAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'MySQL / MariaDB',
		hint: 'mysql2, pooled; tables made by create-auth migrate',
		migrations: 'mysql',
		dependencies: ['mysql2'],
		devDependencies: [],
		builds: [],
		env: [
			{
				key: DATABASE_URL,
				description: 'MySQL or MariaDB connection URL: mysql://user:password@host:3306/database',
				value: 'mysql://root@127.0.0.1:3306/test',
				example: 'mysql://user:password@host:3306/database'
			}
		],
		ignore: []
	},
	{
		id: 'drizzle',
		factory: 'DrizzleAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'Drizzle',
		hint: "your app's Drizzle db and schema; tables created with its drizzle-kit",
		env: [],
		dependencies: [],
		devDependencies: [],
		builds: [],
		ignore: [],
		drizzle: true
	},
	{
		id: 'prisma',
		factory: 'PrismaAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'Prisma',
		hint: "your app's Prisma Client; auth models added to its schema.prisma",
		env: [],
		dependencies: [],
		devDependencies: [],
		builds: [],
		ignore: [],
		prisma: true
	},
	{
		id: 'd1',
		factory: 'D1Adapter',
		supports: ['authenticators', 'two-factor', 'rate-limits'],
		label: 'Cloudflare D1',
		hint: 'a D1 binding in your Wrangler config; tables made by wrangler d1 migrations',
		env: [],
		dependencies: [],
		devDependencies: [],
		builds: [],
		// The local D1 database wrangler dev and vite dev use (.wrangler/state), as sv's .gitignore has it.
		ignore: ['.wrangler'],
		wrangler: true
	},
	{
		id: 'hosted-db',
		factory: 'HostedDbAdapter',
		alsoImports: ['HostedDbClient'],
		label: 'Hosted database',
		hint: 'a record API (Xata-style) with the authlib_* tables',
		supports: [],
		env: [
			{ key: 'AUTH_HOSTED_DB_URL', description: 'The hosted database, without its branch: https://<workspace>/db/<database>', value: '', example: 'https://workspace.example.com/db/app' },
			{ key: 'AUTH_HOSTED_DB_API_KEY', description: "The hosted database's API key. Keep it secret.", value: '', example: '' },
			{ key: 'AUTH_HOSTED_DB_BRANCH', description: 'Its branch (default main).', value: 'main', example: 'main' }
		],
		dependencies: [],
		devDependencies: [],
		builds: [],
		ignore: []
	},
	{
		id: 'memory',
		factory: 'MemoryAdapter',
		supports: ['authenticators', 'two-factor'],
		label: 'Memory',
		hint: 'for demos and tests: everything is lost on restart',
		env: [],
		dependencies: [],
		devDependencies: [],
		builds: [],
		ignore: []
	}
];

/** The scaffold of an adapter id; undefined for an unknown one. */
export function findAdapter(id: string): AdapterScaffold | undefined {
	return ADAPTERS.find((adapter) => adapter.id === id);
}

/**
 * The first need of `descriptors` the adapter does not meet, with the descriptor that has it;
 * undefined when it meets them all.
 */
export function unmetNeed(adapter: AdapterScaffold, descriptors: readonly Descriptor[]): (AdapterNeed & { of: string }) | undefined {
	for (const descriptor of descriptors) {
		const need = descriptor.needs?.find(({ capability }) => !adapter.supports.includes(capability));
		if (need) return { ...need, of: descriptor.id };
	}
	return undefined;
}

/**
 * Native drivers an app's own ORM signs users in through, each by the dependency that brings it:
 * `sv add drizzle`'s SQLite default, and Prisma's driver adapter for it, which depends on it.
 */
const NATIVE_DRIVERS: Record<string, string> = { 'better-sqlite3': 'better-sqlite3', '@prisma/adapter-better-sqlite3': 'better-sqlite3' };

/**
 * Packages whose install scripts the adapter needs run: its own `builds`, and for Drizzle and
 * Prisma the app's native driver, which signs users in through the app's `db` or client (npm 11
 * and pnpm 10+ skip a build the app has not approved, and the app then fails at its first query).
 *
 * @param dependencies the app's `dependencies` and `devDependencies` (names)
 */
export function buildsFor(adapter: AdapterScaffold, dependencies: readonly string[]): string[] {
	if (!adapter.drizzle && !adapter.prisma) return adapter.builds;
	return [...new Set(dependencies.flatMap((name) => NATIVE_DRIVERS[name] ?? []))];
}

/**
 * The adapters that fit the app, in prompt order: all but Drizzle and Prisma, which need the
 * app's own (`Project.drizzle`, `Project.prisma`), and D1, which needs Cloudflare (`Project.host`).
 */
export function adaptersFor(project: { drizzle?: DrizzleSetup; prisma?: PrismaSetup; host?: { cloudflare?: boolean } }): AdapterScaffold[] {
	return ADAPTERS.filter(
		(adapter) => (!adapter.drizzle || project.drizzle) && (!adapter.prisma || project.prisma) && (!adapter.wrangler || project.host?.cloudflare)
	);
}

/**
 * Whether a runtime file is one of the chosen adapter's assets, which nothing imports and the
 * app gets by this rule instead of by following imports: the SQL migrations of its dialect
 * (`server/auth/adapters/migrations/<dialect>/*.sql`, run by `create-auth migrate`; D1's by
 * wrangler) and, for
 * Drizzle, the tables of the app's dialect (`server/auth/adapters/drizzle-schema/<dialect>.ts`,
 * re-exported from the app's schema). Any other file: false.
 *
 * @param drizzleDialect the dialect of the app's Drizzle setup, if any
 */
export function isAdapterAsset(file: string, adapter: AdapterScaffold, drizzleDialect: DrizzleDialect | undefined): boolean {
	const match = /^server\/auth\/adapters\/(?:migrations\/([^/]+)\/.*|drizzle-schema\/([^/]+)\.ts)$/.exec(file);
	if (!match) return false;
	const [, dialect, schemaDialect] = match;
	if (dialect !== undefined) return dialect === adapter.migrations || (adapter.wrangler === true && dialect === 'd1');
	return adapter.drizzle === true && schemaDialect === drizzleDialect;
}
