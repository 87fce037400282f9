import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The auth libraries create-auth recognises in an app it is added to, and `create-auth switch` moves an app off (issue 29). */
export const AUTH_LIBRARIES = ['authjs', 'better-auth', 'lucia'] as const;

/** One of {@link AUTH_LIBRARIES}. */
export type AuthLibraryId = (typeof AUTH_LIBRARIES)[number];

/** An auth library the app already uses, and where that shows. */
export interface FoundAuthLibrary {
	id: AuthLibraryId;
	/** Its name for people: `Auth.js (@auth/sveltekit)`, `Better Auth`, `Lucia`. */
	name: string;
	/** Its packages among the app's dependencies and devDependencies, in the order listed in {@link LIBRARIES}. */
	packages: string[];
	/** App files that use it, app-relative POSIX paths in the order read, each with what shows it (`betterAuth()`). */
	files: Array<{ path: string; uses: string }>;
}

/** What an app already has of auth, found before create-auth writes anything (issue 26). */
export interface ExistingAuth {
	/** Libraries found, in the order Auth.js, Better Auth, Lucia; empty when none. */
	libraries: FoundAuthLibrary[];
	/**
	 * The vendored runtime's lib folders (`server/auth`, `auth`) whose bare specifier an app module
	 * of the same name takes (`$lib/server/auth` → `src/lib/server/auth.ts`, Better Auth's or
	 * Lucia's), each with that module's app-relative path. Generated code then imports the
	 * folder's index by name (see `libSpecifier`).
	 */
	shadowed: Record<string, string>;
}

/**
 * The extensions with which a bare specifier (`$lib/server/auth`) resolves to a file before the
 * folder of that name: Vite's default `resolve.extensions` (`.mjs .js .mts .ts .jsx .tsx .json`)
 * and TypeScript's (`.ts .tsx .d.ts`, `.js .jsx` with allowJs).
 */
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.js', '.jsx', '.mjs', '.json'];

/** The runtime's lib folders that generated code imports by their bare name (`$lib/auth`). */
export const RUNTIME_LIB_FOLDERS = ['server/auth', 'auth'] as const;

/**
 * The file the bare specifier of a lib folder resolves to instead of the folder's index: a
 * sibling named like the folder with a module extension (`auth.ts` beside `auth/`).
 *
 * @param folderName the folder's own name (`auth`)
 * @param siblings the names of the files in the folder's parent (not of sub-folders)
 * @returns the sibling's name (`auth.ts`), the first in {@link MODULE_EXTENSIONS}' order; else undefined
 */
export function shadowingModule(folderName: string, siblings: readonly string[]): string | undefined {
	return MODULE_EXTENSIONS.map((extension) => folderName + extension).find((name) => siblings.includes(name));
}

/** What shows a library in a file's text: a pattern and how the report names it. */
interface Sign {
	pattern: RegExp;
	uses: string;
}

