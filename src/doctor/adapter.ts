import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildsFor, DATABASE_URL, findAdapter, type AdapterId, type AdapterScaffold } from '../adapters.js';
import { checkDriver } from '../driver-load.js';
import { CliError } from '../errors.js';
import { connectDatabase, pendingMigrations, readMigrations, redactUrl } from '../migrate.js';
import type { PackageManager } from '../workspace.js';
import { lookupEnv, type Check, type EnvSources } from './check.js';

/**
 * What one adapter needs on this machine. Probing does the I/O ({@link probeAdapter}); the
 * checks judge the facts ({@link adapterChecks}). An adapter joins by adding a row here
 * (PostgreSQL: its driver package, no files).
 */
export interface AdapterProbe {
	/** npm packages the adapter's runtime module imports, resolved from the app's root. */
	drivers: readonly string[];
	/**
	 * Files the adapter creates or writes, with the variable that names each. A relative path
	 * is taken from the app's root, where `vite dev` runs and `node build` usually does.
	 */
	files(env: EnvSources): Array<{ key: string; path: string }>;
}

/** What {@link probeAdapter} looks for: the adapter's dependencies, and the file it writes, if any. */
export function adapterProbe(adapter: AdapterScaffold): AdapterProbe {
	const file = adapter.file;
	return {
		drivers: adapter.dependencies,
		// The generated src/auth.ts falls back to the default file when its variable is unset.
		files: (env) => (file ? [{ key: file.key, path: lookupEnv(env, file.key)?.value ?? file.default }] : [])
	};
}

/** A file the adapter writes: whether its folder and the file itself can be written. */
export interface AdapterFile {
	key: string;
	/** As the variable names it (relative to the app's root, or absolute). */
	path: string;
	folder: 'writable' | 'missing' | 'read-only';
	file: 'absent' | 'writable' | 'read-only';
}

/**
 * The database of an adapter with migrations (PostgreSQL, MySQL), as {@link probeAdapter} found
 * it at its URL variable: `unset`; `unreachable` (with the driver's reason); `reachable`, with
 * the app's migration files not yet applied there (`pending`, by name) out of `total`. `url` is
 * redacted (no password). Not probed while the driver is missing.
 */
export type DatabaseFacts =
	| { state: 'unset'; key: string; example: string }
	| { state: 'unreachable'; url: string; reason: string }
	| { state: 'reachable'; url: string; pending: string[]; total: number };

/** What {@link probeAdapter} found. */
export interface AdapterFacts {
	adapter: AdapterId;
	/**
	 * Its drivers: whether each resolves from the app's folder and, for a native one that does,
	 * whether it loads under the Node that runs the app (`loaded`) and, when not, why and the fix (`unloadable`).
	 */
	drivers: Array<{ name: string; resolved: boolean; loaded?: boolean; unloadable?: { message: string; hint: string } }>;
	files: AdapterFile[];
	database?: DatabaseFacts;
}

/**
 * Looks for the adapter's drivers (resolved as the app's server would, from `root`; a native one,
 * of `buildsFor`, also loaded and opened with the `node` on the PATH: {@link checkDriver}),
 * whether the files it writes can be written and, for an adapter with migrations whose driver is
 * installed, its database: connected to with the app's driver (5 s timeout) and asked which of
 * the app's migration files it has not applied. Never throws for an unreachable database.
 *
 * @param root the app's root folder (absolute)
 * @param libDir the app's lib folder, app-relative (`src/lib`): where the migrations are vendored
 * @param app the app's dependency names (Drizzle's native driver is the app's own) and its package manager (the fix names it)
 * @returns undefined for an unknown adapter id
 */
export async function probeAdapter(
	root: string,
	adapter: AdapterId,
	env: EnvSources,
	libDir: string,
	app: { dependencies: readonly string[]; manager: PackageManager }
): Promise<AdapterFacts | undefined> {
	const scaffold = findAdapter(adapter);
	if (!scaffold) return undefined;
	const probe = adapterProbe(scaffold);
	const require = createRequire(path.join(root, 'package.json'));
	const native = buildsFor(scaffold, app.dependencies);
	const names = [...new Set([...probe.drivers, ...native])];
	const drivers = await Promise.all(
		names.map(async (name) => {
			try {
				require.resolve(name);
			} catch {
				return { name, resolved: false };
			}
			if (!native.includes(name)) return { name, resolved: true };
			const unloadable = await checkDriver(root, name, app.manager);
			return unloadable ? { name, resolved: true, loaded: false, unloadable } : { name, resolved: true, loaded: true };
		})
	);
	const files = await Promise.all(
		probe.files(env).map(async ({ key, path: file }): Promise<AdapterFile> => {
			const absolute = path.resolve(root, file);
			const folder = await access(path.dirname(absolute), constants.W_OK).then(
				() => 'writable' as const,
				(error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? ('missing' as const) : ('read-only' as const))
			);
			const exists = await stat(absolute).then(
				() => true,
				() => false
			);
			const writable = exists && (await access(absolute, constants.W_OK).then(() => true, () => false));
			return { key, path: file, folder, file: !exists ? 'absent' : writable ? 'writable' : 'read-only' };
		})
	);
	const database = scaffold.migrations && drivers.every((driver) => driver.resolved) ? await probeDatabase(root, libDir, scaffold, env) : undefined;
	return { adapter, drivers, files, ...(database ? { database } : {}) };
}

