import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findAdapter, type AdapterId, type AdapterScaffold } from '../adapters.js';
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

/** What {@link probeAdapter} found. */
export interface AdapterFacts {
	adapter: AdapterId;
	drivers: Array<{ name: string; resolved: boolean }>;
	files: AdapterFile[];
}

/**
 * Looks for the adapter's drivers (resolved as the app's server would, from `root`) and
 * whether the files it writes can be written.
 *
 * @param root the app's root folder (absolute)
 * @returns undefined for an unknown adapter id
 */
export async function probeAdapter(root: string, adapter: AdapterId, env: EnvSources): Promise<AdapterFacts | undefined> {
	const scaffold = findAdapter(adapter);
	if (!scaffold) return undefined;
	const probe = adapterProbe(scaffold);
	const require = createRequire(path.join(root, 'package.json'));
	const drivers = probe.drivers.map((name) => {
		try {
			require.resolve(name);
			return { name, resolved: true };
		} catch {
			return { name, resolved: false };
		}
	});
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
	return { adapter, drivers, files };
}

/**
 * `adapter-driver` (error: a driver the app cannot load) and, for adapters that write files,
 * `adapter-storage` (error: the database file cannot be created or written).
 */
export function adapterChecks(facts: AdapterFacts): Check[] {
	const missing = facts.drivers.filter((driver) => !driver.resolved).map((driver) => driver.name);
	const checks: Check[] = [
		missing.length === 0
			? { id: 'adapter-driver', status: 'ok', message: `The ${facts.adapter} adapter's driver is installed (${facts.drivers.map((d) => d.name).join(', ')}).` }
			: {
					id: 'adapter-driver',
					status: 'error',
					message: `${missing.join(', ')} cannot be found from the app's folder: the ${facts.adapter} adapter fails to load, and with it every request that reads the session.`,
					hint: "Install the app's dependencies (npm install, or your package manager's install); create-auth added it to package.json."
				}
	];
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