/** Each library's packages, and the signs of its use in code. */
const LIBRARIES: Array<{ id: AuthLibraryId; name: string; packages: string[]; signs: Sign[]; needsFile?: boolean }> = [
	{
		id: 'authjs',
		name: 'Auth.js (@auth/sveltekit)',
		packages: ['@auth/sveltekit'],
		signs: [{ pattern: /\bfrom\s*['"]@auth\/sveltekit(?:\/[^'"]*)?['"]/, uses: '@auth/sveltekit' }]
	},
	{
		id: 'better-auth',
		name: 'Better Auth',
		packages: ['better-auth'],
		signs: [
			{ pattern: /\bbetterAuth\s*\(/, uses: 'betterAuth()' },
			{ pattern: /\bsvelteKitHandler\b/, uses: 'svelteKitHandler' }
		]
	},
	{
		id: 'lucia',
		name: 'Lucia',
		packages: ['lucia'],
		signs: [
			{ pattern: /\bfrom\s*['"]lucia['"]/, uses: 'lucia' },
			// The session functions `sv add lucia` writes (after Lucia's own guide) over @oslojs.
			{ pattern: /\bvalidateSessionToken\b[\s\S]*\bsessionCookieName\b|\bsessionCookieName\b[\s\S]*\bvalidateSessionToken\b/, uses: 'validateSessionToken and sessionCookieName' }
		]
	}
];

/** The oslo packages Lucia's session functions use: listed as Lucia's only beside such a file. */
const OSLO_PACKAGES = ['@oslojs/crypto', '@oslojs/encoding'];

/**
 * The auth libraries an app uses, from its dependencies and the text of the files that set auth
 * up. Pure.
 *
 * @param dependencies the app's dependencies and devDependencies, name → range
 * @param files app-relative path → text (absent files left out or `undefined`); read in key order
 * @returns the libraries with a package or a file showing them (see {@link FoundAuthLibrary})
 */
export function findAuthLibraries(dependencies: Record<string, string>, files: Record<string, string | undefined>): FoundAuthLibrary[] {
	const found: FoundAuthLibrary[] = [];
	for (const library of LIBRARIES) {
		const uses = Object.entries(files).flatMap(([file, text]) => {
			const signs = text === undefined ? [] : library.signs.filter(({ pattern }) => pattern.test(text));
			return signs.length > 0 ? [{ path: file, uses: signs.map((sign) => sign.uses).join(', ') }] : [];
		});
		const oslo = library.id === 'lucia' && uses.length > 0 ? OSLO_PACKAGES : [];
		const packages = [...library.packages, ...oslo].filter((name) => name in dependencies);
		if (packages.length > 0 || uses.length > 0) found.push({ id: library.id, name: library.name, packages, files: uses });
	}
	return found;
}

/**
 * The files that set auth up in the apps of each library's guide or `sv` add-on, below `src`
 * and the lib folder: hooks, Auth.js's `src/auth`, the lib modules named like the runtime's
 * folders, Better Auth's client module, Lucia's own module.
 */
function candidateFiles(libDir: string): string[] {
	const stems = ['src/hooks.server', 'src/auth', `${libDir}/server/auth`, `${libDir}/auth`, `${libDir}/auth-client`, `${libDir}/server/lucia`];
	return stems.flatMap((stem) => [`${stem}.ts`, `${stem}.js`]);
}

/**
 * Reads what the app at `root` already has of auth: the libraries it uses ({@link findAuthLibraries}
 * over its package.json and {@link candidateFiles}) and the runtime folders an app module
 * shadows ({@link shadowingModule}). Files that cannot be read count as absent; never throws.
 *
 * @param root the app's folder (absolute)
 * @param libDir the lib folder, app-relative POSIX (`src/lib`)
 * @param packageJson the app's package.json text (not JSON: no dependencies)
 */
export async function detectExistingAuth(root: string, libDir: string, packageJson: string): Promise<ExistingAuth> {
	const files: Record<string, string | undefined> = {};
	for (const file of candidateFiles(libDir)) files[file] = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
	const shadowed: Record<string, string> = {};
	for (const folder of RUNTIME_LIB_FOLDERS) {
		const parent = path.posix.dirname(`${libDir}/${folder}`);
		const entries = await readdir(path.join(root, parent), { withFileTypes: true }).catch(() => []);
		const module = shadowingModule(path.posix.basename(folder), entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
		if (module) shadowed[folder] = `${parent}/${module}`;
	}
	return { libraries: findAuthLibraries(dependenciesOf(packageJson), files), shadowed };
}

/** package.json's dependencies and devDependencies; none when it is not JSON or they are not objects. */
function dependenciesOf(packageJson: string): Record<string, string> {
	try {
		const { dependencies, devDependencies } = JSON.parse(packageJson) as Record<string, unknown>;
		const record = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, string>) : {});
		return { ...record(devDependencies), ...record(dependencies) };
	} catch {
		return {};
	}
}

/**
 * What the first run tells the user about a library it found (README, "Apps that already have
 * auth"): where it is, one place a line, that both run side by side from now on, and what that
 * means for its users. Lines of at most about 76 characters besides the paths, for an 80-column
 * terminal; no trailing newline.
 */
export function existingAuthNotice(library: FoundAuthLibrary): string {
	const where = [...library.packages.map((name) => `${name} in package.json`), ...library.files.map(({ path, uses }) => `${uses} in ${path}`)];
	return [
		`${library.name} is already set up in this app:`,
		...where.map((place) => `  ${place}`),
		'create-auth adds its own sign-in beside it and leaves these as they are.',
		`Both hooks run on every request, and ${library.name}'s users cannot sign in`,
		"on /signin (create-auth's accounts are its own) until the app is switched",
		'over to one of them.',
		`To switch it to create-auth instead, users, passwords and sessions with it:`,
		'  npx create-auth switch'
	].join('\n');
}

/**
 * The Auth.js configuration at the path of create-auth's own (`src/auth.ts` or `.js`, as Auth.js's
 * guide places it), which the run would have to leave in place while the generated pages import
 * create-auth's functions from it: the app would no longer build.
 *
 * @returns the app-relative path, or undefined when `src/auth.*` is not Auth.js's
 */
export function authjsConfigAtOurPath(existing: ExistingAuth): string | undefined {
	const authjs = existing.libraries.find(({ id }) => id === 'authjs');
	return authjs?.files.map(({ path }) => path).find((path) => /^src\/auth\.[jt]s$/.test(path));
}