async function probeDatabase(root: string, libDir: string, scaffold: AdapterScaffold, env: EnvSources): Promise<DatabaseFacts | undefined> {
	const dialect = scaffold.migrations;
	const variable = scaffold.env.find(({ key }) => key === DATABASE_URL);
	if (!dialect || !variable) return undefined;
	const url = lookupEnv(env, variable.key)?.value;
	if (!url) return { state: 'unset', key: variable.key, example: variable.example };
	const migrations = await readMigrations(root, libDir, dialect);
	let connection;
	try {
		connection = await connectDatabase(root, dialect, url);
	} catch (error) {
		const reason = error instanceof CliError && error.cause instanceof Error ? error.cause.message : (error as Error).message;
		return { state: 'unreachable', url: redactUrl(url), reason };
	}
	try {
		return { state: 'reachable', url: redactUrl(url), pending: await pendingMigrations(connection, migrations), total: migrations.length };
	} catch (error) {
		return { state: 'unreachable', url: redactUrl(url), reason: (error as Error).message };
	} finally {
		await connection.close().catch(() => undefined);
	}
}

/**
 * `adapter-driver` (error: a driver the app cannot find, or a native one that cannot load under
 * the Node that runs the app, with why and the fix); for adapters with a database server,
 * `adapter-database` (error: its URL unset or the server unreachable) and `adapter-migrations`
 * (error: migrations not applied, so the auth tables are missing or old); for adapters that write
 * files, `adapter-storage` (error: the database file cannot be created or written).
 */
export function adapterChecks(facts: AdapterFacts): Check[] {
	const missing = facts.drivers.filter((driver) => !driver.resolved).map((driver) => driver.name);
	const unloadable = facts.drivers.find((driver) => driver.unloadable)?.unloadable;
	const checks: Check[] = [
		unloadable && missing.length === 0
			? { id: 'adapter-driver', status: 'error', ...unloadable }
			: missing.length === 0
				? {
						id: 'adapter-driver',
						status: 'ok',
						message: `The ${facts.adapter} adapter's driver is installed${facts.drivers.some((d) => d.loaded) ? ' and loads' : ''} (${facts.drivers.map((d) => d.name).join(', ')}).`
					}
			: {
					id: 'adapter-driver',
					status: 'error',
					message: `${missing.join(', ')} cannot be found from the app's folder: the ${facts.adapter} adapter fails to load, and with it every request that reads the session.`,
					hint: "Install the app's dependencies (npm install, or your package manager's install); create-auth added it to package.json."
				}
	];
	if (facts.database) checks.push(...databaseChecks(facts.adapter, facts.database));
	if (facts.files.length === 0) return checks;
	const problems = facts.files.flatMap((file) => {
		const where = `${file.path} (${file.key})`;
		if (file.folder === 'missing') return [`the folder of ${where} does not exist`];
		if (file.file === 'read-only') return [`${where} is read-only`];
		if (file.file === 'absent' && file.folder === 'read-only') return [`the folder of ${where} is read-only, so the file cannot be created`];
		return [];
	});
	checks.push(
		problems.length === 0
			? {
					id: 'adapter-storage',
					status: 'ok',
					message: `${facts.files.map((f) => `${f.path} (${f.key})`).join(', ')} can be ${facts.files.every((f) => f.file === 'absent') ? 'created' : 'written'}.`
				}
			: {
					id: 'adapter-storage',
					status: 'error',
					message: `The ${facts.adapter} adapter cannot write its database: ${problems.join('; ')}.`,
					hint: `Create the folder or fix its permissions, or point ${facts.files.map((f) => f.key).join(', ')} at a writable path (relative paths start at the app's root).`
				}
	);
	return checks;
}

/** `adapter-database` and, when the database answers, `adapter-migrations`. */
function databaseChecks(adapter: AdapterId, database: DatabaseFacts): Check[] {
	if (database.state === 'unset') {
		return [
			{
				id: 'adapter-database',
				status: 'error',
				message: `${database.key} is not set: the ${adapter} adapter has no database to connect to, so every sign-in and session read fails.`,
				hint: `Set it in .env (${database.example}), then run npx create-auth migrate.`
			}
		];
	}
	if (database.state === 'unreachable') {
		return [
			{
				id: 'adapter-database',
				status: 'error',
				message: `The database at ${database.url} does not answer (${database.reason}): sign-in and session reads fail until it does.`,
				hint: 'Start the database server, or fix DATABASE_URL in .env.'
			}
		];
	}
	const reachable: Check = { id: 'adapter-database', status: 'ok', message: `The database at ${database.url} answers.` };
	if (database.pending.length === 0) {
		return [reachable, { id: 'adapter-migrations', status: 'ok', message: `The auth tables are up to date (${database.total} migration${database.total === 1 ? '' : 's'} applied).` }];
	}
	return [
		reachable,
		{
			id: 'adapter-migrations',
			status: 'error',
			message: `${database.pending.join(', ')} ${database.pending.length === 1 ? 'is' : 'are'} not applied to ${database.url}: sign-in fails until the auth tables exist.`,
			hint: 'Run npx create-auth migrate.'
		}
	];
}
