import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** A package as the app sees it ({@link installedPackage}). */
export interface InstalledPackage {
	/** Absolute path of its folder, as found (a pnpm symlink is not followed). */
	dir: string;
	/** Its package.json. */
	manifest: { version?: string; bin?: string | Record<string, string> };
}

/**
 * The package `name` as the app at `root` sees it: in the nearest `node_modules` folder that
 * has it, walking up as Node's resolution does, so a workspace's packages hoisted to its root
 * (npm, Yarn, Bun workspaces) are found as well as the app's own (pnpm links them into the
 * app's node_modules). Reads package.json directly: a package whose `exports` hide it is found too.
 *
 * @param root absolute path of the app (the folder of its package.json)
 * @param within an absolute folder that bounds the walk (the app's install root, so that an app
 *   not installed yet is not given a copy that some unrelated folder above it has); unbounded
 *   when not given, as Node's resolution is
 * @returns undefined when no folder on the way has the package (or its package.json is not JSON)
 */
export function installedPackage(root: string, name: string, within?: string): InstalledPackage | undefined {
	const inside = (folder: string) => {
		const relative = within === undefined ? '' : path.relative(within, folder);
		return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
	};
	for (const folder of (createRequire(path.join(root, 'package.json')).resolve.paths(name) ?? []).filter(inside)) {
		const dir = path.join(folder, name);
		try {
			return { dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) };
		} catch {
			continue;
		}
	}
	return undefined;
}
