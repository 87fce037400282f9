import * as prompts from '@clack/prompts';
import { DATABASE_URL, findAdapter } from '../adapters.js';
import { lookupEnv } from '../doctor/check.js';
import { readEnvSources } from '../doctor/gather.js';
import { CliError } from '../errors.js';
import { connectDatabase, readMigrations, redactUrl, runMigrations } from '../migrate.js';
import { noManifest } from './regenerate.js';
import type { Project } from '../project.js';
import { loadApp, type LoadedApp } from './pipeline.js';

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
 * app's own migration story instead: its `db:push` script (drizzle-kit push), which creates the
 * auth tables its schema re-exports. SQLite and memory need none (SQLite creates its tables on
 * first use): it says so and exits 0.
 *
 * @returns the exit code, 0
 * @throws {CliError} `E_NO_MANIFEST`; `E_DATABASE_URL_MISSING`; `E_DRIVER_MISSING`,
 *   `E_DATABASE_UNREACHABLE`, `E_MIGRATION_FAILED` from `src/migrate.ts`; `E_MIGRATION_FAILED`
 *   when drizzle-kit push fails (its output's tail in the message)
 */
export async function migrate(options: MigrateOptions): Promise<number> {
	const { project, manifest } = options.app ?? (await loadApp(options.cwd));
	if (!manifest) throw noManifest();
	const adapter = findAdapter(manifest.answers.adapter);
	if (adapter?.drizzle) return pushDrizzleSchema(project);
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

/**
 * Runs drizzle-kit push in the app, as its `db:push` script does (`sv add drizzle` writes it),
 * else `drizzle-kit push` from its node_modules: without a terminal, with a 2-minute limit.
 * drizzle-kit then asks nothing for new tables; a change it would have to confirm (a rename, data
 * loss) fails the run instead, and is left to the user.
 * @throws {CliError} `E_MIGRATION_FAILED` with the tail of drizzle-kit's output
 */
async function pushDrizzleSchema(project: Project): Promise<number> {
	const { execa } = await import('execa');
	const scripts = (JSON.parse(project.packageJson) as { scripts?: Record<string, string> }).scripts ?? {};
	const [command, args] = scripts['db:push'] ? [project.packageManager, ['run', 'db:push']] : ['npx', ['--no-install', 'drizzle-kit', 'push']];
	const run = `${command} ${args.join(' ')}`;
	const result = await execa(command, args, { cwd: project.root, reject: false, all: true, stdin: 'ignore', timeout: 120_000 });
	if (result.failed) {
		const tail = (result.all ?? '').split('\n').slice(-15).join('\n');
		throw new CliError('E_MIGRATION_FAILED', `${run} failed, so the auth tables were not created:\n${tail}`, `Fix the cause, then run ${run} (or npx create-auth migrate).`);
	}
	prompts.log.success(`Created the auth tables with ${run}.`);
	return 0;
}
