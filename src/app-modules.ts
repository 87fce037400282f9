import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolveImport } from 'import-meta-resolve';

/**
 * The file an `import(specifier)` in a module at `root` loads, by Node's ESM resolution
 * (`exports` under the `node`/`import` conditions, else `main`; `import-meta-resolve`): what
 * Prettier does for plugins, where `require.resolve` would pick CommonJS entries and miss
 * packages that only export `import`.
 *
 * @returns an absolute path, or undefined when the package is not installed or does not export
 *   the subpath
 */
export function resolveFromApp(root: string, specifier: string): string | undefined {
	try {
		return fileURLToPath(resolveImport(specifier, pathToFileURL(path.join(root, 'package.json')).href));
	} catch {
		return undefined;
	}
}

/**
 * Imports a package the way the app at `root` would: its own installed copy (the app's
 * Prettier, its database driver), never create-auth's.
 * @returns the module, or undefined when the app does not have the package installed
 */
export async function importFromApp<T>(root: string, specifier: string): Promise<T | undefined> {
	const entry = resolveFromApp(root, specifier);
	return entry === undefined ? undefined : ((await import(pathToFileURL(entry).href)) as T);
}
