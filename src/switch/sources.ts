import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Modules whose imports say whether an app still uses a library. */
const MODULE = /\.(?:[cm]?[jt]s|svelte)$/;
/** More than this many modules below `src/` and the rest are not read: a switch is about an app, not a monorepo's vendored code. */
const MAX_FILES = 5_000;

/**
 * The text of every module below the app's `src/` (`.js`, `.ts` and their `c`/`m` forms,
 * `.svelte`), app-relative POSIX path → text, in path order; folders named `node_modules` and
 * dot-folders are skipped. Unreadable entries count as absent; never throws.
 */
export async function readSources(root: string): Promise<Record<string, string>> {
	const found: string[] = [];
	const visit = async (dir: string): Promise<void> => {
		const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
		for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
			if (found.length >= MAX_FILES) return;
			const relative = `${dir}/${entry.name}`;
			if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) await visit(relative);
			else if (entry.isFile() && MODULE.test(entry.name)) found.push(relative);
		}
	};
	await visit('src');
	const sources: Record<string, string> = {};
	for (const file of found) {
		const text = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
		if (text !== undefined) sources[file] = text;
	}
	return sources;
}

/** The specifier app code imports a module by: `$lib/server/auth` for `src/lib/server/auth.ts`; outside the lib folder, its path without extension. */
export function libSpecifierOf(file: string, libDir: string): string {
	const bare = file.replace(/\.[jt]s$/, '');
	return bare.startsWith(`${libDir}/`) ? `$lib/${bare.slice(libDir.length + 1)}` : bare;
}

/** `text` with the characters a regular expression gives a meaning escaped (and `/`), to match it as it is. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
