import * as prompts from '@clack/prompts';
import { DATABASE_URL, findAdapter } from '../adapters.js';
import { lookupEnv } from '../doctor/check.js';
import { readEnvSources } from '../doctor/gather.js';
import { applyD1Migrations } from '../d1-migrate.js';
import { pushAuthTables } from '../drizzle-push.js';
import { PRISMA_MIGRATE_STEP, pushPrismaTables } from '../prisma-push.js';
import { CliError } from '../errors.js';
import { connectDatabase, readMigrations, redactUrl, runMigrations } from '../migrate.js';
import type { Project } from '../project.js';
import { loadApp, noManifest, type LoadedApp } from './app.js';

/** Options of `create-auth migrate`. */
export interface MigrateOptions {
	cwd?: string;
	/** The app, when the caller has read it already (after an install). */
	app?: LoadedApp;
}

/**
 * `create-auth migrate`: applies the adapter's migrations that have not run yet to the database
 * at `DATABASE_URL` (the process's environment, then `.env.local`, then `.env`, as the dev
 * server reads them), from the app's vendored `migrations/<dialect>/*.sql`, with the app's own
 * driver. Idempotent: what ran is recorded in `auth_migrations`. With the Drizzle adapter, the
 * app's own migration story instead: the app's drizzle-kit pushes the auth tables its schema
 * re-exports, and only those (`pushAuthTables`). With Prisma, the app's Prisma CLI pushes its
 * schema, which holds the auth models, unless the app keeps Prisma migrations: then it says to
 * run `prisma migrate dev` (`pushPrismaTables`). With D1, the app's wrangler applies
 * `migrations/d1/*.sql` to the local database (`applyD1Migrations`); the remote one is the user's
 * to migrate, and it says how. SQLite and memory need none (SQLite creates its
 * tables on first use): it says so and exits 0.
 *
 * @returns the exit code, 0
 * @throws {CliError} `E_NO_MANIFEST`; `E_DATABASE_URL_MISSING`; `E_DRIVER_MISSING`,
 *   `E_DATABASE_UNREACHABLE`, `E_MIGRATION_FAILED` from `src/migrate.ts`; `E_MIGRATION_FAILED`
 *   when drizzle-kit push fails (its output's tail in the message); `E_DRIZZLE_MISSING` when
 *   the app no longer has the Drizzle setup the manifest's adapter needs; `E_MIGRATION_FAILED`
 *   when prisma db push fails, `E_PRISMA_MISSING` without the app's Prisma setup; `E_WRANGLER_CONFIG` and
 *   `E_MIGRATION_FAILED` from `applyD1Migrations`
 */
export async function migrate(options: MigrateOptions): Promise<number> {
	const { project, manifest } = options.app ?? (await loadApp(options.cwd));
	if (!manifest) throw noManifest();
	const adapter = findAdapter(manifest.answers.adapter);
	if (adapter?.drizzle) return pushDrizzleTables(project);
	if (adapter?.prisma) return pushPrisma(project);
	if (adapter?.wrangler) {
		const { database, applied } = await applyD1Migrations(project);
		const local = `the local D1 database ${database.binding} (.wrangler/state, as wrangler dev and vite dev use it)`;
		prompts.log.success(applied.length > 0 ? `Applied ${applied.join(', ')} to ${local}.` : `The auth tables in ${local} are up to date.`);
		prompts.log.info(`Before deploying, create them in Cloudflare's: npx wrangler d1 migrations apply ${database.binding} --remote`);
		return 0;
	}
	const dialect = adapter?.migrations;
	if (!adapter || !dialect) {
		prompts.log.info(`The ${manifest.answers.adapter} adapter has no migrations: ${adapter?.id === 'sqlite' ? 'SQLite creates its tables on first use' : 'nothing is stored on disk'}.`);
		return 0;
	}
	const url = lookupEnv(await readEnvSources(project), 'DATABASE_URL')?.value;
	if (!url) {
		throw new CliError(
			'E_DATABASE_URL_MISSING',
			`DATABASE_URL is not set: the ${adapter.label} adapter connects to it.`,
			`Set it in .env (${adapter.env.find(({ key }) => key === DATABASE_URL)?.example}), then run npx create-auth migrate.`
		);
	}
	const migrations = await readMigrations(project.root, project.libDir, dialect);
	const connection = await connectDatabase(project.root, dialect, url);
	try {
		const { applied, before } = await runMigrations(connection, dialect, migrations);
		const where = redactUrl(url);
		if (applied.length === 0) prompts.log.success(`The auth tables at ${where} are up to date (${before.length} migrations ran before).`);
		else prompts.log.success(`Applied ${applied.join(', ')} to ${where}.`);
	} finally {
		await connection.close();
	}
	return 0;
}


/**
 * After a run that wrote migration files (the first, or one whose new version brought a
 * migration): applies them when the database is reachable, else says what to run later. Never
 * fails the run: the files are written either way.
 */
export async function migrateAfterWrite(cwd: string): Promise<void> {
	try {
		await migrate({ cwd });
	} catch (error) {
		if (!(error instanceof CliError)) throw error;
		prompts.log.warn(`The auth tables were not created: ${error.message}\nTo do by hand: ${error.hint ?? 'run npx create-auth migrate.'}`);
	}
}

/** The Drizzle adapter's migration: see {@link pushAuthTables}. */
async function pushDrizzleTables(project: Project): Promise<number> {
	const { drizzle } = project;
	if (!drizzle) {
		throw new CliError(
			'E_DRIZZLE_MISSING',
			"The Drizzle adapter needs the app's Drizzle setup (drizzle.config and its schema file), and it is gone.",
			'Restore it, then run npx create-auth migrate.'
		);
	}
	const outcome = await pushAuthTables({ root: project.root, installRoot: project.installRoot, libDir: project.libDir, drizzle });
	if (outcome === 'unchanged') prompts.log.success('The auth tables are up to date (drizzle-kit push: no changes).');
	else prompts.log.success('Created the auth tables with drizzle-kit push (the auth_* tables only: your own schema changes are left to your db:push).');
	return 0;
}

/** The Prisma adapter's migration: see {@link pushPrismaTables}. */
async function pushPrisma(project: Project): Promise<number> {
	const { prisma } = project;
	if (!prisma) {
		throw new CliError(
			'E_PRISMA_MISSING',
			"The Prisma adapter needs the app's Prisma setup (its schema and the module exporting its client), and create-auth no longer finds it.",
			'Restore it, then run npx create-auth migrate.'
		);
	}
	const outcome = await pushPrismaTables({ root: project.root, installRoot: project.installRoot, prisma });
	if (outcome === 'migrations') prompts.log.info(`Your app keeps Prisma migrations, so create-auth did not push: add the auth tables with ${PRISMA_MIGRATE_STEP}`);
	else prompts.log.success(`Created the auth tables with prisma db push of ${prisma.schema}, and generated its client.`);
	return 0;
}
