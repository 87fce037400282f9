import type { SqlDialectId } from './migrate.js';

/** Adapter ids, in the order the prompt offers them; `sqlite` is the embedded default. */
export const ADAPTER_IDS = ['sqlite', 'postgres', 'mysql', 'memory'] as const;
export type AdapterId = (typeof ADAPTER_IDS)[number];

/**
 * What the CLI needs to know about one adapter to scaffold it: the runtime modules to vendor,
 * the packages to install, the environment variable it reads, and its migrations. Its
 * declaration in `src/auth.ts` is the template `templates/adapters/<id>.ts.hbs`.
 */
export interface AdapterScaffold {
	id: AdapterId;
	/** Label and hint of the interactive prompt. */
	label: string;
	hint: string;
	/** The function of its runtime module that makes the adapter, as `src/auth.ts` imports it. */
	factory: string;
	/** Runtime modules under `server/auth/adapters/` besides `types.ts`, without extension. */
	modules: string[];
	/** The dialect whose `migrations/<dialect>/*.sql` are vendored and applied by `create-auth migrate`. */
	migrations?: SqlDialectId;
	/** npm packages the adapter's module imports, and their types. */
	dependencies: string[];
	devDependencies: string[];
	/** Packages whose install scripts must run (native addons). */
	builds: string[];
	/** The variable its declaration reads, with what a first run writes to `.env`. */
	env?: { key: string; description: string; value: string; example: string };
	/** The database file its variable names, and the file `src/auth.ts` opens when it is unset. */
	file?: { key: string; default: string };
	/** Files the app's `.gitignore` should list (a local database). */
	ignore: string[];
}

const DATABASE_URL = 'DATABASE_URL';

export const ADAPTERS: readonly AdapterScaffold[] = [
	{
		id: 'sqlite',
		factory: 'SQLiteAdapter',
		label: 'SQLite',
		hint: 'embedded, a file next to your app; no server',
		modules: ['sqlite', 'sql'],
		dependencies: ['better-sqlite3'],
		devDependencies: ['@types/better-sqlite3'],
		builds: ['better-sqlite3'],
		env: { key: 'AUTH_SQLITE_FILE', description: 'SQLite file holding users, accounts and sessions.', value: 'auth.sqlite', example: 'auth.sqlite' },
		file: { key: 'AUTH_SQLITE_FILE', default: 'auth.sqlite' },
		ignore: ['/auth.sqlite*']
	},
	{
		id: 'postgres',
		factory: 'PostgresAdapter',
		label: 'PostgreSQL',
		hint: 'pg, pooled; tables made by create-auth migrate',
		modules: ['postgres', 'sql'],
		migrations: 'postgres',
		dependencies: ['pg'],
		devDependencies: ['@types/pg'],
		builds: [],
		env: {
			key: DATABASE_URL,
			description: 'PostgreSQL connection URL: postgres://user:password@host:5432/database',
			value: 'postgres://postgres@127.0.0.1:5432/postgres',
			example: 'postgres://user:password@host:5432/database'
		},
		ignore: []
	},
	{
		id: 'mysql',
		factory: 'MySQLAdapter',
		label: 'MySQL / MariaDB',
		hint: 'mysql2, pooled; tables made by create-auth migrate',
		modules: ['mysql', 'sql'],
		migrations: 'mysql',
		dependencies: ['mysql2'],
		devDependencies: [],
		builds: [],
		env: {
			key: DATABASE_URL,
			description: 'MySQL or MariaDB connection URL: mysql://user:password@host:3306/database',
			value: 'mysql://root@127.0.0.1:3306/test',
			example: 'mysql://user:password@host:3306/database'
		},
		ignore: []
	},
	{
		id: 'memory',
		factory: 'MemoryAdapter',
		label: 'Memory',
		hint: 'for demos and tests: everything is lost on restart',
		modules: ['memory'],
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
 * Whether a vendored runtime file (keyed like `server/auth/adapters/sql.ts`) belongs to another
 * adapter than `adapter`, and so stays out of the app: an app never imports a driver it lacks.
 */
export function isOtherAdaptersFile(file: string, adapter: AdapterScaffold): boolean {
	const match = /^server\/auth\/adapters\/(?:migrations\/([^/]+)\/.*|([^/]+)\.ts)$/.exec(file);
	if (!match) return false;
	const [, dialect, module] = match;
	if (dialect !== undefined) return dialect !== adapter.migrations;
	return module !== 'types' && !adapter.modules.includes(module!);
}
