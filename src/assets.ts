import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the installed create-auth package (where `templates/` and `runtime/` ship). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A text file shipped with the tool, keyed by its path relative to its folder (POSIX). */
export type TextFiles = Record<string, string>;

/** Reads every file below `dir` into memory, skipping paths for which `skip` returns true. */
async function readTree(dir: string, skip: (relative: string) => boolean): Promise<TextFiles> {
	const entries = await readdir(dir, { recursive: true, withFileTypes: true });
	const files: TextFiles = {};
	await Promise.all(
		entries
			.filter((entry) => entry.isFile())
			.map(async (entry) => {
				const absolute = path.join(entry.parentPath, entry.name);
				const relative = path.relative(dir, absolute).split(path.sep).join('/');
				if (!skip(relative)) files[relative] = await readFile(absolute, 'utf8');
			})
	);
	return files;
}

/** All Handlebars templates, keyed like `routes/signin/+page.svelte.hbs`. */
export function loadTemplates(root = PACKAGE_ROOT): Promise<TextFiles> {
	return readTree(path.join(root, 'templates'), () => false);
}

/**
 * The vendored runtime, keyed like `server/kit.ts` or `client/SignIn.svelte`; unit tests and
 * the test stand-ins under `runtime/test/` stay behind.
 */
export function loadRuntime(root = PACKAGE_ROOT): Promise<TextFiles> {
	return readTree(
		path.join(root, 'runtime'),
		(relative) => /\.test\.ts$/.test(relative) || relative.startsWith('test/') || relative === 'tsconfig.json'
	);
}

/** The tool's own package.json: its version, and the ranges of the runtime's dependencies. */
export async function loadToolPackage(root = PACKAGE_ROOT): Promise<{
	version: string;
	devDependencies: Record<string, string>;
}> {
	return JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
}
